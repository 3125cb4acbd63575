import { setMaxListeners } from 'node:events';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import {
  CourtsideError,
  OnDemandBudgetError,
  UpstreamBlockedError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamNotFoundError,
  UpstreamPayloadError,
  UpstreamTimeoutError,
} from '../core/errors.js';
import type { Logger } from '../core/log.js';
import {
  limitRefusals,
  onDemandUpstreamRequests,
  upstreamCacheBytes,
  upstreamCacheHits,
  upstreamQueueWait,
  upstreamRequests,
} from '../core/metrics.js';
import { backoffDelay } from '../core/backoff.js';
import { parseRetryAfter } from './backoff.js';
import { LaneSlots, type Lane } from './lane.js';
import { TokenBucket, type BucketLimit } from '../core/token-bucket.js';
import type { BuiltRequest } from './operations.js';
import { ResponseCache, type CachedResponse } from './response-cache.js';
import { isKnownStatus, noteAnomaly } from './upstream-anomalies.js';
import { ACCEPTED_USER_AGENT_FORM } from './user-agent.js';

/**
 * The one place that talks to the upstream. Operations' paths come only from the registry
 * (`BuiltRequest`) and their origin is fixed at construction, so no caller can aim them elsewhere.
 * The one way out is `getDocument`, for a URL the upstream handed out itself (a FastCast checkpoint,
 * on ESPN's CDN): it goes through the same exchange, timeouts and decoding, and is never cached.
 *
 * Per call: TTL cache → join an identical in-flight request (single-flight) → one upstream
 * exchange with retries. undici's RetryAgent was considered: it honours Retry-After but has
 * no jitter and surfaces its own `RequestRetryError`, so the loop here is ours; the agent
 * still gives keep-alive and the per-origin connection limit. (Its decompress interceptor
 * prints an "experimental" warning on every run, so bodies are inflated here with zlib.)
 *
 * Two lanes, each with its own slots and connections: `live` (the default: the engine's polls, and
 * any caller that says nothing) and `on-demand` (the HTTP API's operations). However many on-demand
 * requests are out or waiting, a live request finds its own lane as it would alone.
 */

export interface UpstreamHttpOptions {
  /** Base URL, e.g. `https://site.api.espn.com`; a path prefix is kept. */
  readonly upstream: string;
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** A `Retry-After` longer than this ends the retries instead of stalling the caller. */
  readonly maxRetryAfterMs: number;
  /** Open connections (and so requests in flight) per upstream host, of the live lane. */
  readonly concurrency: number;
  /** The same, of the on-demand lane; default 4. */
  readonly onDemandConcurrency?: number;
  /** Requests a second the on-demand lane may send upstream (retries included), and its burst. */
  readonly onDemandBudget?: BucketLimit;
  /**
   * An on-demand request waits this long at most for the budget; one that would wait longer is
   * refused (`OnDemandBudgetError`), or answered from an expired cache entry when one is held.
   */
  readonly onDemandMaxWaitMs?: number;
  readonly cache: boolean;
  readonly cacheMaxEntries: number;
  /** Body bytes the cache holds at most. */
  readonly cacheMaxBytes: number;
  readonly now: () => number;
  readonly random?: () => number;
  readonly logger: Logger;
}

export interface GetOptions {
  /** Skip the TTL, still sending the held validators. */
  readonly fresh?: boolean;
  /** Stops this caller waiting; a request shared with other callers carries on. */
  readonly signal?: AbortSignal;
  /** Which lane sends the request; default `live`. */
  readonly lane?: Lane;
  /**
   * Told when an on-demand call is answered from an expired cache entry because the budget is
   * spent, with the entry's age in ms.
   */
  readonly onStale?: (ageMs: number) => void;
}

/** What one lane is doing, and the longest a request of it waited for a slot lately. */
export interface LaneStats {
  readonly slots: number;
  readonly inFlight: number;
  readonly waiting: number;
  /** The longest slot wait of the last minute, in ms, and when it ended (wall clock, ms). */
  readonly longestWait: { readonly ms: number; readonly at: number } | null;
}

export interface BudgetStats {
  readonly rate: number;
  readonly burst: number;
  /** Tokens left now; negative while requests wait on credit. */
  readonly tokens: number;
}

/**
 * A document at a URL the upstream itself handed out (a FastCast checkpoint), not an operation of
 * the registry: any origin, never cached, sent in the live lane.
 */
