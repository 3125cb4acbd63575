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
