import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../core/log.js';
import { clientsDropped, limitRefusals } from '../core/metrics.js';
import { retryAfterSeconds, type Take } from '../core/token-bucket.js';
import { VERSION } from '../core/version.js';
import {
  createViewerProtocol,
  MAX_DELAY_SECONDS,
  type GatewayLimits,
  type SubscribeRequest,
} from './viewer-protocol.js';
import { ViewerSet } from './delivery/viewers.js';
import { errorFrame, type ReplyFrame, type WelcomeFrame } from './delivery/frames.js';
import { activate } from './delivery/activate.js';
import type { ActivateContext } from './delivery/replay.js';
import { Sink, writeFrames, type Connection } from './delivery/sink.js';
import { Subscription, type Clock } from './delivery/subscription.js';
import type { LiveFeed } from './live-feed.js';
import { wsEncoding } from './ws-frames.js';

/**
 * The WebSocket side of `/v1/stream`: the protocol in docs/protocol.md. Connections are accepted
 * by the server (which has checked token, origin and path) through `handleUpgrade`.
 */

/** Close codes the gateway uses (docs/protocol.md). */
export const CLOSE_GOING_AWAY = 1001;
/** The viewer fell too far behind; it may reconnect and resume with `since`. */
export const CLOSE_SLOW_CONSUMER = 4000;

export interface WsGateway {
  /** `address` is the viewer's, as the per-address limits count it. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, address?: string): void;
  /** Pings every viewer; drops those silent for two intervals. */
  heartbeat(): void;
  readonly connections: number;
  readonly subscriptions: number;
  /** Closes every viewer with 1001; resolves once they are gone (or were terminated). */
  close(graceMs: number): Promise<void>;
}

export interface WsGatewayOptions {
  /** What subscriptions read while they set up: the log, snapshots, recent events. */
  setup: ActivateContext;
  feed: LiveFeed;
  limits: GatewayLimits;
  heartbeatMs: number;
  logger: Logger;
  clock: Clock;
  /**
   * Charges a subscribe to its address: granted (perhaps after a wait), or refused with the time
   * to retry. Absent: no limit.
   */
  admitSubscribe?: (address: string, maxWaitMs: number) => Take;
}

// A subscribe over its address's rate waits up to this long rather than be refused: a fleet that
// reconnects at once is spread over a few seconds instead of being told to come back.
const SUBSCRIBE_MAX_WAIT_MS = 2_000;
// A dropped viewer gets this long to read its error frame and close before it is cut off.
const DROP_GRACE_MS = 2_000;
// ws's WebSocket.OPEN; read once, it is a constant.
const OPEN = 1;

/** A WebSocket as a sink writes to it. */
class WsConnection implements Connection {
  lastSeen: number;
  readonly stream: Socket;

  constructor(
    readonly ws: WebSocket,
    now: number,
    readonly address: string,
  ) {
    this.lastSeen = now;
    this.stream = (ws as unknown as { _socket: Socket })._socket;
  }

  get buffered(): number {
    return this.ws.bufferedAmount;
  }

  get writable(): boolean {
    return this.ws.readyState === OPEN;
  }

  write(frames: readonly Buffer[]): void {
    // Complete frames written straight to the socket, the whole batch in one system call: the
    // per-frame syscall is what fan-out costs. Safe beside ws's own writes (pings, close)
    // because ws, without compression, writes each of its frames synchronously and whole.
    writeFrames(this.stream, frames);
  }

  end(lastFrame: Buffer): void {
    if (this.ws.readyState === OPEN) this.stream.write(lastFrame);
    this.ws.close(CLOSE_SLOW_CONSUMER, 'slow consumer');
    setTimeout(() => this.ws.terminate(), DROP_GRACE_MS).unref();
  }
}

type WsViewer = Sink<ReplyFrame, WsConnection>;

