// @ts-check
// The socket under the client: finding a WebSocket implementation, opening one with the token
// where that implementation can carry it, asking the daemon over plain HTTP why it refused an
// upgrade, and putting a close code into words. The reconnect and heartbeat logic that decides
// what to do with these stays in courtside.js.
import { LiveClientError } from './options.js';

/**
 * @typedef {Record<string, any>} Obj
 */

/**
 * Finds a WebSocket implementation: the one given, the platform's, or the `ws` package.
 * @param {any} given
 * @returns {Promise<any>}
 */
export async function findWebSocket(given) {
  if (given) return given;
  const platform = /** @type {Obj} */ (globalThis).WebSocket;
  if (platform) return platform;
  // A computed specifier: bundlers must not try to pull `ws` into a browser build.
  const name = 'ws';
  try {
    const mod = await import(name);
    return mod.WebSocket ?? mod.default;
  } catch (err) {
    throw new LiveClientError(
      'no_websocket',
      'no WebSocket implementation: this runtime has no global WebSocket (Node before 22); install the "ws" package or pass { WebSocket }',
      { cause: err },
    );
  }
}

/**
 * Opens a socket to the stream. `ws` sends headers; a browser's WebSocket cannot, so the token
 * goes in the query there.
 * @param {any} Impl a WebSocket constructor
 * @param {URL} streamUrl
 * @param {string | undefined} token
 * @returns {any} the socket
 * @throws {LiveClientError} `invalid_url` when the implementation refuses the URL
 */
export function openSocket(Impl, streamUrl, token) {
  const url = new URL(streamUrl);
  const wsPackage = typeof Impl.prototype?.terminate === 'function';
  if (token && !wsPackage) url.searchParams.set('token', token);
  try {
    return wsPackage && token
      ? new Impl(url, { headers: { authorization: `Bearer ${token}` } })
      : new Impl(url);
  } catch (err) {
    throw new LiveClientError('invalid_url', `cannot open ${url.origin}${url.pathname}: ${String(err)}`, {
      cause: err,
    });
  }
}

/**
 * One plain HTTP GET of the stream path, for the status a browser's WebSocket hides.
 * @param {URL} streamUrl
 * @param {string | undefined} token
 * @param {number} timeoutMs
 * @returns {Promise<number | undefined>} the HTTP status, or undefined when there is no answer
 */
export async function probeStatus(streamUrl, token, timeoutMs) {
  const f = /** @type {Obj} */ (globalThis).fetch;
  if (typeof f !== 'function') return undefined;
  const url = new URL(streamUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  // A plain timer, not AbortSignal.timeout(): Node's fetch alone does not keep a process alive,
  // and a command whose only work is this client would exit in the middle of the probe.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await f(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: abort.signal,
    });
    await res.body?.cancel?.();
    return res.status;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @param {number} code
 * @param {string} reason
 * @param {Error | undefined} error
 */
export function closeReason(code, reason, error) {
  if (code === 1001) return `the daemon is shutting down (1001${reason ? ` ${reason}` : ''})`;
  if (code === 4000) return `the daemon dropped a slow consumer (4000${reason ? ` ${reason}` : ''})`;
  if (code === 1006) return `connection lost (1006${error?.message ? `: ${error.message}` : ''})`;
  return `connection closed (${code}${reason ? ` ${reason}` : ''}${error?.message ? `: ${error.message}` : ''})`;
}
