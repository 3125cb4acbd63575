import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GameSnapshot } from '../model/events.js';
import type { Logger } from '../core/log.js';
import { clientsDropped, framesSent, sseConnections } from '../core/metrics.js';
import { VERSION } from '../core/version.js';
import {
  createClientProtocol,
  type ClientError,
  type GatewayLimits,
  type ParseResult,
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
import { sendError } from './http-types.js';
import type { LiveFeed } from './live-feed.js';

/**
 * Server-Sent Events at `GET /v1/stream/sse`: one subscription per request, its filters as query
 * parameters, resumed from `Last-Event-ID` (what EventSource sends on reconnect) or `?since=`.
 * Each event is `id: <offset>` / `event: <type>` / `data: <json>`; a comment line every heartbeat
 * keeps proxies from timing the stream out.
 */
export interface SseEndpoint {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): void;
  heartbeat(): void;
  readonly connections: number;
  close(): void;
}

// EventSource's reconnect delay: 2 s is quick after a restart without hammering a down server.
const RETRY_MS = 2_000;
const SSE_SUB_ID = 'sse';
const HEARTBEAT = Buffer.from(': heartbeat\n\n');
// Bound once: a labelled child skips hashing the labels on every flush.
const sseFramesSent = framesSent.labels({ kind: 'sse' });
const snapshotFrames = new WeakMap<GameSnapshot, Buffer>();
const FILTER_FIELDS = ['leagues', 'games', 'teams', 'types'] as const;

class SseClient implements Sink {
  closed = false;
  held = 0;
  sub: Subscription | undefined;
  private batch: Buffer[] = [];

  constructor(
    readonly res: ServerResponse,
    private readonly endpoint: SseCore,
  ) {}

  eventFrame(_subId: string, p: PreparedEvent): Buffer {
    // SSE frames do not name a subscription, so one buffer per event serves every SSE client.
    p.sseFrame ??= Buffer.from(`id: ${p.offset}\nevent: ${p.event.type}\ndata: ${p.json}\n\n`);
    return p.sseFrame;
  }

  snapshotFrame(_subId: string, game: GameSnapshot): Buffer {
    // Shared by every client sent this snapshot object (see the WebSocket gateway).
    let frame = snapshotFrames.get(game);
    if (!frame) {
      frame = Buffer.from(`event: snapshot\ndata: ${JSON.stringify(game)}\n\n`);
      snapshotFrames.set(game, frame);
    }
    return frame;
  }

  errorFrame(error: ClientError): Buffer {
    const { id: _id, ...rest } = error;
    return Buffer.from(`event: error\ndata: ${JSON.stringify(rest)}\n\n`);
  }

  queue(frame: Buffer): void {
    if (!this.closed) this.batch.push(frame);
  }

  flush(): void {
    const batch = this.batch;
    if (batch.length > 0) this.batch = [];
    if (batch.length > 0 && !this.closed) {
      // One system call per batch, not one per event.
      writeFrames(this.res, batch);
      this.endpoint.framesSent += batch.length;
      sseFramesSent.inc(batch.length);
    }
    this.checkBudget();
  }

  checkBudget(): boolean {
    if (this.closed) return false;
    if (this.res.writableLength + this.held <= this.endpoint.limits.maxBufferedBytes) return true;
    this.endpoint.drop(this);
    return false;
  }

