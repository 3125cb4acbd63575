// @ts-check
// courtside's client library: one WebSocket to a daemon's /v1/stream, any number of
// subscriptions, and recovery on its own: reconnect with capped jittered backoff, resume each
// subscription from its last offset, drop events seen before, detect a silent connection.
// Plain ES module with no dependency but a WebSocket implementation, so the daemon serves it
// as-is to pages (/client/courtside.js) and Node imports it as `courtside/client`.
import { Emitter } from './emitter.js';
import { backoffMs, checkSubscribe, LiveClientError, positive, retryOptions, streamUrl } from './options.js';
import { closeReason, findWebSocket, openSocket, probeStatus } from './socket.js';
import { Subscription } from './subscription.js';

export { gameState, reduceGame, toSnapshot, RECENT_PLAYS } from './game-state.js';
export { backoffMs, LiveClientError, streamUrl } from './options.js';
/** @deprecated use LiveClientError */
export { LiveClientError as CourtsideClientError } from './options.js';
export { Subscription } from './subscription.js';

/**
 * @typedef {Record<string, any>} Obj
 * @typedef {import('./options.js').ConnectionState} ConnectionState
 * @typedef {import('./options.js').StateChange} StateChange
 * @typedef {import('./options.js').RetryOptions} RetryOptions
 * @typedef {import('./options.js').SubscribeOptions} SubscribeOptions
 */

// The daemon answers with `welcome` at once; ten seconds covers a slow network and a busy server.
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
// Used until `welcome` names the server's interval (the daemon's default is 15 s).
const DEFAULT_HEARTBEAT_MS = 15_000;
// Duplicates come from a restart or fail-over re-emitting a few polls' events; a full night of
// both leagues is ~10k events, so this window covers far more than any re-emission.
const DEFAULT_DEDUPE_WINDOW = 10_000;
// After `internal_error` the daemon dropped the subscription: try again, not at once.
const RESUBSCRIBE_MS = 1_000;
// Codes that refuse a subscription for what it asks: asking again would be refused again.
const RESUMABLE_CODES = new Set(['resume_gap', 'internal_error', 'slow_consumer', 'subscribe_rate_limited']);

/**
 * A connection to a daemon's stream, kept up until `close()`.
 * @extends {Emitter<{ state: [StateChange], welcome: [Obj], error: [Error] }>}
 */
export class LiveClient extends Emitter {
  /** @type {ConnectionState} */
  #state = 'connecting';
  /** @type {any} */
  #ws;
  /** @type {Map<string, Subscription>} */
  #subs = new Map();
  #attempt = 0;
  #nextId = 1;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #retryTimer;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  #beat;
  #lastHeard = 0;
  #lastSent = 0;
  #heartbeatMs = DEFAULT_HEARTBEAT_MS;
  /** Why the server is about to close (slow_consumer), for the state change that follows. */
  #closing = '';
  /** @type {Promise<any>} */
  #impl;
  /** @type {(() => void) | undefined} */
  #closed;
  /** @type {Obj | undefined} */
  welcome;