export interface DocumentRequest {
  /** Names the request in metrics and logs where an operation's name would stand. */
  readonly name: string;
  readonly url: string;
  /** Sent instead of the client's own User-Agent and beside its Accept headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A document and the bytes it took on the wire. */
export interface FetchedDocument {
  readonly body: unknown;
  readonly bytes: number;
}

export interface UpstreamHttp {
  get(request: BuiltRequest, options?: GetOptions): Promise<unknown>;
  /**
   * Downloads a document the upstream pointed at, with the same timeouts, retries, decoding and
   * status handling as `get`, in the live lane (it feeds live games).
   */
  getDocument(request: DocumentRequest, options?: { signal?: AbortSignal }): Promise<FetchedDocument>;
  lanes(): Readonly<Record<Lane, LaneStats>>;
  /** The on-demand budget now. */
  budget(): BudgetStats;
  close(): Promise<void>;
}

// Keep idle sockets for a few polling intervals (summaries are polled every 3 s).
const KEEP_ALIVE_MS = 30_000;
// The largest recorded payload is 1.2 MB (league injuries); 32 MB bounds a hostile upstream.
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const NOT_FOUND_REASON =
  'answered 404: an id it does not know, or an endpoint it no longer serves (docs/upstream.md)';
// An error page is read only to tell a WAF's HTML from ESPN's JSON; its first bytes suffice.
const MAX_ERROR_BODY_BYTES = 64 * 1024;
// A response unused for a minute is dropped: a live game's summary is polled every few seconds, an
// on-demand one asked again within a minute is worth revalidating, and a finished one is not.
const CACHE_IDLE_MS = 60_000;
// On-demand calls have their own connections; their budget (10 a second by default) keeps ~3 in
// flight against a 300 ms upstream, so 4 serve it without opening more sockets than it needs.
export const DEFAULT_ON_DEMAND_CONCURRENCY = 4;
// Ten requests a second keeps courtside's own traffic to ESPN steady and small whatever its readers
// do; with the cache and single-flight it still answers a few hundred of them.
export const DEFAULT_ON_DEMAND_BUDGET: BucketLimit = { rate: 10, burst: 10 };
// A second's wait is what a reader barely notices; beyond it, a 429 says when to come back.
export const DEFAULT_ON_DEMAND_MAX_WAIT_MS = 1_000;
// How long a lane remembers its longest slot wait: a minute spans many polls of every cadence.
const LONGEST_WAIT_WINDOW_MS = 60_000;

/** One exchange's destination: an operation's request, or a document the upstream pointed at. */
interface Target {
  /** The operation's name, or the document's: the label of the request metrics. */
  readonly name: string;
  readonly origin: string;
  readonly path: string;
  readonly url: string;
  /** Where the answer is cached, or null for a document that is never asked for twice. */
  readonly cache: { readonly key: string; readonly ttlMs: number } | null;
  readonly headers?: Readonly<Record<string, string>>;
}

type Attempt =
  | { readonly ok: true; readonly body: unknown; readonly bytes: number }
  | {
      readonly ok: false;
      readonly error: CourtsideError;
      readonly retry: boolean;
      readonly retryAfterMs?: number;
    };

export function createUpstreamHttp(options: UpstreamHttpOptions): UpstreamHttp {
  const base = new URL(options.upstream);
  const origin = base.origin;
  const prefix = base.pathname.replace(/\/+$/, '');
  const lanes = {
    live: createLane(options.concurrency),
    'on-demand': createLane(options.onDemandConcurrency ?? DEFAULT_ON_DEMAND_CONCURRENCY),
  } satisfies Record<Lane, unknown>;
  const cache = options.cache
    ? new ResponseCache({
        maxEntries: options.cacheMaxEntries,
        maxBytes: options.cacheMaxBytes,
        idleMs: CACHE_IDLE_MS,
      })
    : undefined;
  const flights = new Map<string, Promise<unknown>>();
  const budgetLimit = options.onDemandBudget ?? DEFAULT_ON_DEMAND_BUDGET;
  // The budget paces real requests, so it runs on the wall clock whatever clock the cache is given.
  const budget = new TokenBucket(budgetLimit, Date.now());
  const maxBudgetWaitMs = options.onDemandMaxWaitMs ?? DEFAULT_ON_DEMAND_MAX_WAIT_MS;
  const closing = new AbortController();
  // One listener per request in flight (a live game each, plus on-demand calls): no fixed cap fits.
  setMaxListeners(0, closing.signal);
  let closed: Promise<void> | undefined;

  async function get(request: BuiltRequest, getOptions: GetOptions = {}): Promise<unknown> {
    const key = request.pathAndQuery;
    const operation = request.operation.name;
    if (closing.signal.aborted) {
      throw new UpstreamNetworkError(origin + prefix + key, { cause: new Error('client closed') });
    }
    if (cache && !getOptions.fresh) {
      const hit = cache.fresh(key, request.operation.ttlMs, options.now());
      if (hit) {
        upstreamCacheHits.inc({ operation, kind: 'ttl' });
        return hit.body;
      }
    }
    const lane = getOptions.lane ?? 'live';
    // An on-demand caller may join a live request; a live one never waits on an on-demand one.
    const joinable = lane === 'live' ? [lane] : (['on-demand', 'live'] as const);
    let flight = joinable.map((l) => flights.get(`${l} ${key}`)).find((f) => f !== undefined);
    if (flight) {
      upstreamCacheHits.inc({ operation, kind: 'inflight' });
    } else {
      const flightKey = `${lane} ${key}`;
      flight = fetchWithRetries(operationTarget(request), lane)
        .then((fetched) => fetched.body)
        .finally(() => flights.delete(flightKey));
      // Every caller may have stopped waiting (signal); the outcome is then nobody's to handle.
      flight.catch(() => undefined);
      flights.set(flightKey, flight);
    }
    const answer = waitFor(flight, getOptions.signal);
    if (lane !== 'on-demand') return answer;
    return answer.catch((error: unknown) => {
      // Better an answer a little old than none: the budget protects the upstream, not the data.
      const held = error instanceof OnDemandBudgetError ? cache?.held(key) : undefined;
      if (!held) {
        if (error instanceof OnDemandBudgetError) limitRefusals.inc({ limit: 'on_demand_budget' });
        throw error;
      }
      upstreamCacheHits.inc({ operation, kind: 'stale' });
      getOptions.onStale?.(options.now() - held.storedAt);
      return held.body;
    });
  }

  async function getDocument(
    request: DocumentRequest,
    getOptions: { signal?: AbortSignal } = {},
  ): Promise<FetchedDocument> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch (cause) {
      throw new UpstreamPayloadError(request.url, 'the document URL is not a URL', { cause });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UpstreamPayloadError(request.url, `the document URL is ${url.protocol}, not http(s)`);
    }
    if (closing.signal.aborted) {
      throw new UpstreamNetworkError(request.url, { cause: new Error('client closed') });
    }
    const target: Target = {
      name: request.name,
      origin: url.origin,
      path: url.pathname + url.search,
      url: url.href,
      cache: null,
      ...(request.headers ? { headers: request.headers } : {}),
    };
    const fetched = fetchWithRetries(target, 'live');
    fetched.catch(() => undefined);
    return waitFor(fetched, getOptions.signal);
  }

