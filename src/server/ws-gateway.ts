import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { GameSnapshot } from '../model/events.js';
import type { Logger } from '../core/log.js';
import { clientsDropped, framesSent, wsConnections } from '../core/metrics.js';
import { VERSION } from '../core/version.js';
import {
  createClientProtocol,
  MAX_DELAY_SECONDS,
  type ClientError,
  type GatewayLimits,
  type SubscribeRequest,
} from './client-protocol.js';
import {
  activate,
  Subscription,
  type ActivateContext,
  type Clock,
  type PreparedEvent,
  type Sink,
  writeFrames,
} from './delivery.js';
import type { LiveFeed } from './live-feed.js';

/**
 * The WebSocket side of `/v1/stream`: the protocol in docs/protocol.md. Connections are accepted
 * by the server (which has checked token, origin and path) through `handleUpgrade`.
 */

/** Close codes the gateway uses (docs/protocol.md). */
export const CLOSE_GOING_AWAY = 1001;
/** The client fell too far behind; it may reconnect and resume with `since`. */
export const CLOSE_SLOW_CONSUMER = 4000;

export interface WsGateway {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Pings every client; drops those silent for two intervals. */
  heartbeat(): void;
  readonly connections: number;
  readonly subscriptions: number;
  /** Closes every client with 1001; resolves once they are gone (or were terminated). */
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
}

// A dropped client gets this long to read its error frame and close before it is cut off.
const DROP_GRACE_MS = 2_000;

class WsClient implements Sink {
  closed = false;
  held = 0;
  lastSeen: number;
  readonly subs = new Map<string, Subscription>();
  private batch: Buffer[] = [];
  private readonly socket: Socket;

  constructor(
    readonly ws: WebSocket,
    private readonly gateway: GatewayCore,
  ) {
    this.lastSeen = gateway.clock.now();
    this.socket = socketOf(ws);
  }

  eventFrame(subId: string, p: PreparedEvent): Buffer {
    // One complete WebSocket frame per (event, subscription id), shared by every client whose
    // subscription has that id: the event's JSON is never re-serialised or re-framed per client.
    return sharedFrame(
      (p.wsFrames ??= new Map()),
      subId,
      () => `{"type":"event","sub":${JSON.stringify(subId)},"event":${p.json}}`,
    );
  }

  snapshotFrame(subId: string, game: GameSnapshot): Buffer {
    // The snapshot source hands out an unchanged snapshot as the same object; clients resuming
    // together (thousands, after a Redis restart) then share its frame, some 10-20 KB a game.
    let frames = snapshotFrames.get(game);
    if (!frames) snapshotFrames.set(game, (frames = new Map()));
    return sharedFrame(frames, subId, () => JSON.stringify({ type: 'snapshot', sub: subId, game }));
  }

  errorFrame(error: ClientError): Buffer {
    return textFrame(JSON.stringify({ type: 'error', ...error }));
  }

  queue(frame: Buffer): void {
    if (!this.closed) this.batch.push(frame);
  }

  send(value: unknown): void {
    this.queue(textFrame(JSON.stringify(value)));
    this.flush();
  }

  flush(): void {
    const batch = this.batch;
    if (batch.length > 0) this.batch = [];
    if (batch.length > 0 && !this.closed && this.ws.readyState === OPEN) {
      // Complete frames written straight to the socket, the whole batch in one system call: the
      // per-frame syscall is what fan-out costs. Safe beside ws's own writes (pings, close)
      // because ws, without compression, writes each of its frames synchronously and whole.
      writeFrames(this.socket, batch);
      this.gateway.framesSent += batch.length;
      wsFramesSent.inc(batch.length);
    }
    this.checkBudget();
  }

  checkBudget(): boolean {
    if (this.closed) return false;
    if (this.ws.bufferedAmount + this.held <= this.gateway.limits.maxBufferedBytes) return true;
    this.gateway.drop(
      this,
      'slow_consumer',
      `more than ${this.gateway.limits.maxBufferedBytes} bytes waiting for this client; closing (resume with since)`,
    );
    return false;
  }

  drained(): Promise<void> {
    if (this.closed || this.ws.bufferedAmount <= this.gateway.limits.maxBufferedBytes / 2) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }
}

// Bound once: a labelled child skips hashing the labels on every flush.
const wsFramesSent = framesSent.labels({ kind: 'ws' });

const snapshotFrames = new WeakMap<GameSnapshot, Map<string, Buffer>>();
// Frames kept per event or snapshot, one per subscription id, for this many ids at most: recent
// events stay in memory for replays, and clients that all name their subscriptions apart would
// otherwise keep a frame each.
const MAX_SHARED_FRAMES = 16;

function sharedFrame(frames: Map<string, Buffer>, subId: string, text: () => string): Buffer {
  let frame = frames.get(subId);
  if (!frame) {
    frame = textFrame(text());
    if (frames.size < MAX_SHARED_FRAMES) frames.set(subId, frame);
  }
  return frame;
}

// ws's WebSocket.OPEN; read once, it is a constant.
const OPEN = 1;

const socketOf = (ws: WebSocket): Socket => (ws as unknown as { _socket: Socket })._socket;