  /**
   * @param {string | URL} url
   * @param {{ token?: string, retry?: RetryOptions | false, WebSocket?: any, connectTimeoutMs?: number,
   *   dedupeWindow?: number, heartbeatMs?: number }} [options]
   */
  constructor(url, options = {}) {
    super();
    if (options === null || typeof options !== 'object')
      throw new TypeError('connect: options must be an object');
    this.url = streamUrl(url);
    if (options.token !== undefined && (typeof options.token !== 'string' || options.token === ''))
      throw new TypeError('connect: token must be a non-empty string');
    this.token = options.token;
    this.retry = retryOptions(options.retry);
    this.connectTimeoutMs = positive(
      options.connectTimeoutMs,
      DEFAULT_CONNECT_TIMEOUT_MS,
      'connectTimeoutMs',
    );
    this.dedupeWindow = positive(options.dedupeWindow, DEFAULT_DEDUPE_WINDOW, 'dedupeWindow');
    /** A ceiling on the server's interval: the silence that counts as dead is twice the lower. */
    this.heartbeatCap = positive(options.heartbeatMs, Infinity, 'heartbeatMs');
    this.#impl = findWebSocket(options.WebSocket);
    // Found asynchronously; a missing implementation closes the client with the reason.
    this.#impl.catch(() => undefined);
    queueMicrotask(() => this.#open());
  }

  /** @returns {ConnectionState} */
  get state() {
    return this.#state;
  }

  /** The subscriptions still running. */
  get subscriptions() {
    return [...this.#subs.values()];
  }

  /**
   * Starts a subscription; it is sent now or as soon as the connection is open, and again on
   * every reconnect, from where it left off.
   * @param {SubscribeOptions} [options]
   */
  subscribe(options = {}) {
    if (this.#state === 'closed') throw new LiveClientError('closed', 'subscribe: the client is closed');
    const fields = checkSubscribe(options);
    const id = options.id ?? `sub-${this.#nextId++}`;
    if (this.#subs.has(id)) throw new TypeError(`subscribe: id "${id}" is already in use on this client`);
    const sub = new Subscription(
      this,
      id,
      fields,
      options.snapshot === true,
      options.since,
      this.dedupeWindow,
    );
    this.#subs.set(id, sub);
    if (this.#state === 'open') this.#send(sub.message());
    return sub;
  }

  /**
   * Closes the connection for good and ends every subscription. Safe to call twice.
   * @returns {Promise<void>}
   */
  close() {
    if (this.#state === 'closed') return Promise.resolve();
    const ws = this.#ws;
    const done = new Promise((resolve) => {
      if (!ws || ws.readyState === 3) resolve(undefined);
      else {
        this.#closed = () => resolve(undefined);
        // A peer that never answers the close must not hold `close()` forever.
        setTimeout(() => resolve(undefined), 1_000);
      }
    });
    this.#setState('closed', { reason: 'closed by the client' });
    this.#teardown();
    if (ws && ws.readyState <= 1) {
      ws.addEventListener?.('close', () => this.#closed?.());
      try {
        ws.close(1000);
      } catch {
        // Closing a socket still connecting throws in some implementations; it is dropped anyway.
      }
    }
    for (const sub of this.#subs.values()) sub._end();
    this.#subs.clear();
    return /** @type {Promise<void>} */ (done);
  }

  /**
   * @param {Subscription} sub
   * @param {boolean} tell whether to send `unsubscribe`
   */
  _drop(sub, tell) {
    if (this.#subs.get(sub.id) !== sub) return;
    this.#subs.delete(sub.id);
    if (tell && sub.active && this.#state === 'open') this.#send({ op: 'unsubscribe', id: sub.id });
    sub._end();
  }

  /**
   * @param {ConnectionState} state
   * @param {Omit<StateChange, 'state' | 'previous' | 'attempt'>} detail
   */
  #setState(state, detail) {
    const previous = this.#state;
    this.#state = state;
    /** @type {StateChange} */
    const change = { state, previous, attempt: this.#attempt, ...detail };
    this.emit('state', change);
    for (const sub of [...this.#subs.values()]) sub.emit('state', change);
  }

  /** @param {Obj} message */
  #send(message) {
    const ws = this.#ws;
    if (!ws || ws.readyState !== 1) return;
    this.#lastSent = Date.now();
    ws.send(JSON.stringify(message));
  }

  async #open() {
    if (this.#state === 'closed') return;
    let Impl;
    try {
      Impl = await this.#impl;
    } catch (err) {
      const error = /** @type {Error} */ (err);
      this.#fail(error);
      return;
    }
    // `close()` may have run while the implementation was looked up.
    if (this.state === 'closed') return;
    /** @type {any} */
    let ws;
    try {
      ws = openSocket(Impl, this.url, this.token);
    } catch (err) {
      this.#fail(/** @type {Error} */ (err));
      return;
    }
    this.#ws = ws;
    let welcomed = false;
    /** @type {Error | undefined} */
    let socketError;
    const timer = setTimeout(() => {
      if (this.#ws === ws && !welcomed)
        this.#lost(ws, {
          reason: `no welcome from the daemon within ${this.connectTimeoutMs} ms`,
          code: 'connect_timeout',
        });
    }, this.connectTimeoutMs);
    ws.addEventListener('message', (/** @type {{ data: unknown }} */ m) => {
      if (this.#ws !== ws) return;
      this.#lastHeard = Date.now();
      let frame;
      try {
        frame = JSON.parse(typeof m.data === 'string' ? m.data : String(m.data));
      } catch {
        return;
      }
      if (frame?.type === 'welcome') {
        welcomed = true;
        clearTimeout(timer);
      }
      this.#onFrame(frame);
    });
    ws.addEventListener('error', (/** @type {{ error?: Error, message?: string }} */ e) => {
      socketError = e.error ?? new Error(e.message ?? 'WebSocket error');
    });
    ws.addEventListener('close', (/** @type {{ code: number, reason: string }} */ e) => {
      clearTimeout(timer);
      if (this.#ws !== ws) return;
      const why = this.#closing || closeReason(e.code, e.reason, socketError);
      this.#closing = '';
      if (!welcomed) void this.#refused(ws, why, e.code, socketError);
      else this.#lost(ws, { reason: why, closeCode: e.code, ...(socketError ? { error: socketError } : {}) });
    });
  }

  /**
   * A connection that closed before `welcome`: a refusal at the upgrade (401, 403) will not pass
   * on a retry, so one plain HTTP request asks the daemon why. A browser's WebSocket hides the
   * status; this request does not.
   * @param {any} ws
   * @param {string} why
   * @param {number} closeCode
   * @param {Error | undefined} error
   */
  async #refused(ws, why, closeCode, error) {
    const status =
      this.#attempt <= 1 ? await probeStatus(this.url, this.token, this.connectTimeoutMs) : undefined;
    // `close()` may have run while the probe was out.
    if (this.#ws !== ws || this.state === 'closed') return;
    if (status === 401 || status === 403) {
      const code = status === 401 ? 'unauthorized' : 'forbidden';
      const text =
        status === 401
          ? `the daemon at ${this.url.origin} refused the connection (401): ${this.token ? 'the token is not one of its tokens' : 'it needs a token: connect(url, { token })'}`
          : `the daemon at ${this.url.origin} refused the connection (403): this origin is not in its COURTSIDE_ORIGINS`;
      this.#fail(new LiveClientError(code, text));
      return;
    }
    this.#lost(ws, { reason: `cannot connect: ${why}`, closeCode, ...(error ? { error } : {}) });
  }

  /**
   * A connection gone: schedule the next one, or close for good when retries are used up.
   * @param {any} ws
   * @param {Omit<StateChange, 'state' | 'previous' | 'attempt'>} detail
   */
  #lost(ws, detail) {
    if (this.#ws !== ws || this.#state === 'closed') return;
    this.#teardown();
    // Forget it first: its own close event, coming later, must not count as another loss.
    this.#ws = undefined;
    try {
      // `ws` can drop a dead TCP connection at once; a browser's socket closes in its own time.
      if (typeof ws.terminate === 'function') ws.terminate();
      else if (ws.readyState <= 1) ws.close(4001, 'client gave up on a silent connection');
    } catch {
      // Already closed.
    }
    for (const sub of this.#subs.values()) sub.active = false;
    this.#attempt += 1;
    if (this.#attempt > this.retry.attempts) {
      this.#fail(
        new LiveClientError(
          'retries_exhausted',
          `gave up after ${this.retry.attempts} retries: ${detail.reason}`,
        ),
      );
      return;
    }
    const retryInMs = backoffMs(this.retry, this.#attempt);
    this.#setState('reconnecting', { ...detail, retryInMs });
    this.#retryTimer = setTimeout(() => void this.#open(), retryInMs);
  }

  /** @param {Error} error closes the client for good: the reason is in the state change */
  #fail(error) {
    if (this.#state === 'closed') return;
    const code = /** @type {Obj} */ (error).code;
    this.#teardown();
    const ws = this.#ws;
    this.#ws = undefined;
    try {
      ws?.close?.();
    } catch {
      // Already closed.
    }
    this.#setState('closed', { reason: error.message, ...(code ? { code } : {}), error });
    this.emit('error', error);
    for (const sub of this.#subs.values()) sub._end(error);
    this.#subs.clear();
  }

  #teardown() {
    clearTimeout(this.#retryTimer);
    clearInterval(this.#beat);
    this.#retryTimer = this.#beat = undefined;
  }

  /**
   * The heartbeat: a ping when the line has been quiet for an interval, and a connection that
   * heard nothing for two intervals is dead. Browsers do not surface the server's WebSocket
   * pings, so the check rides on the protocol's own `ping`/`pong`.
   * @param {any} ws
   */
  #startHeartbeat(ws) {
    clearInterval(this.#beat);
    const every = this.#heartbeatMs;
    this.#beat = setInterval(
      () => {
        if (this.#ws !== ws) return;
        const now = Date.now();
        if (now - this.#lastHeard > 2 * every) {
          this.#lost(ws, {
            reason: `heartbeat: nothing heard for ${now - this.#lastHeard} ms (limit ${2 * every} ms)`,
            code: 'heartbeat_timeout',
          });
        } else if (now - Math.max(this.#lastHeard, this.#lastSent) >= every) {
          this.#send({ op: 'ping' });
        }
      },
      Math.max(10, Math.floor(every / 4)),
    );
  }

  /** @param {Obj} frame */
  #onFrame(frame) {
    if (frame === null || typeof frame !== 'object') return;
    switch (frame.type) {
      case 'welcome': {
        this.welcome = frame;
        const server =
          typeof frame.heartbeatMs === 'number' && frame.heartbeatMs > 0
            ? frame.heartbeatMs
            : DEFAULT_HEARTBEAT_MS;
        this.#heartbeatMs = Math.min(server, this.heartbeatCap);
        const wasReconnect = this.#state === 'reconnecting';
        this.#attempt = 0;
        this.#setState('open', { reason: wasReconnect ? 'reconnected' : 'connected' });
        this.emit('welcome', frame);
        this.#startHeartbeat(this.#ws);
        for (const sub of this.#subs.values()) this.#send(sub.message());
        return;
      }
      case 'subscribed': {
        const sub = this.#subs.get(frame.id);
        if (!sub) return;
        sub.active = true;
        // Without an event yet, resume from where the daemon started this subscription; a
        // delayed one is still holding events logged before it, so it starts over instead.
        if (sub.since === undefined && !sub.fields.delay) sub.since = frame.offset;
        return;
      }
      case 'snapshot': {
        const sub = this.#subs.get(frame.sub);
        if (!sub || !frame.game) return;
        sub.stats.snapshots += 1;
        sub.emit('snapshot', frame.game);
        return;
      }
      case 'event': {
        const sub = this.#subs.get(frame.sub);
        const event = frame.event;
        if (!sub || !event) return;
        if (typeof event.offset === 'string') sub.since = event.offset;
        if (typeof event.id === 'string' && !sub.seen.add(event.id)) {
          sub.stats.duplicates += 1;
          return;
        }
        sub.stats.events += 1;
        sub.emit('event', event);
        return;
      }
      case 'unsubscribed':
        return;
      case 'error':
        this.#onError(frame);
        return;
      default:
        return;
    }
  }

  /** @param {Obj} frame */
  #onError(frame) {
    const code = String(frame.code ?? 'error');
    const message = String(frame.message ?? '');
    const sub = typeof frame.id === 'string' ? this.#subs.get(frame.id) : undefined;
    if (code === 'slow_consumer') {
      // The daemon closes the connection next; the reconnect resumes from the last offset.
      this.#closing = `slow_consumer: ${message}`;
      return;
    }
    if (!sub) {
      this.emit('error', new LiveClientError(code, message));
      return;
    }
    if (code === 'resume_gap') {
      sub.stats.gaps += 1;
      sub.emit('gap', { code, message, since: sub.since ?? null });
      return;
    }
    if (code === 'internal_error' || code === 'subscribe_rate_limited') {
      sub.active = false;
      const ws = this.#ws;
      // Over the address's subscribe rate: when the daemon says, plus up to as much again at random,
      // so clients refused together do not come back together.
      const asked = Number(frame.retryAfterMs);
      const delay =
        code === 'subscribe_rate_limited' && Number.isFinite(asked) && asked > 0
          ? asked * (1 + Math.random())
          : RESUBSCRIBE_MS;
      setTimeout(() => {
        if (this.#ws === ws && this.#subs.get(sub.id) === sub && !sub.active) this.#send(sub.message());
      }, delay);
      return;
    }
    if (!RESUMABLE_CODES.has(code)) {
      // The daemon refused what the subscription asks for: asking again gets the same answer.
      this.#subs.delete(sub.id);
      sub._end(new LiveClientError(code, `subscription "${sub.id}" refused: ${message}`));
    }
  }
}

/**
 * Opens a client to a daemon: `connect('http://127.0.0.1:8080')`, or in a page served by the
 * daemon, `connect('/')`. It connects at once and keeps the connection up until `close()`.
 * @param {string | URL} url
 * @param {ConstructorParameters<typeof LiveClient>[1]} [options]
 */
export function connect(url, options) {
  return new LiveClient(url, options);
}

/** @deprecated use LiveClient */
export const Client = LiveClient;