  drained(): Promise<void> {
    if (this.closed || this.res.writableLength <= this.endpoint.limits.maxBufferedBytes / 2) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
}

interface SseCore {
  readonly limits: GatewayLimits;
  framesSent: number;
  drop(client: SseClient): void;
}

// A dropped stream gets this long to flush its error event before the socket is destroyed.
const DROP_GRACE_MS = 2_000;

export function createSseEndpoint(options: {
  setup: ActivateContext;
  feed: LiveFeed;
  limits: GatewayLimits;
  logger: Logger;
  clock: Clock;
}): SseEndpoint & { readonly framesSent: number } {
  const { setup, feed, limits, logger, clock } = options;
  const protocol = createClientProtocol(limits);
  const clients = new Set<SseClient>();

  function release(client: SseClient): void {
    if (client.closed) return;
    client.closed = true;
    if (client.sub) {
      client.sub.cancel();
      feed.index.remove(client.sub);
    }
    if (clients.delete(client)) sseConnections.dec();
  }

  const core: SseCore = {
    limits,
    framesSent: 0,
    drop(client) {
      if (client.closed) return;
      const frame = client.errorFrame({
        code: 'slow_consumer',
        message: `more than ${limits.maxBufferedBytes} bytes waiting for this client; closing (reconnect with Last-Event-ID)`,
      });
      release(client);
      clientsDropped.inc({ reason: 'slow_consumer' });
      logger.info({ reason: 'slow_consumer' }, 'dropping SSE client');
      client.res.end(frame);
      setTimeout(() => client.res.destroy(), DROP_GRACE_MS).unref();
    },
  };

  /** The query as a subscribe message, so SSE and WebSocket validate filters identically. */
  function toSubscribe(
    req: IncomingMessage,
    url: URL,
  ): ParseResult | { ok: undefined; message: Record<string, unknown> } {
    const q = url.searchParams;
    const message: Record<string, unknown> = { op: 'subscribe', id: SSE_SUB_ID };
    for (const field of FILTER_FIELDS) {
      const values = q
        .getAll(field)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
      if (values.length > 0) message[field] = values;
    }
    const delay = q.get('delay');
    if (delay !== null && delay !== '') message.delay = /^[0-9]{1,6}$/.test(delay) ? Number(delay) : delay;
    const snapshot = q.get('snapshot');
    if (snapshot !== null) {
      if (!['1', 'true', '0', 'false', ''].includes(snapshot)) {
        const error: ClientError = {
          code: 'invalid_message',
          message: `snapshot ${JSON.stringify(snapshot)} is invalid; expected 1 or 0`,
        };
        return { ok: false, error };
      }
      message.snapshot = snapshot === '1' || snapshot === 'true' || snapshot === '';
    }
    const lastEventId = req.headers['last-event-id'];
    const since = (typeof lastEventId === 'string' && lastEventId.trim()) || q.get('since');
    if (since) message.since = since;
    return { ok: undefined, message };
  }

  return {
    get connections() {
      return clients.size;
    },
    get framesSent() {
      return core.framesSent;
    },
    handle(req, res, url) {
      const query = toSubscribe(req, url);
      const parsed = query.ok === undefined ? protocol.parseSubscribe(query.message) : query;
      if (!parsed.ok) {
        sendError(res, 400, parsed.error.code, parsed.error.message);
        return;
      }
      if (parsed.message.op !== 'subscribe') return;
      const request = parsed.message;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Tells nginx-style proxies not to buffer the stream.
        'x-accel-buffering': 'no',
      });
      res.socket?.setNoDelay(true);
      res.write(`: courtside ${VERSION}\nretry: ${RETRY_MS}\n\n`);
      const client = new SseClient(res, core);
      clients.add(client);
      sseConnections.inc();
      res.on('close', () => release(client));
      const sub = new Subscription(SSE_SUB_ID, request.filter, request.delayMs, client, feed.dirty, clock);
      client.sub = sub;
      feed.index.add(sub);
      const liveFrom = feed.cursor;
      const activation = {
        snapshot: request.snapshot,
        liveFrom,
        ...(request.since !== undefined ? { since: request.since } : {}),
      };
      void activate(sub, activation, setup).then((ok) => {
        if (!ok) {
          release(client);
          res.end();
        }
      });
    },
    heartbeat() {
      for (const client of clients) {
        client.res.write(HEARTBEAT);
        client.checkBudget();
      }
    },
    close() {
      for (const client of [...clients]) {
        release(client);
        client.res.end();
      }
    },
  };
}
