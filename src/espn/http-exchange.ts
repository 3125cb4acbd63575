import {
  CourtsideError,
  UpstreamBlockedError,
  UpstreamHttpError,
  UpstreamNetworkError,
  UpstreamNotFoundError,
  UpstreamPayloadError,
  UpstreamTimeoutError,
} from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { upstreamCacheBytes, upstreamCacheHits, upstreamRequests } from '../core/metrics.js';
import { parseRetryAfter } from './retry-after.js';
import { header, isJson, readBody, readErrorBody } from './http-body.js';
import type { LaneState } from './http-lanes.js';
import type { Lane } from './lane.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';
import { isKnownStatus, noteAnomaly } from './upstream-anomalies.js';
import { ACCEPTED_USER_AGENT_FORM } from './user-agent.js';

/**
 * One upstream exchange: a GET with the held validators, its timeout, its status classified into
 * an answer or an error (retryable or not), and a fresh or revalidated body stored in the cache.
 */

/** A document and the bytes it took on the wire. */
export interface FetchedDocument {
  readonly body: unknown;
  readonly bytes: number;
}

/** One exchange's destination: an operation's request, or a document the upstream pointed at. */
export interface Target {
  /** The operation's name, or the document's: the label of the request metrics. */
  readonly name: string;
  readonly origin: string;
  readonly path: string;
  readonly url: string;
  /** Where the answer is cached, or null for a document that is never asked for twice. */
  readonly cache: { readonly key: string; readonly ttlMs: number } | null;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Attempt =
  | { readonly ok: true; readonly body: unknown; readonly bytes: number }
  | {
      readonly ok: false;
      readonly error: CourtsideError;
      readonly retry: boolean;
      readonly retryAfterMs?: number;
    };

export interface ExchangeOptions {
  readonly userAgent: string;
  readonly timeoutMs: number;
  readonly now: () => number;
  readonly logger: Logger;
  /** Each lane's connections (the slots are taken before the exchange). */
  readonly lanes: Readonly<Record<Lane, Pick<LaneState, 'dispatcher'>>>;
  readonly cache: ResponseCache | undefined;
  /** Aborts every exchange in flight when the client closes. */
  readonly closing: AbortSignal;
}

const NOT_FOUND_REASON =
  'answered 404: an id it does not know, or an endpoint it no longer serves (docs/upstream.md)';

export function createExchange(options: ExchangeOptions): (target: Target, lane: Lane) => Promise<Attempt> {
  const { lanes, cache, closing } = options;

  async function exchange(target: Target, lane: Lane): Promise<Attempt> {
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
    closing.addEventListener('abort', onClose, { once: true });
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
      if (timeout.signal.aborted && !closing.aborted) {
        upstreamRequests.inc({ operation, status: 'timeout' });
        return fail(new UpstreamTimeoutError(url, options.timeoutMs, { cause }), true);
      }
      upstreamRequests.inc({ operation, status: 'network' });
      return fail(new UpstreamNetworkError(url, { cause }), !closing.aborted);
    } finally {
      clearTimeout(timer);
      closing.removeEventListener('abort', onClose);
    }
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

  return exchange;
}

function fail(error: CourtsideError, retry: boolean): Attempt {
  return { ok: false, error, retry };
}
