import type { GameSnapshot } from '../../model/events.js';
import type { Logger } from '../../core/log.js';
import { clientsDropped } from '../../core/metrics.js';
import { errorFrame, type ErrorFrame, type PreparedEvent, type ReplyFrame } from './frames.js';
import type { Outlet, Subscription } from './subscription.js';

/**
 * One viewer connection, WebSocket or SSE: its subscriptions, the batch of frames queued for the
 * next write, the bytes held for it elsewhere (replays, spoiler delays), and the buffered-bytes
 * budget that drops a viewer falling too far behind. The transports differ only in how a frame
 * is encoded (`FrameEncoding`) and how bytes reach the viewer (`Connection`).
 */

/** How a transport turns frames into bytes: one per transport, shared by all its viewers. */
export interface FrameEncoding<F extends ReplyFrame> {
  /** The transport's name in logs ("WebSocket", "SSE"). */
  readonly name: string;
  /** How a dropped viewer gets back without loss, said in its `slow_consumer` message. */
  readonly resumeHint: string;
  event(subId: string, p: PreparedEvent): Buffer;
  snapshot(subId: string, game: GameSnapshot): Buffer;
  reply(frame: F): Buffer;
}

/** A viewer's socket as the sink writes to it. */
export interface Connection {
  /** Bytes written that the viewer has not taken yet. */
  readonly buffered: number;
  readonly writable: boolean;
  /** Where 'drain' and 'close' are emitted. */
  readonly stream: {
    on(event: 'drain' | 'close', listener: () => void): unknown;
    off(event: 'drain' | 'close', listener: () => void): unknown;
  };
  write(frames: readonly Buffer[]): void;
  /** Writes a last frame and closes: the viewer fell too far behind. */
  end(lastFrame: Buffer): void;
}

/** The gateway a sink belongs to. */
export interface SinkHost {
  readonly maxBufferedBytes: number;
  readonly logger: Logger;
  /** Counts frames written to viewers. */
  sent(count: number): void;
  /** A subscription of a sink ended (unsubscribed, or its sink closed). */
  unsubscribed(sub: Subscription): void;
  /** A sink closed: it is done with every subscription. */
  released(sink: object): void;
}

export class Sink<F extends ReplyFrame = ReplyFrame, C extends Connection = Connection> implements Outlet {
  closed = false;
  held = 0;
  readonly subs = new Map<string, Subscription>();
  private batch: Buffer[] = [];

  constructor(
    readonly connection: C,
    private readonly encoding: FrameEncoding<F | ErrorFrame>,
    private readonly host: SinkHost,
  ) {}

  eventFrame(subId: string, p: PreparedEvent): Buffer {
    return this.encoding.event(subId, p);
  }

  snapshotFrame(subId: string, game: GameSnapshot): Buffer {
    return this.encoding.snapshot(subId, game);
  }

  /** Writes a reply now, after whatever is queued. */
  send(frame: F | ErrorFrame): void {
    this.queue(this.encoding.reply(frame));
    this.flush();
  }

  queue(frame: Buffer): void {
    if (!this.closed) this.batch.push(frame);
  }

  /** Writes the batch with the socket corked, then enforces the buffered-bytes limit. */
  flush(): void {
    const batch = this.batch;
    if (batch.length > 0) this.batch = [];
    if (batch.length > 0 && !this.closed && this.connection.writable) {
      this.connection.write(batch);
      this.host.sent(batch.length);
    }
    this.checkBudget();
  }

  /** Enforces the buffered-bytes limit now; false when the viewer was dropped. */
  checkBudget(): boolean {
    if (this.closed) return false;
    if (this.connection.buffered + this.held <= this.host.maxBufferedBytes) return true;
    this.drop();
    return false;
  }

  /** Resolves once the socket's buffer has room again (replay paces itself on it). */
  drained(): Promise<void> {
    if (this.closed || this.connection.buffered <= this.host.maxBufferedBytes / 2) {
      return Promise.resolve();
    }
    const { stream } = this.connection;
    return new Promise((resolve) => {
      const done = (): void => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
    });
  }

  /** Ends one subscription; idempotent. */
  unsubscribe(sub: Subscription): void {
    if (sub.cancelled) return;
    sub.cancel();
    this.subs.delete(sub.id);
    this.host.unsubscribed(sub);
  }

  /** Marks the sink closed and ends its subscriptions; idempotent. */
  release(): void {
    if (this.closed) return;
    this.closed = true;
    for (const sub of this.subs.values()) this.unsubscribe(sub);
    this.host.released(this);
  }

  private drop(): void {
    const frame = this.encoding.reply(
      errorFrame({
        code: 'slow_consumer',
        message: `more than ${this.host.maxBufferedBytes} bytes waiting for this client; closing (${this.encoding.resumeHint})`,
      }),
    );
    this.release();
    clientsDropped.inc({ reason: 'slow_consumer' });
    this.host.logger.info({ reason: 'slow_consumer' }, `dropping ${this.encoding.name} client`);
    this.connection.end(frame);
  }
}

/**
 * Writes a batch of frames to a viewer's stream in one system call. Frames are shared by every
 * viewer that gets them, so they are written corked, frame by frame (one writev), never copied
 * into a buffer per viewer: at a thousand viewers such copies were 32 MB/s of short-lived native
 * allocations that fragmented the C heap, which then never shrank (docs/decisions.md, "Frames are
 * written, never copied per viewer").
 */
export function writeFrames(
  out: { write(chunk: Buffer): boolean; cork(): void; uncork(): void },
  frames: readonly Buffer[],
): void {
  if (frames.length === 1) {
    out.write(frames[0] as Buffer);
    return;
  }
  out.cork();
  for (const frame of frames) out.write(frame);
  out.uncork();
}
