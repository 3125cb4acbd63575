// @ts-check
// The client library's checks of what callers pass (URL, retry, subscribe options), its backoff
// and its error class. Plain ES module: the daemon serves it beside courtside.js.

/**
 * @typedef {Record<string, any>} Obj
 * @typedef {'connecting' | 'open' | 'reconnecting' | 'closed'} ConnectionState
 * @typedef {{ state: ConnectionState, previous: ConnectionState, reason: string, code?: string,
 *   closeCode?: number, attempt: number, retryInMs?: number, error?: Error }} StateChange
 * @typedef {{ minMs?: number, maxMs?: number, factor?: number, attempts?: number }} RetryOptions
 * @typedef {{ id?: string, leagues?: string[], games?: string[], teams?: string[],
 *   conferences?: string[], ranked?: boolean, types?: string[], snapshot?: boolean, delay?: number,
 *   since?: string }} SubscribeOptions
 */

// A daemon restart takes a second or two: the first retry comes quickly.
const DEFAULT_RETRY_MIN_MS = 500;
// Capped so a long outage does not hammer the daemon (or a fleet of pages all of it) on return.
const DEFAULT_RETRY_MAX_MS = 10_000;
// The daemon's limit on a spoiler delay (protocol.md, "Spoiler delay").
const MAX_DELAY_SECONDS = 300;
const FILTERS = /** @type {const} */ (['leagues', 'games', 'teams', 'conferences', 'types']);
const OTHER_OPTIONS = ['ranked', 'id', 'snapshot', 'delay', 'since'];

/** An error of the client library; match on `code`. */
export class LiveClientError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{ cause?: unknown }} [options]
   */
  constructor(code, message, options) {
    super(message, options);
    this.name = 'LiveClientError';
    this.code = code;
  }
}

/**
 * The stream URL from a daemon base URL (`http://host:8080`), a stream URL (`ws://.../v1/stream`),
 * or, in a page, a path relative to it.
 * @param {string | URL} url
 * @returns {URL}
 */
export function streamUrl(url) {
  const base = /** @type {{ location?: { href: string } }} */ (globalThis).location?.href;
  let u;
  try {
    u = base ? new URL(url, base) : new URL(url);
  } catch {
    throw new TypeError(
      `connect: url must be an http(s) or ws(s) URL like http://127.0.0.1:8080, got ${String(url)}`,
    );
  }
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:')
    throw new TypeError(`connect: url must be an http(s) or ws(s) URL, got ${u.protocol} in ${String(url)}`);
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/v1/stream';
  return u;
}

/**
 * @param {RetryOptions | false | undefined} retry
 * @returns {Required<RetryOptions>}
 */
export function retryOptions(retry) {
  if (retry === false) return { minMs: 0, maxMs: 0, factor: 1, attempts: 0 };
  const r = {
    minMs: DEFAULT_RETRY_MIN_MS,
    maxMs: DEFAULT_RETRY_MAX_MS,
    factor: 2,
    attempts: Infinity,
    ...retry,
  };
  for (const key of /** @type {const} */ (['minMs', 'maxMs', 'factor', 'attempts'])) {
    const v = r[key];
    if (typeof v !== 'number' || Number.isNaN(v) || v < 0)
      throw new TypeError(`connect: retry.${key} must be a number of at least 0, got ${String(v)}`);
  }
  if (r.maxMs < r.minMs)
    throw new TypeError(`connect: retry.maxMs (${r.maxMs}) is below retry.minMs (${r.minMs})`);
  if (r.factor < 1) throw new TypeError(`connect: retry.factor must be at least 1, got ${r.factor}`);
  return r;
}

/**
 * Capped exponential backoff with jitter: between half and all of the capped step, so clients
 * dropped together do not come back together.
 * @param {Required<RetryOptions>} r
 * @param {number} attempt 1 for the first retry
 */
export function backoffMs(r, attempt, random = Math.random) {
  const step = Math.min(r.maxMs, r.minMs * r.factor ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

/**
 * @param {SubscribeOptions} options
 * @returns {Obj} the subscribe message's fields, checked
 */
export function checkSubscribe(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError('subscribe: options must be an object like { leagues: ["mens"] }');
  /** @type {Obj} */
  const out = {};
  for (const key of Object.keys(options)) {
    if (![...FILTERS, ...OTHER_OPTIONS].includes(key))
      throw new TypeError(
        `subscribe: unknown option "${key}"; expected ${[...FILTERS, ...OTHER_OPTIONS].join(', ')}`,
      );
  }
  for (const key of FILTERS) {
    const v = options[key];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string'))
      throw new TypeError(`subscribe: ${key} must be a non-empty array of strings, got ${JSON.stringify(v)}`);
    out[key] = [...v];
  }
  if (options.ranked !== undefined && typeof options.ranked !== 'boolean')
    throw new TypeError(
      `subscribe: ranked must be true (only games with a ranked team) or false, got ${JSON.stringify(options.ranked)}`,
    );
  if (options.ranked) out.ranked = true;
  if (options.snapshot !== undefined && typeof options.snapshot !== 'boolean')
    throw new TypeError(`subscribe: snapshot must be true or false, got ${JSON.stringify(options.snapshot)}`);
  const delay = options.delay;
  if (delay !== undefined && !(Number.isInteger(delay) && delay >= 0 && delay <= MAX_DELAY_SECONDS))
    throw new TypeError(
      `subscribe: delay must be whole seconds from 0 to ${MAX_DELAY_SECONDS}, got ${JSON.stringify(delay)}`,
    );
  if (delay) out.delay = delay;
  if (
    options.since !== undefined &&
    !(typeof options.since === 'string' && /^\d{1,15}-\d{1,15}$/.test(options.since))
  )
    throw new TypeError(
      `subscribe: since must be an offset like "1732252800000-0", got ${JSON.stringify(options.since)}`,
    );
  if (options.id !== undefined && !(typeof options.id === 'string' && /^[\x20-\x7e]{1,64}$/.test(options.id)))
    throw new TypeError(
      `subscribe: id must be 1-64 printable ASCII characters, got ${JSON.stringify(options.id)}`,
    );
  return out;
}

/**
 * @param {unknown} value
 * @param {number} fallback
 * @param {string} name
 */
export function positive(value, fallback, name) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0))
    throw new TypeError(`connect: ${name} must be a positive number, got ${String(value)}`);
  return value;
}
