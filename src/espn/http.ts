import { setMaxListeners } from 'node:events';
import { UpstreamNetworkError, UpstreamPayloadError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { BucketLimit } from '../core/token-bucket.js';
import { createOnDemandBudget, type BudgetStats } from './http-budget.js';
import { createExchange, type FetchedDocument, type Target } from './http-exchange.js';
import { createCachedGet, type GetOptions } from './http-flights.js';
import { closeLanes, createLanes, inLane, laneStats, type LaneStats } from './http-lanes.js';
import { withRetries } from './http-retry.js';
import { waitFor } from './http-wait.js';
import type { Lane } from './lane.js';
import type { BuiltRequest } from './operations.js';
import { ResponseCache } from './response-cache.js';

export { readBody } from './http-body.js';
export type { BudgetStats } from './http-budget.js';
export type { FetchedDocument } from './http-exchange.js';
export type { GetOptions } from './http-flights.js';
export type { LaneStats } from './http-lanes.js';

/**
 * The one place that talks to the upstream. Operations' paths come only from the registry
 * (`BuiltRequest`) and their origin is fixed at construction, so no caller can aim them elsewhere.
 * The one way out is `getDocument`, for a URL the upstream handed out itself (a FastCast checkpoint,
 * on ESPN's CDN): it goes through the same exchange, timeouts and decoding, and is never cached.
 *
 * Per call, each phase in its own file, composed here as undici composes handlers: TTL cache and
 * single-flight (`http-flights.ts`) → the on-demand budget (`http-budget.ts`) → retries
 * (`http-retry.ts`) → a slot of the lane (`http-lanes.ts`) → one exchange (`http-exchange.ts`,
 * bodies read by `http-body.ts`). The undici agent gives keep-alive and the per-origin connection
 * limit. (Its decompress interceptor prints an "experimental" warning on every run, so bodies are
 * inflated with zlib.)
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

export function createUpstreamHttp(options: UpstreamHttpOptions): UpstreamHttp {
  const base = new URL(options.upstream);
  const origin = base.origin;
  const prefix = base.pathname.replace(/\/+$/, '');
  const lanes = createLanes(
    options.concurrency,
    options.onDemandConcurrency ?? DEFAULT_ON_DEMAND_CONCURRENCY,
  );
  const cache = options.cache
    ? new ResponseCache({
        maxEntries: options.cacheMaxEntries,
        maxBytes: options.cacheMaxBytes,
        idleMs: CACHE_IDLE_MS,
      })
    : undefined;
  const closing = new AbortController();
  // One listener per request in flight (a live game each, plus on-demand calls): no fixed cap fits.
  setMaxListeners(0, closing.signal);
  const budget = createOnDemandBudget(
    options.onDemandBudget ?? DEFAULT_ON_DEMAND_BUDGET,
    options.onDemandMaxWaitMs ?? DEFAULT_ON_DEMAND_MAX_WAIT_MS,
    closing.signal,
  );
  const exchange = createExchange({ ...options, lanes, cache, closing: closing.signal });
  const retry = {
    retries: options.retries,
    maxRetryAfterMs: options.maxRetryAfterMs,
    backoff: {
      baseMs: options.retryBaseMs,
      maxMs: options.retryMaxMs,
      ...(options.random ? { random: options.random } : {}),
    },
    logger: options.logger,
    closing: closing.signal,
  };
  const send = (target: Target, lane: Lane): Promise<FetchedDocument> =>
    withRetries(
      target,
      async () => {
        if (lane === 'on-demand') await budget.spend(target.url);
        return inLane(lanes, lane, () => exchange(target, lane));
      },
      retry,
    );
  const cachedGet = createCachedGet({
    cache,
    now: options.now,
    send: (request, lane) => send(operationTarget(request), lane).then((fetched) => fetched.body),
  });
  let closed: Promise<void> | undefined;

  function operationTarget(request: BuiltRequest): Target {
    return {
      name: request.operation.name,
      origin,
      path: prefix + request.pathAndQuery,
      url: origin + prefix + request.pathAndQuery,
      cache: { key: request.pathAndQuery, ttlMs: request.operation.ttlMs },
    };
  }

  async function get(request: BuiltRequest, getOptions: GetOptions = {}): Promise<unknown> {
    if (closing.signal.aborted) {
      throw new UpstreamNetworkError(origin + prefix + request.pathAndQuery, {
        cause: new Error('client closed'),
      });
    }
    return cachedGet(request, getOptions);
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
    const fetched = send(target, 'live');
    fetched.catch(() => undefined);
    return waitFor(fetched, getOptions.signal);
  }

  function close(): Promise<void> {
    closed ??= (async () => {
      closing.abort();
      cache?.clear();
      await closeLanes(lanes);
    })();
    return closed;
  }

  return { get, getDocument, lanes: () => laneStats(lanes), budget: budget.stats, close };
}