  function operationTarget(request: BuiltRequest): Target {
    return {
      name: request.operation.name,
      origin,
      path: prefix + request.pathAndQuery,
      url: origin + prefix + request.pathAndQuery,
      cache: { key: request.pathAndQuery, ttlMs: request.operation.ttlMs },
    };
  }

  /** Spends one token of the on-demand budget, waiting for it when that is short enough. */
  async function spendBudget(target: Target): Promise<void> {
    const grant = budget.take(Date.now(), 1, maxBudgetWaitMs);
    if (!grant.ok) {
      throw new OnDemandBudgetError(target.url, grant.retryAfterMs, budgetLimit.rate);
    }
    if (grant.waitMs > 0) await sleep(grant.waitMs, closing.signal);
    onDemandUpstreamRequests.inc();
  }

  async function fetchWithRetries(target: Target, lane: Lane): Promise<FetchedDocument> {
    for (let attempt = 0; ; attempt++) {
      if (lane === 'on-demand') await spendBudget(target);
      const result = await inLane(lane, () => attemptOnce(target, lane));
      if (result.ok) return { body: result.body, bytes: result.bytes };
      const delay = result.retryAfterMs ?? backoffDelay(attempt, backoffOptions);
      const giveUp = !result.retry || attempt >= options.retries || delay > options.maxRetryAfterMs;
      if (giveUp || closing.signal.aborted) {
        throw result.error;
      }
      options.logger.debug(
        { operation: target.name, code: result.error.code, attempt: attempt + 1, delay },
        'upstream retry',
      );
      await sleep(delay, closing.signal);
    }
  }

