/**
 * Retry timing for upstream calls: exponential backoff with full jitter, and the server's
 * `Retry-After` (seconds or an HTTP date) when it sends one.
 */

export interface BackoffOptions {
  /** Delay scale of the first retry, in ms. */
  readonly baseMs: number;
  /** Upper bound of any computed delay, in ms. */
  readonly maxMs: number;
  /** Source of randomness in [0, 1); injectable for tests. */
  readonly random?: () => number;
}

/**
 * Delay before retry number `attempt` (0 for the first retry): a uniform draw in
 * [base·2^attempt / 2, base·2^attempt], capped. Half the window is kept so a retry never
 * fires immediately, the other half spreads clients that failed together ("equal jitter").
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const random = options.random ?? Math.random;
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * `Retry-After` as a delay in ms from `now`, or undefined when absent or unreadable.
 * RFC 9110 §10.2.3 allows delta-seconds or an HTTP date; a date in the past means "now".
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names its day and month; this keeps Date.parse from reading "-1" as a year.
  if (!/^[A-Za-z]{3},/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
