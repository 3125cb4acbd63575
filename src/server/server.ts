import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { SnapshotSource } from '../model/events.js';
import type { Bus, Offset } from '../bus/types.js';
import { silentLogger, type Logger } from '../core/log.js';
import { limitRefusals } from '../core/metrics.js';
import { retryAfterSeconds, type BucketLimit, type Take } from '../core/token-bucket.js';
import {
  createAuthenticator,
  originAllowed,
  presentedToken,
  rejectUpgrade,
  UNAUTHORIZED_MESSAGE,
} from './auth.js';
import { viewerAddress, trustedSet } from './viewer-address.js';
import { AddressCounts, ViewerBuckets, rateLimitHeaders } from './viewer-limits.js';
import { DEFAULT_LIMITS, type GatewayLimits } from './viewer-protocol.js';
import type { ActivateContext } from './delivery/replay.js';
import type { Clock } from './delivery/subscription.js';
import { sendError, type RouteHandler } from './http-types.js';
import { answerFailedRequest } from './redis-unavailable.js';
import { createLiveFeed } from './live-feed.js';
import { sendOverlayRefusal } from './overlay-page.js';
import { PreparedEvents } from './delivery/prepared-events.js';
import { createSseEndpoint } from './sse.js';
import { createWsGateway } from './ws-gateway.js';
import { listen, stopListening } from './listen.js';

export type { GatewayLimits } from './viewer-protocol.js';
export { DEFAULT_LIMITS } from './viewer-protocol.js';
export { CLOSE_GOING_AWAY, CLOSE_SLOW_CONSUMER } from './ws-gateway.js';

/**
 * The daemon's one HTTP server: bearer-token check, then the WebSocket gateway (`/v1/stream`),
 * SSE (`/v1/stream/sse`), then the HTTP API's route handlers in order, else 404.
 * Live events come from one `bus.tail` per process, so every instance's viewers get every
 * instance's events.
 */
export interface DaemonServerOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  bus: Bus;
  snapshots: SnapshotSource;
  routes?: RouteHandler[];
  /** Accepted bearer tokens; empty or absent: no authentication. */
  tokens?: string[];
  /** Browser origins allowed to open streams; empty or absent: any. */
  origins?: string[];
  limits?: Partial<GatewayLimits>;
  /** WebSocket ping and SSE comment interval; a peer silent for two intervals is dropped. */
  heartbeatMs?: number;
  logger?: Logger;
  /** Wall clock for the spoiler delay and heartbeats (tests may inject one). */
  clock?: Clock;
  /** Limits per viewer (docs/limits.md); absent: none. */
  viewerLimits?: Partial<ViewerLimits>;
}

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

export interface GatewayStats {
  wsConnections: number;
  sseConnections: number;
  subscriptions: number;
  framesSent: number;
  /** Offset of the last event the live tail dispatched. */
  tailOffset: Offset;
}

export interface DaemonServer {
  /** `http://127.0.0.1:PORT` after `start()`. */
  readonly url: string;
  start(): Promise<void>;
  /** Idempotent: stops the tail, closes WebSocket viewers with 1001, ends SSE, closes within 5 s. */
  close(): Promise<void>;
  stats(): GatewayStats;
  /**
   * A stream's subscription names this game (its `games` filter): the live budget serves it first.
   * A subscription to every game watches none in particular.
   */
  watches?(gameId: string): boolean;
}

/**
 * A ping every 15 s keeps idle proxies from cutting a quiet stream; a peer silent for two of them
 * (30 s) is dropped, so a dead connection frees its slot within half a minute.
 */
