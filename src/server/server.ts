import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { SnapshotSource } from '../model/events.js';
import type { Bus, Offset } from '../bus/types.js';
import { silentLogger, type Logger } from '../core/log.js';
import {
  createAuthenticator,
  originAllowed,
  rejectUpgrade,
  UNAUTHORIZED_MESSAGE,
  type Authenticator,
} from './auth.js';
import { createViewerAdmission, type ViewerAdmission, type ViewerLimits } from './viewer-admission.js';
import { DEFAULT_LIMITS, type GatewayLimits } from './viewer-protocol.js';
import type { ActivateContext } from './delivery/replay.js';
import type { Clock } from './delivery/subscription.js';
import { sendError, type RouteHandler } from './http-types.js';
import { answerFailedRequest } from './redis-unavailable.js';
import { createLiveFeed } from './live-feed.js';
import { sendOverlayRefusal } from './overlay-page.js';
import { PreparedEvents } from './delivery/prepared-events.js';
import { createSseEndpoint, type SseEndpoint } from './sse.js';
import { createWsGateway, type WsGateway } from './ws-gateway.js';
import { listen, stopListening } from './listen.js';

export type { GatewayLimits } from './viewer-protocol.js';
export { DEFAULT_LIMITS } from './viewer-protocol.js';
export type { ViewerLimits } from './viewer-admission.js';
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
// Events read from the log for replays stay prepared while replays read them (see PreparedEvents).
const REPLAYED_EVENTS = 5_000;
const REPLAYED_TTL_MS = 30_000;

export function createDaemonServer(options: DaemonServerOptions): DaemonServer {
  const logger = options.logger ?? silentLogger;
  const limits: GatewayLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const clock = options.clock ?? { now: Date.now };
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
  const admission = createViewerAdmission(options.viewerLimits, auth);
  const shared = { setup, feed, limits, logger, clock, admitSubscribe: admission.admitSubscribe };
  const gateway = createWsGateway({ ...shared, heartbeatMs });
  const sse = createSseEndpoint(shared);
  const front: Front = {
    auth,
    origins: options.origins ?? [],
    limits,
    routes: options.routes ?? [],
    admission,
    gateway,
    sse,
    full: () => closing !== undefined || gateway.connections + sse.connections >= limits.maxConnections,
  };

  const server = createServer((req, res) => {
    void handleRequest(front, req, res).catch((err: unknown) => answerFailedRequest(err, req, res, logger));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    handleUpgrade(front, req, socket, head),
  );
  server.on('clientError', (_err, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    socket.destroy();
  });

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

/** What the request and upgrade handlers read: the checks, the transports and the routes. */
interface Front {
  auth: Authenticator;
  origins: readonly string[];
  limits: GatewayLimits;
  routes: readonly RouteHandler[];
  admission: ViewerAdmission;
  gateway: WsGateway;
  sse: SseEndpoint;
  /** Closing, or holding `limits.maxConnections` streams: a new stream is refused with 503. */
  full(): boolean;
}

/** Token check, then SSE, the WebSocket path asked over plain HTTP, the rate limit and the routes. */
async function handleRequest(front: Front, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = parseUrl(req);
  if (!url) {
    sendError(res, 400, 'BAD_REQUEST', 'malformed request target');
    return;
  }
  if (!front.auth.check(req, url) && !PUBLIC_PREFIXES.some((p) => url.pathname.startsWith(p))) {
    const headers = { 'www-authenticate': 'Bearer' };
    // A browser source in a broadcast shows the answer over the video: a notice, not JSON.
    if (sendOverlayRefusal(req, res, url, headers)) return;
    sendError(res, 401, 'unauthorized', UNAUTHORIZED_MESSAGE, { headers });
    return;
  }
  if (url.pathname === SSE_PATH) {
    openSse(front, req, res, url);
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
  if (limited && !front.admission.admitHttp(req, res, url)) return;
  for (const route of front.routes) {
    if (await route(req, res, url)) return;
  }
  sendError(res, 404, 'NOT_FOUND', `no route for ${req.method ?? 'GET'} ${url.pathname}`);
}

/** `/v1/stream/sse`: method, origin, the connection limit and the viewer's limits, then the stream. */
function openSse(front: Front, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const { limits } = front;
  if (req.method !== 'GET') {
    sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${SSE_PATH}; use GET`, {
      headers: { allow: 'GET' },
    });
  } else if (!originAllowed(req, front.origins)) {
    sendError(res, 403, 'forbidden_origin', `origin ${req.headers.origin ?? ''} is not allowed`);
  } else if (front.full()) {
    sendError(
      res,
      503,
      'too_many_connections',
      `the server holds its limit of ${limits.maxConnections} streams`,
    );
  } else {
    const address = front.admission.addressOf(req);
    const refusal = front.admission.streamRefusal(address);
    if (refusal) {
      sendError(res, 429, refusal.code, refusal.message, {
        headers: { 'retry-after': String(refusal.retryAfterS) },
      });
      return;
    }
    res.once('close', front.admission.opened(address));
    front.sse.handle(req, res, url);
  }
}

/** `/v1/stream` over WebSocket: path, token, origin, the connection limit and the viewer's limits. */
function handleUpgrade(front: Front, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const { limits } = front;
  socket.on('error', () => socket.destroy());
  const url = parseUrl(req);
  if (!url || url.pathname !== STREAM_PATH) {
    rejectUpgrade(socket, 404, 'NOT_FOUND', `WebSocket is served at ${STREAM_PATH} only`);
    return;
  }
  if (!front.auth.check(req, url)) {
    rejectUpgrade(socket, 401, 'unauthorized', UNAUTHORIZED_MESSAGE);
    return;
  }
  if (!originAllowed(req, front.origins)) {
    rejectUpgrade(socket, 403, 'forbidden_origin', `origin ${req.headers.origin ?? ''} is not allowed`);
    return;
  }
  if (front.full()) {
    rejectUpgrade(
      socket,
      503,
      'too_many_connections',
      `the server holds its limit of ${limits.maxConnections} connections`,
    );
    return;
  }
  const address = front.admission.addressOf(req);
  const refusal = front.admission.streamRefusal(address, true);
  if (refusal) {
    rejectUpgrade(socket, 429, refusal.code, refusal.message, {
      'Retry-After': String(refusal.retryAfterS),
    });
    return;
  }
  socket.once('close', front.admission.opened(address));
  front.gateway.handleUpgrade(req, socket, head, address);
}

function parseUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}