  const backoffOptions = {
    baseMs: options.retryBaseMs,
    maxMs: options.retryMaxMs,
    ...(options.random ? { random: options.random } : {}),
  };

  /** Runs `work` holding a slot of `lane`, recording how long the slot took to come. */
  async function inLane<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
    const state = lanes[lane];
    // Waits are real time, whatever clock the cache is given.
    const asked = Date.now();
    const release = await state.slots.acquire();
    const at = Date.now();
    const waitedMs = at - asked;
    upstreamQueueWait.observe({ lane }, waitedMs / 1000);
    const longest = state.longestWait;
    if (!longest || waitedMs >= longest.ms || at - longest.at > LONGEST_WAIT_WINDOW_MS) {
      state.longestWait = { ms: waitedMs, at };
    }
    try {
      return await work();
    } finally {
      release();
    }
  }

  async function attemptOnce(target: Target, lane: Lane): Promise<Attempt> {
    const { name: operation, url } = target;
    const held = target.cache ? cache?.held(target.cache.key) : undefined;
    const headers: Record<string, string> = {
      'user-agent': options.userAgent,
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
    for (const [name, value] of Object.entries(target.headers ?? {})) headers[name.toLowerCase()] = value;
    const userAgent = headers['user-agent'] ?? options.userAgent;
    if (held?.etag) headers['if-none-match'] = held.etag;
    if (held?.lastModified) headers['if-modified-since'] = held.lastModified;

    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
    const onClose = (): void => timeout.abort();
    closing.signal.addEventListener('abort', onClose, { once: true });
    try {
      const response = await lanes[lane].dispatcher.request({
        origin: target.origin,
        path: target.path,
        method: 'GET',
        headers,
        signal: timeout.signal,
      });
      const status = response.statusCode;
      upstreamRequests.inc({ operation, status: String(status) });
      if (status === 304 && held) {
        await response.body.dump();
        storeIn(target, held.body, held.bytes, response.headers, held);
        upstreamCacheHits.inc({ operation, kind: 'not_modified' });
        return { ok: true, body: held.body, bytes: held.bytes };
      }
      if (status >= 200 && status < 300) {
        const { text, bytes } = await readBody(
          response.body,
          header(response.headers, 'content-encoding'),
          url,
        );
        if (text.trim() === '') {
          // Seen on endpoints ESPN no longer fills (a team's injuries, 2026-09): nothing to cache.
          noteAnomaly('empty_body', options.logger, { operation, url });
          return fail(new UpstreamNotFoundError(status, url, `answered ${status} with an empty body`), false);
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (cause) {
          noteAnomaly('unparsable_body', options.logger, { operation, url, detail: text.slice(0, 80) });
          return fail(new UpstreamPayloadError(url, 'body is not JSON', { cause }), false);
        }
        storeIn(target, body, bytes, response.headers, undefined);
        return { ok: true, body, bytes };
      }
      if (status === 403) {
        const text = await readErrorBody(response.body);
        if (!isJson(text)) {
          noteAnomaly('blocked', options.logger, { operation, url, detail: userAgent });
          return fail(new UpstreamBlockedError(url, userAgent, ACCEPTED_USER_AGENT_FORM), false);
        }
        noteAnomaly('unknown_status', options.logger, { operation, url, detail: status });
        return fail(new UpstreamHttpError(status, url), false);
      }
      if (!isKnownStatus(status)) {
        noteAnomaly('unknown_status', options.logger, { operation, url, detail: status });
      }
      await response.body.dump();
      if (status === 404) return fail(new UpstreamNotFoundError(status, url, NOT_FOUND_REASON), false);
      const error = new UpstreamHttpError(status, url);
      if (status === 429 || status >= 500) {
        const retryAfterMs = parseRetryAfter(response.headers['retry-after'], Date.now());
        return retryAfterMs === undefined
          ? fail(error, true)
          : { ok: false, error, retry: true, retryAfterMs };
      }
      return fail(error, false);
    } catch (cause) {
      if (cause instanceof CourtsideError) return fail(cause, false);
      if (timeout.signal.aborted && !closing.signal.aborted) {
        upstreamRequests.inc({ operation, status: 'timeout' });
        return fail(new UpstreamTimeoutError(url, options.timeoutMs, { cause }), true);
      }
      upstreamRequests.inc({ operation, status: 'network' });
      return fail(new UpstreamNetworkError(url, { cause }), !closing.signal.aborted);
    } finally {
      clearTimeout(timer);
      closing.signal.removeEventListener('abort', onClose);
    }
  }

  function fail(error: CourtsideError, retry: boolean): Attempt {
    return { ok: false, error, retry };
  }

  function storeIn(
    target: Target,
    body: unknown,
    bytes: number,
    headers: Record<string, string | string[] | undefined>,
    previous: CachedResponse | undefined,
  ): void {
    if (!cache || !target.cache) return;
    const now = options.now();
    cache.set(
      target.cache.key,
      {
        body,
        etag: header(headers, 'etag') ?? previous?.etag,
        lastModified: header(headers, 'last-modified') ?? previous?.lastModified,
        storedAt: now,
        bytes,
      },
      target.cache.ttlMs,
      now,
    );
    upstreamCacheBytes.set(cache.bytes);
  }

  function close(): Promise<void> {
    closed ??= (async () => {
      closing.abort();
      cache?.clear();
      await Promise.all(Object.values(lanes).map((lane) => lane.dispatcher.destroy()));
    })();
    return closed;
  }

  function laneStats(): Record<Lane, LaneStats> {
    const now = Date.now();
    const stats = (lane: LaneState): LaneStats => ({
      slots: lane.slots.slots,
      inFlight: lane.slots.inFlight,
      waiting: lane.slots.waiting,
      longestWait:
        lane.longestWait && now - lane.longestWait.at <= LONGEST_WAIT_WINDOW_MS ? lane.longestWait : null,
    });
    return { live: stats(lanes.live), 'on-demand': stats(lanes['on-demand']) };
  }

  function budgetStats(): BudgetStats {
    return { ...budgetLimit, tokens: Math.round(budget.level(Date.now()) * 100) / 100 };
  }

  return { get, getDocument, lanes: laneStats, budget: budgetStats, close };
}

interface LaneState {
  readonly slots: LaneSlots;
  readonly dispatcher: Agent;
  longestWait: { ms: number; at: number } | null;
}

function createLane(connections: number): LaneState {
  return {
    slots: new LaneSlots(connections),
    dispatcher: new Agent({ connections, keepAliveTimeout: KEEP_ALIVE_MS }),
    longestWait: null,
  };
}

export async function readBody(
  body: Dispatcher.ResponseData['body'],
  encoding: string | undefined,
  url: string,
): Promise<{ text: string; bytes: number }> {
  let source: Readable = body;
  const coding = encoding?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    const inflate =
      coding === 'gzip' || coding === 'x-gzip'
        ? createGunzip()
        : coding === 'br'
          ? createBrotliDecompress()
          : coding === 'deflate'
            ? createInflate()
            : undefined;
    if (!inflate) {
      body.destroy();
      throw new UpstreamPayloadError(url, `unsupported content-encoding ${JSON.stringify(encoding)}`);
    }
    body.on('error', (error) => inflate.destroy(error));
    source = body.pipe(inflate);
  }
  // Decoded chunk by chunk into V8 strings, not gathered and concatenated: a concatenated copy per
  // poll (140-490 KB for a summary) is a native block glibc serves from its heap, where such blocks
  // fragment it. StringDecoder writes UTF-8 straight into V8 strings (TextDecoder's stream mode
  // goes through a UTF-16 buffer of twice the chunk), holding back only a character split across
  // chunks (docs/decisions.md, "Frames are written, never copied per client").
  const decoder = new StringDecoder('utf8');
  let text = '';
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        throw new UpstreamPayloadError(url, `body larger than ${MAX_BODY_BYTES} bytes`);
      }
      text += decoder.write(chunk);
    }
  } catch (error) {
    body.destroy();
    // zlib's own failures (codes Z_DATA_ERROR, Z_BUF_ERROR, ...) mean a corrupt body; anything
    // else (reset, abort) is the transport's and is classified by the caller.
    const zlibCode = (error as { code?: unknown }).code;
    if (typeof zlibCode === 'string' && zlibCode.startsWith('Z_')) {
      throw new UpstreamPayloadError(url, `cannot decode ${coding ?? ''} body`, { cause: error });
    }
    throw error;
  }
  return { text: text + decoder.end(), bytes: size };
}

/** The start of an error body, decoded as UTF-8 (a WAF page is ASCII); the rest is discarded. */
async function readErrorBody(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size < MAX_ERROR_BODY_BYTES) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