export const DEFAULT_HEARTBEAT_MS = 15_000;
const STREAM_PATH = '/v1/stream';
const SSE_PATH = '/v1/stream/sse';
// Static overlay assets and the client library carry no data; a browser loads them without a token.
const PUBLIC_PREFIXES = ['/overlay/assets/', '/client/'];
// Viewers get this long to answer the 1001 close before they are cut off; the whole close stays under 5 s.
const VIEWER_CLOSE_GRACE_MS = 1_500;
const SERVER_CLOSE_TIMEOUT_MS = 3_000;
// Health checks and scrapes are the operator's probes: never limited (nor are the static files).
const UNLIMITED_PATHS = ['/healthz', '/metrics'];
// A stream refused for the per-address cap may come back when one of its address's streams ends.
const STREAM_CAP_RETRY_S = 10;
// Events read from the log for replays stay prepared while replays read them (see PreparedEvents).
const REPLAYED_EVENTS = 5_000;
const REPLAYED_TTL_MS = 30_000;

export function createDaemonServer(options: DaemonServerOptions): DaemonServer {
  const logger = options.logger ?? silentLogger;
  const limits: GatewayLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const clock = options.clock ?? { now: Date.now };
  const origins = options.origins ?? [];
  const routes = options.routes ?? [];
  const auth = createAuthenticator(options.tokens ?? []);
  const feed = createLiveFeed({ bus: options.bus, logger });
  const prepared = new PreparedEvents(REPLAYED_EVENTS, REPLAYED_TTL_MS);
  const setup: ActivateContext = {
    bus: options.bus,
    snapshots: options.snapshots,
    logger,
    recent: feed.recent,
    prepared,
  };
  const viewerLimits: ViewerLimits = {
    rateLimit: null,
    tokenRateLimits: new Map(),
    trustedProxies: [],
    streamConnectionsPerAddress: Infinity,
    subscribeRateLimit: null,
    ...options.viewerLimits,
  };
  const trusted = trustedSet(viewerLimits.trustedProxies);
  const httpBuckets = new ViewerBuckets(Date.now);
  const subscribeBuckets = new ViewerBuckets(Date.now);
  const streamsByAddress = new AddressCounts();
  const admitSubscribe = (address: string, maxWaitMs: number): Take =>
    viewerLimits.subscribeRateLimit
      ? subscribeBuckets.take(address, viewerLimits.subscribeRateLimit, 1, maxWaitMs)
      : { ok: true, waitMs: 0 };
  const shared = { setup, feed, limits, logger, clock, admitSubscribe };
  const gateway = createWsGateway({ ...shared, heartbeatMs });
  const sse = createSseEndpoint(shared);
  const connections = (): number => gateway.connections + sse.connections;

  const server = createServer((req, res) => {
    void handleRequest(req, res).catch((err: unknown) => answerFailedRequest(err, req, res, logger));
  });
  server.on('upgrade', handleUpgrade);
  server.on('clientError', (_err, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    socket.destroy();
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseUrl(req);
    if (!url) {
      sendError(res, 400, 'BAD_REQUEST', 'malformed request target');
      return;
    }
    if (!auth.check(req, url) && !PUBLIC_PREFIXES.some((p) => url.pathname.startsWith(p))) {
      const headers = { 'www-authenticate': 'Bearer' };
      // A browser source in a broadcast shows the answer over the video: a notice, not JSON.
      if (sendOverlayRefusal(req, res, url, headers)) return;
      sendError(res, 401, 'unauthorized', UNAUTHORIZED_MESSAGE, { headers });
      return;
    }
    if (url.pathname === SSE_PATH) {
      if (req.method !== 'GET') {
        sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${SSE_PATH}; use GET`, {
          headers: { allow: 'GET' },
        });
      } else if (!originAllowed(req, origins)) {
        sendError(res, 403, 'forbidden_origin', `origin ${req.headers.origin ?? ''} is not allowed`);
      } else if (closing || connections() >= limits.maxConnections) {
        sendError(
          res,
          503,
          'too_many_connections',
          `the server holds its limit of ${limits.maxConnections} streams`,
        );
      } else {
        const address = viewerAddress(req, trusted);
        const refusal = streamRefusal(address);
        if (refusal) {
          sendError(res, 429, refusal.code, refusal.message, {
            headers: { 'retry-after': String(refusal.retryAfterS) },
          });
          return;
        }
        res.once('close', streamsByAddress.open(address));
        sse.handle(req, res, url);
      }
      return;
    }
    if (url.pathname === STREAM_PATH) {
      sendError(
        res,
        426,
        'UPGRADE_REQUIRED',
        `${STREAM_PATH} speaks WebSocket; use ${SSE_PATH} for plain HTTP`,
        {
          headers: { upgrade: 'websocket' },
        },
      );
      return;
    }
    const limited =
      !UNLIMITED_PATHS.includes(url.pathname) && !PUBLIC_PREFIXES.some((p) => url.pathname.startsWith(p));
    if (limited && !admitHttp(req, res, url)) return;
    for (const route of routes) {
      if (await route(req, res, url)) return;
    }
    sendError(res, 404, 'NOT_FOUND', `no route for ${req.method ?? 'GET'} ${url.pathname}`);
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = parseUrl(req);
    if (!url || url.pathname !== STREAM_PATH) {
      rejectUpgrade(socket, 404, 'NOT_FOUND', `WebSocket is served at ${STREAM_PATH} only`);
      return;
    }
    if (!auth.check(req, url)) {
      rejectUpgrade(socket, 401, 'unauthorized', UNAUTHORIZED_MESSAGE);
      return;
    }
    if (!originAllowed(req, origins)) {
      rejectUpgrade(socket, 403, 'forbidden_origin', `origin ${req.headers.origin ?? ''} is not allowed`);
      return;
    }
    if (closing || connections() >= limits.maxConnections) {
      rejectUpgrade(
        socket,
        503,
        'too_many_connections',
        `the server holds its limit of ${limits.maxConnections} connections`,
      );
      return;
    }
    const address = viewerAddress(req, trusted);
    const refusal = streamRefusal(address, true);
    if (refusal) {
      rejectUpgrade(socket, 429, refusal.code, refusal.message, {
        'Retry-After': String(refusal.retryAfterS),
      });
      return;
    }
    socket.once('close', streamsByAddress.open(address));
    gateway.handleUpgrade(req, socket, head, address);
  }

  /**
   * Charges the request to its caller's bucket, setting the rate-limit fields; false (and the
   * request answered 429) when the bucket is empty.
   */
  function admitHttp(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const token = auth.enabled ? presentedToken(req, url) : undefined;
    const limit =
      token !== undefined && viewerLimits.tokenRateLimits.has(token)
        ? viewerLimits.tokenRateLimits.get(token)
        : viewerLimits.rateLimit;
    if (!limit) return true;
    const who = token !== undefined ? 'this token' : `address ${viewerAddress(req, trusted)}`;
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

  /**
   * Why a new stream from `address` is refused: the per-address cap, or (SSE, where opening is
   * subscribing) the subscribe rate. A WebSocket's subscribes are charged as they come.
   */
  function streamRefusal(
    address: string,
    websocket = false,
  ):
    | { code: 'too_many_streams' | 'subscribe_rate_limited'; message: string; retryAfterS: number }
    | undefined {
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

  let url = '';
  let started: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  async function start(): Promise<void> {
    await feed.start();
    url = await listen(server, options.port, options.host);
    heartbeat = setInterval(() => {
      gateway.heartbeat();
      sse.heartbeat();
    }, heartbeatMs);
    heartbeat.unref();
  }

  async function shutdown(): Promise<void> {
    if (heartbeat) clearInterval(heartbeat);
    feed.close();
    prepared.close();
    sse.close();
    await gateway.close(VIEWER_CLOSE_GRACE_MS);
    await stopListening(server, SERVER_CLOSE_TIMEOUT_MS);
  }

  return {
    get url() {
      return url;
    },
    start() {
      started ??= start();
      return started;
    },
    close() {
      closing ??= shutdown().catch((err: unknown) => logger.warn({ err }, 'server close failed'));
      return closing;
    },
    stats() {
      return {
        wsConnections: gateway.connections,
        sseConnections: sse.connections,
        subscriptions: gateway.subscriptions + sse.connections,
        framesSent: gateway.framesSent + sse.framesSent,
        tailOffset: feed.cursor,
      };
    },
    watches: (gameId) => feed.index.watches(gameId),
  };
}

function parseUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}
