/**
 * What a call tells its caller besides its result: the request was changed or answered another way
 * than asked. The HTTP API sends each as a `Courtside-Notice` header, the CLI on stderr, the client's
 * logger at info level (docs/operations.md).
 */
export type CallNoticeKind =
  /** A `limit` above what ESPN honours was lowered to it. */
  | 'limit-capped'
  /** A date range, month or year was answered from several scoreboards, merged. */
  | 'range-merged'
  /** The calendar was answered from the scoreboard's `leagues[0].calendar`. */
  | 'calendar-from-scoreboard'
  /** ESPN answered an empty body, read as an empty list. */
  | 'empty-body'
  /** The on-demand upstream budget was spent: answered from an expired copy of ESPN's answer. */
  | 'stale';

export interface CallNotice {
  readonly kind: CallNoticeKind;
  /** One sentence, printable ASCII, so it fits an HTTP header. */
  readonly message: string;
}

/** The `Courtside-Source` header value for a notice that says where an answer came from. */
export const NOTICE_SOURCE: Partial<Record<CallNoticeKind, string>> = {
  'range-merged': 'merged-scoreboards',
  'calendar-from-scoreboard': 'scoreboard-calendar',
  'empty-body': 'empty-body',
  stale: 'stale-cache',
};
