import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GameSnapshot } from '../model/events.js';
import type { Logger } from '../core/log.js';
import { VERSION } from '../core/version.js';
import {
  createViewerProtocol,
  type ViewerError,
  type GatewayLimits,
  type ParseResult,
} from './viewer-protocol.js';
import { ViewerSet } from './delivery/viewers.js';
import type { ErrorFrame } from './delivery/frames.js';
import { activate } from './delivery/activate.js';
import type { ActivateContext } from './delivery/replay.js';
import { Sink, writeFrames, type Connection, type FrameEncoding } from './delivery/sink.js';
import { Subscription, type Clock } from './delivery/subscription.js';
import { sendError, streamQueryErrorCode } from './http-types.js';
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
const snapshotFrames = new WeakMap<GameSnapshot, Buffer>();
const FILTER_FIELDS = ['leagues', 'games', 'teams', 'conferences', 'types'] as const;
// A dropped stream gets this long to flush its error event before the socket is destroyed.
const DROP_GRACE_MS = 2_000;

/** Frames as SSE messages. Of the replies, a stream only ever carries errors. */
const sseEncoding: FrameEncoding<ErrorFrame> = {
  name: 'SSE',
  resumeHint: 'reconnect with Last-Event-ID',
  event(_subId, p) {
    // SSE frames do not name a subscription, so one buffer per event serves every SSE viewer.
    p.sseFrame ??= Buffer.from(`id: ${p.offset}\nevent: ${p.event.type}\ndata: ${p.json}\n\n`);
    return p.sseFrame;
  },
  snapshot(_subId, game) {
    // Shared by every viewer sent this snapshot object (see the WebSocket frames).
    let frame = snapshotFrames.get(game);
    if (!frame) {
      frame = Buffer.from(`event: snapshot\ndata: ${JSON.stringify(game)}\n\n`);
      snapshotFrames.set(game, frame);
    }
    return frame;
  },
  reply(frame) {
    // The event name says what the frame is, and a stream has one subscription: both go.
    const { type, id: _id, ...rest } = frame;
    return Buffer.from(`event: ${type}\ndata: ${JSON.stringify(rest)}\n\n`);
  },
};

/** An event stream response as a sink writes to it. */
class SseConnection implements Connection {
  constructor(readonly stream: ServerResponse) {}

  get buffered(): number {
    return this.stream.writableLength;
  }

  get writable(): boolean {
    return !this.stream.writableEnded;
  }

  write(frames: readonly Buffer[]): void {
    // One system call per batch, not one per event.
    writeFrames(this.stream, frames);
  }

  end(lastFrame: Buffer): void {
    this.stream.end(lastFrame);
    setTimeout(() => this.stream.destroy(), DROP_GRACE_MS).unref();
  }
}

export function createSseEndpoint(options: {
  setup: ActivateContext;
  feed: LiveFeed;
  limits: GatewayLimits;
  logger: Logger;
  clock: Clock;
}): SseEndpoint & { readonly framesSent: number } {
  const { setup, feed, limits, clock } = options;
  const protocol = createViewerProtocol(limits);
  const viewers = new ViewerSet<ErrorFrame, SseConnection>('sse', options);

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
    const ranked = q.get('ranked');
    if (ranked !== null) {
      if (!['1', 'true', ''].includes(ranked)) {
        const error: ViewerError = {
          code: 'invalid_message',
          message: `ranked ${JSON.stringify(ranked)} is invalid; expected 1 (only games with a ranked team), or leave it out`,
        };
        return { ok: false, error };
      }
      message.ranked = true;
    }
    const delay = q.get('delay');
    if (delay !== null && delay !== '') message.delay = /^[0-9]{1,6}$/.test(delay) ? Number(delay) : delay;
    const snapshot = q.get('snapshot');
    if (snapshot !== null) {
      if (!['1', 'true', '0', 'false', ''].includes(snapshot)) {
        const error: ViewerError = {
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
      return viewers.size;
    },
    get framesSent() {
      return viewers.framesSent;
    },
    handle(req, res, url) {
      const query = toSubscribe(req, url);
      const parsed = query.ok === undefined ? protocol.parseSubscribe(query.message) : query;
      if (!parsed.ok) {
        sendError(res, 400, streamQueryErrorCode(parsed.error.code), parsed.error.message);
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
      const viewer = new Sink(new SseConnection(res), sseEncoding, viewers);
      viewers.add(viewer);
      res.on('close', () => viewer.release());
      const sub = new Subscription(request, viewer, feed.dirty, clock);
      const liveFrom = viewers.subscribe(viewer, sub);
      void activate(sub, { since: request.since, snapshot: request.snapshot, liveFrom }, setup).then((ok) => {
        if (!ok) {
          viewer.release();
          res.end();
        }
      });
    },
    heartbeat() {
      for (const viewer of viewers.sinks) {
        viewer.connection.stream.write(HEARTBEAT);
        viewer.checkBudget();
      }
    },
    close() {
      for (const viewer of [...viewers.sinks]) {
        viewer.release();
        viewer.connection.stream.end();
      }
    },
  };
}
