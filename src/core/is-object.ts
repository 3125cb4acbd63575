/**
 * Whether a JSON value is an object with keys (not null, not an array): the one test every reader
 * of ESPN's payloads walks them with.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
