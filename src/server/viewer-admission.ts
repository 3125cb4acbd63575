import type { IncomingMessage, ServerResponse } from 'node:http';
import { limitRefusals } from '../core/metrics.js';
import { retryAfterSeconds, type BucketLimit, type Take } from '../core/token-bucket.js';
import { presentedToken, type Authenticator } from './auth.js';
import { sendError } from './http-types.js';
import { trustedSet, viewerAddress } from './viewer-address.js';
import { AddressCounts, ViewerBuckets, rateLimitHeaders } from './viewer-limits.js';

/** Limits per viewer of the HTTP API and the streams (docs/limits.md). */
export interface ViewerLimits {
  /** Each HTTP API client's bucket: per token when tokens are configured, else per address; null: none. */
  rateLimit: BucketLimit | null;
  /** Buckets of particular tokens, over `rateLimit` (null: not limited). */
  tokenRateLimits: ReadonlyMap<string, BucketLimit | null>;
  /** Peers whose `X-Forwarded-For` names the viewer. */
  trustedProxies: readonly string[];
  /** Streams (WebSocket and SSE together) one address may hold open. */
  streamConnectionsPerAddress: number;
  /** Each address's bucket of WebSocket subscribes and SSE opens; null: none. */
  subscribeRateLimit: BucketLimit | null;
}

/** Why a new stream is refused, as its 429 says it. */
export interface StreamRefusal {
  code: 'too_many_streams' | 'subscribe_rate_limited';
  message: string;
  retryAfterS: number;
}

/** The limits per viewer applied: who a request is, and whether it may go on. */
export interface ViewerAdmission {
  /** The address the per-address limits count the request under. */
  addressOf(req: IncomingMessage): string;
  /**
   * Charges the request to its caller's bucket, setting the rate-limit fields; false (and the
   * request answered 429) when the bucket is empty.
   */
  admitHttp(req: IncomingMessage, res: ServerResponse, url: URL): boolean;
  /**
   * Why a new stream from `address` is refused: the per-address cap, or (SSE, where opening is
   * subscribing) the subscribe rate. A WebSocket's subscribes are charged as they come.
   */
  streamRefusal(address: string, websocket?: boolean): StreamRefusal | undefined;
  /** Charges a subscribe to `address`, waiting up to `maxWaitMs` for a token. */
  admitSubscribe(address: string, maxWaitMs: number): Take;
  /** Counts one more stream of `address`; the returned function (idempotent) counts it gone. */
  opened(address: string): () => void;
}

// A stream refused for the per-address cap may come back when one of its address's streams ends.
const STREAM_CAP_RETRY_S = 10;

export function createViewerAdmission(
  options: Partial<ViewerLimits> | undefined,
  auth: Authenticator,
): ViewerAdmission {
  const viewerLimits: ViewerLimits = {
    rateLimit: null,
    tokenRateLimits: new Map(),
    trustedProxies: [],
    streamConnectionsPerAddress: Infinity,
    subscribeRateLimit: null,
    ...options,
  };
  const trusted = trustedSet(viewerLimits.trustedProxies);
  const httpBuckets = new ViewerBuckets(Date.now);
  const subscribeBuckets = new ViewerBuckets(Date.now);
  const streamsByAddress = new AddressCounts();
  const addressOf = (req: IncomingMessage): string => viewerAddress(req, trusted);
  const admitSubscribe = (address: string, maxWaitMs: number): Take =>
    viewerLimits.subscribeRateLimit
      ? subscribeBuckets.take(address, viewerLimits.subscribeRateLimit, 1, maxWaitMs)
      : { ok: true, waitMs: 0 };

  function admitHttp(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const token = auth.enabled ? presentedToken(req, url) : undefined;
    const limit =
      token !== undefined && viewerLimits.tokenRateLimits.has(token)
        ? viewerLimits.tokenRateLimits.get(token)
        : viewerLimits.rateLimit;
    if (!limit) return true;
    const who = token !== undefined ? 'this token' : `address ${addressOf(req)}`;
    const take = httpBuckets.take(token !== undefined ? `token ${token}` : who, limit);
    const fields = rateLimitHeaders('client', limit, take.remaining);
    res.setHeader('ratelimit-policy', fields['ratelimit-policy']);
    res.setHeader('ratelimit', fields.ratelimit);
    if (take.ok) return true;
    limitRefusals.inc({ limit: 'http_client' });
    const retryAfterS = retryAfterSeconds(take.retryAfterMs);
    sendError(
      res,
      429,
      'RATE_LIMITED',
      `${who} is over its limit of ${limit.rate} requests a second (bursts of ${limit.burst}); retry in ${retryAfterS} s`,
      { headers: { 'retry-after': String(retryAfterS) } },
    );
    return false;
  }

  function streamRefusal(address: string, websocket = false): StreamRefusal | undefined {
    const cap = viewerLimits.streamConnectionsPerAddress;
    if (streamsByAddress.count(address) >= cap) {
      limitRefusals.inc({ limit: 'stream_connections' });
      return {
        code: 'too_many_streams',
        message: `address ${address} holds its limit of ${cap} streams; close one, or retry in ${STREAM_CAP_RETRY_S} s`,
        retryAfterS: STREAM_CAP_RETRY_S,
      };
    }
    if (websocket) return undefined;
    const take = admitSubscribe(address, 0);
    if (take.ok) return undefined;
    limitRefusals.inc({ limit: 'stream_subscribe' });
    const retryAfterS = retryAfterSeconds(take.retryAfterMs);
    return {
      code: 'subscribe_rate_limited',
      message: `address ${address} is over its limit of ${viewerLimits.subscribeRateLimit?.rate ?? 0} subscribes a second; retry in ${retryAfterS} s`,
      retryAfterS,
    };
  }

  return {
    addressOf,
    admitHttp,
    streamRefusal,
    admitSubscribe,
    opened: (address) => streamsByAddress.open(address),
  };
}