export function createWsGateway(options: WsGatewayOptions): WsGateway & { readonly framesSent: number } {
  const { limits, heartbeatMs, logger, clock } = options;
  const protocol = createViewerProtocol(limits);
  const viewers = new ViewerSet<ReplyFrame, WsConnection>('ws', options);
  const subscriptions = createWsSubscriptions({ ...options, viewers });
  let closing = false;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    // Compression would cost CPU per viewer per frame and defeat shared frame buffers.
    perMessageDeflate: false,
    clientTracking: false,
  });

  function onMessage(viewer: WsViewer, data: Buffer, isBinary: boolean): void {
    viewer.connection.lastSeen = clock.now();
    if (viewer.closed) return;
    if (isBinary) {
      viewer.send(
        errorFrame({ code: 'invalid_message', message: 'binary frames are not accepted; send JSON text' }),
      );
      return;
    }
    const parsed = protocol.parse(data.toString('utf8'));
    if (!parsed.ok) {
      viewer.send(errorFrame(parsed.error));
      return;
    }
    const message = parsed.message;
    switch (message.op) {
      case 'ping':
        viewer.send({ type: 'pong' });
        return;
      case 'subscribe':
        subscriptions.subscribe(viewer, message);
        return;
      case 'unsubscribe':
        subscriptions.unsubscribe(viewer, message.id);
        return;
    }
  }

  function onConnection(ws: WebSocket, address: string): void {
    const connection = new WsConnection(ws, clock.now(), address);
    const viewer: WsViewer = new Sink(connection, wsEncoding, viewers);
    viewers.add(viewer);
    ws.on('message', (data: Buffer, isBinary: boolean) => onMessage(viewer, data, isBinary));
    const heard = (): void => {
      connection.lastSeen = clock.now();
    };
    // Any sign of life counts: our ping's pong, the peer's own ping, or a message.
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('close', () => viewer.release());
    ws.on('error', (err) => {
      // Protocol errors (oversized or malformed frames) close the socket; ws picks the code.
      logger.debug({ err: err.message }, 'WebSocket client error');
    });
    viewer.send(welcomeFrame(options));
  }

  return {
    get connections() {
      return viewers.size;
    },
    get subscriptions() {
      return viewers.subscriptions;
    },
    get framesSent() {
      return viewers.framesSent;
    },
    handleUpgrade(req, socket, head, address = req.socket.remoteAddress ?? 'unknown') {
      if (closing) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, address));
    },
    heartbeat() {
      const now = clock.now();
      for (const viewer of viewers.sinks) {
        const { ws, lastSeen } = viewer.connection;
        if (now - lastSeen >= 2 * heartbeatMs) {
          viewer.release();
          clientsDropped.inc({ reason: 'heartbeat' });
          ws.terminate();
        } else {
          ws.ping();
        }
      }
    },
    async close(graceMs) {
      closing = true;
      await closeViewers([...viewers.sinks], graceMs);
      wss.close();
    },
  };
}

/** The first frame of every connection: the server's version, its heartbeat, retention and limits. */
function welcomeFrame({ setup, feed, limits, heartbeatMs }: WsGatewayOptions): WelcomeFrame {
  return {
    type: 'welcome',
    version: VERSION,
    heartbeatMs,
    retention: setup.bus.retention,
    offset: feed.cursor,
    limits: {
      maxSubscriptions: limits.maxSubscriptions,
      maxFilterValues: limits.maxFilterValues,
      maxMessageBytes: limits.maxMessageBytes,
      maxBufferedBytes: limits.maxBufferedBytes,
      maxDelaySeconds: MAX_DELAY_SECONDS,
    },
  };
}

/** A WebSocket viewer's `subscribe` and `unsubscribe`, under the connection's and the address's limits. */
interface WsSubscriptions {
  subscribe(viewer: WsViewer, req: SubscribeRequest): void;
  unsubscribe(viewer: WsViewer, id: string): void;
}