/** A complete, unmasked, final text frame (RFC 6455 §5.2), as a server sends it. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  // Payload lengths up to 125 fit the first length byte; up to 65535 take 2 more bytes; else 8.
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header, 'utf8');
  return frame;
}

interface GatewayCore {
  readonly clock: Clock;
  readonly limits: GatewayLimits;
  framesSent: number;
  drop(client: WsClient, code: 'slow_consumer', message: string): void;
}

export function createWsGateway(options: WsGatewayOptions): WsGateway & { readonly framesSent: number } {
  const { setup, feed, limits, heartbeatMs, logger, clock } = options;
  const protocol = createClientProtocol(limits);
  const clients = new Set<WsClient>();
  let subscriptionCount = 0;
  let closing = false;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    // Compression would cost CPU per client per frame and defeat shared frame buffers.
    perMessageDeflate: false,
    clientTracking: false,
  });

  const core: GatewayCore = {
    clock,
    limits,
    framesSent: 0,
    drop(client, code, message) {
      if (client.closed) return;
      const frame = client.errorFrame({ code, message });
      release(client);
      clientsDropped.inc({ reason: code });
      logger.info({ reason: code }, 'dropping WebSocket client');
      if (client.ws.readyState === client.ws.OPEN) socketOf(client.ws).write(frame);
      client.ws.close(CLOSE_SLOW_CONSUMER, 'slow consumer');
      setTimeout(() => client.ws.terminate(), DROP_GRACE_MS).unref();
    },
  };

  /** Forgets a client's subscriptions and marks it closed; idempotent. */
  function release(client: WsClient): void {
    if (client.closed) return;
    client.closed = true;
    for (const sub of client.subs.values()) removeSub(client, sub);
    if (clients.delete(client)) wsConnections.dec();
  }

  function removeSub(client: WsClient, sub: Subscription): void {
    if (sub.cancelled) return;
    sub.cancel();
    feed.index.remove(sub);
    client.subs.delete(sub.id);
    subscriptionCount -= 1;
  }

  const welcome = (): unknown => ({
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
  });

  function subscribe(client: WsClient, req: SubscribeRequest): void {
    if (client.subs.has(req.id)) {
      client.send({
        type: 'error',
        code: 'duplicate_subscription',
        id: req.id,
        message: `subscription id ${JSON.stringify(req.id)} is already in use on this connection; unsubscribe it first or pick another id`,
      });
      return;
    }
    if (client.subs.size >= limits.maxSubscriptions) {
      client.send({
        type: 'error',
        code: 'too_many_subscriptions',
        id: req.id,
        message: `at most ${limits.maxSubscriptions} subscriptions per connection; unsubscribe one first`,
      });
      return;
    }
    const sub = new Subscription(req.id, req.filter, req.delayMs, client, feed.dirty, clock);
    client.subs.set(req.id, sub);
    subscriptionCount += 1;
    // Registered and positioned in the same tick: live events after `liveFrom` reach it buffered.
    feed.index.add(sub);
    const liveFrom = feed.cursor;
    client.send({ type: 'subscribed', id: req.id, offset: liveFrom });
    const request = {
      snapshot: req.snapshot,
      liveFrom,
      ...(req.since !== undefined ? { since: req.since } : {}),
    };
    void activate(sub, request, setup).then((ok) => {
      if (!ok && client.subs.get(sub.id) === sub) removeSub(client, sub);
    });
  }

  function onMessage(client: WsClient, data: Buffer, isBinary: boolean): void {
    client.lastSeen = clock.now();
    if (client.closed) return;
    if (isBinary) {
      client.send({
        type: 'error',
        code: 'invalid_message',
        message: 'binary frames are not accepted; send JSON text',
      });
      return;
    }
    const parsed = protocol.parse(data.toString('utf8'));
    if (!parsed.ok) {
      client.send({ type: 'error', ...parsed.error });
      return;
    }
    const message = parsed.message;
    switch (message.op) {
      case 'ping':
        client.send({ type: 'pong' });
        return;
      case 'subscribe':
        subscribe(client, message);
        return;
      case 'unsubscribe': {
        const sub = client.subs.get(message.id);
        if (!sub) {
          client.send({
            type: 'error',
            code: 'unknown_subscription',
            id: message.id,
            message: `no subscription ${JSON.stringify(message.id)} on this connection`,
          });
          return;
        }
        removeSub(client, sub);
        client.send({ type: 'unsubscribed', id: message.id });
        return;
      }
    }
  }

  function onConnection(ws: WebSocket): void {
    const client = new WsClient(ws, core);
    clients.add(client);
    wsConnections.inc();
    ws.on('message', (data: Buffer, isBinary: boolean) => onMessage(client, data, isBinary));
    const heard = (): void => {
      client.lastSeen = clock.now();
    };
    // Any sign of life counts: our ping's pong, the peer's own ping, or a message.
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('close', () => release(client));
    ws.on('error', (err) => {
      // Protocol errors (oversized or malformed frames) close the socket; ws picks the code.
      logger.debug({ err: err.message }, 'WebSocket client error');
    });
    client.send(welcome());
  }

  return {
    get connections() {
      return clients.size;
    },
    get subscriptions() {
      return subscriptionCount;
    },
    get framesSent() {
      return core.framesSent;
    },
    handleUpgrade(req, socket, head) {
      if (closing) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, onConnection);
    },
    heartbeat() {
      const now = clock.now();
      for (const client of clients) {
        if (now - client.lastSeen >= 2 * heartbeatMs) {
          release(client);
          clientsDropped.inc({ reason: 'heartbeat' });
          client.ws.terminate();
        } else {
          client.ws.ping();
        }
      }
    },
    async close(graceMs) {
      closing = true;
      const open = [...clients];
      const gone = open.map(
        (client) =>
          new Promise<void>((resolve) => {
            if (client.ws.readyState === client.ws.CLOSED) resolve();
            else client.ws.once('close', () => resolve());
          }),
      );
      for (const client of open) {
        release(client);
        client.ws.close(CLOSE_GOING_AWAY, 'server shutting down');
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(gone),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      for (const client of open) client.ws.terminate();
      wss.close();
    },
  };
}