function createWsSubscriptions(
  options: WsGatewayOptions & { viewers: ViewerSet<ReplyFrame, WsConnection> },
): WsSubscriptions {
  const { setup, feed, limits, clock, viewers } = options;

  function subscribe(viewer: WsViewer, req: SubscribeRequest): void {
    if (viewer.subs.has(req.id)) {
      viewer.send(
        errorFrame({
          code: 'duplicate_subscription',
          id: req.id,
          message: `subscription id ${JSON.stringify(req.id)} is already in use on this connection; unsubscribe it first or pick another id`,
        }),
      );
      return;
    }
    if (viewer.subs.size >= limits.maxSubscriptions) {
      viewer.send(
        errorFrame({
          code: 'too_many_subscriptions',
          id: req.id,
          message: `at most ${limits.maxSubscriptions} subscriptions per connection; unsubscribe one first`,
        }),
      );
      return;
    }
    const sub = new Subscription(req, viewer, feed.dirty, clock);
    const liveFrom = viewers.subscribe(viewer, sub);
    viewer.send({ type: 'subscribed', id: req.id, offset: liveFrom });
    void activate(sub, { since: req.since, snapshot: req.snapshot, liveFrom }, setup).then((ok) => {
      if (!ok && viewer.subs.get(sub.id) === sub) viewer.unsubscribe(sub);
    });
  }

  // Subscribes waiting for the address's subscribe rate, by connection and subscription id.
  const pendingSubscribes = new WeakMap<WsViewer, Map<string, NodeJS.Timeout>>();

  /** `subscribe`, once the address's subscribe rate allows it. */
  function subscribeWithinLimit(viewer: WsViewer, req: SubscribeRequest): void {
    const take = options.admitSubscribe?.(viewer.connection.address, SUBSCRIBE_MAX_WAIT_MS);
    if (!take || (take.ok && take.waitMs === 0)) {
      subscribe(viewer, req);
      return;
    }
    if (take.ok) {
      // Waiting on credit: an `unsubscribe` meanwhile takes it back before it starts.
      let waiting = pendingSubscribes.get(viewer);
      if (!waiting) pendingSubscribes.set(viewer, (waiting = new Map()));
      const pending = waiting;
      clearTimeout(pending.get(req.id));
      const timer = setTimeout(() => {
        pending.delete(req.id);
        if (!viewer.closed) subscribe(viewer, req);
      }, take.waitMs);
      timer.unref();
      pending.set(req.id, timer);
      return;
    }
    limitRefusals.inc({ limit: 'stream_subscribe' });
    viewer.send(
      errorFrame({
        code: 'subscribe_rate_limited',
        id: req.id,
        message: `address ${viewer.connection.address} is over its limit of subscribes a second; subscribe again in ${retryAfterSeconds(take.retryAfterMs)} s`,
        retryAfterMs: take.retryAfterMs,
      }),
    );
  }

  function unsubscribe(viewer: WsViewer, id: string): void {
    const waiting = pendingSubscribes.get(viewer)?.get(id);
    if (waiting) {
      clearTimeout(waiting);
      pendingSubscribes.get(viewer)?.delete(id);
      viewer.send({ type: 'unsubscribed', id });
      return;
    }
    const sub = viewer.subs.get(id);
    if (!sub) {
      viewer.send(
        errorFrame({
          code: 'unknown_subscription',
          id,
          message: `no subscription ${JSON.stringify(id)} on this connection`,
        }),
      );
      return;
    }
    viewer.unsubscribe(sub);
    viewer.send({ type: 'unsubscribed', id });
  }

  return { subscribe: subscribeWithinLimit, unsubscribe };
}

/** Closes every viewer with 1001, waits up to `graceMs` for their sockets to close, then cuts the rest. */
async function closeViewers(open: readonly WsViewer[], graceMs: number): Promise<void> {
  const gone = open.map(
    ({ connection: { ws } }) =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) resolve();
        else ws.once('close', () => resolve());
      }),
  );
  for (const viewer of open) {
    viewer.release();
    viewer.connection.ws.close(CLOSE_GOING_AWAY, 'server shutting down');
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(gone),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(timer);
  for (const viewer of open) viewer.connection.ws.terminate();
}
