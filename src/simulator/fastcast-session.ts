import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { encodePatchPayload, parseGameTopic, type PatchOperation } from '../espn/fastcast-wire.js';
import { ABSENT_KEY_OPS, type FastcastFaults } from './fastcast-faults.js';
import type { Faults } from './faults.js';
import type { FeedPatch, GameFeed } from './fastcast-feed.js';

/**
 * One FastCast socket as the simulator plays it: answers `C` and `S`, sends per topic the `H`
 * frame (checkpoint URL), `R` frames (patches since that checkpoint) and then `P` frames, with a
 * `mid` per topic; `I` and `B` keep-alives; the socket faults (lost frame, bad patch, dropped
 * socket, silent socket, topic 404).
 */
export interface FastcastSession {
  /** A patch of `feed` was published: sent to this socket if it subscribed to the topic. */
  publish(topic: string, published: FeedPatch): void;
  /** Keep-alives: an `I` frame per topic and a `B` frame. */
  keepAlive(): void;
  readonly silent: boolean;
}

export interface SessionDeps {
  readonly faults: Faults;
  readonly pushFaults: FastcastFaults;
  readonly hbiSeconds: number;
  feed(topic: string): GameFeed | undefined;
  checkpointUrl(topic: string, id: number): string;
  now(): number;
  /** Topics another publisher answers on this socket (a replayed capture's): left alone here. */
  claimed?(topic: string): boolean;
}

// An operation that cannot apply: its path names a play no summary has. It lands in a part of the
// document courtside reads (the plays), where a failed operation is never skipped.
const UNAPPLIABLE: readonly PatchOperation[] = [
  { op: 'remove', path: '/plays/__courtside_simulator_missing' },
];

export function createSession(ws: WebSocket, deps: SessionDeps): FastcastSession {
  const sid = randomUUID();
  const mids = new Map<string, number>();
  // Alternates the two payload forms so that clients meet both.
  let compressed = true;
  const out = new FrameSender(ws);
  const gameOf = (topic: string): string | undefined => parseGameTopic(topic)?.gameId;
  const nextMid = (topic: string): number => {
    const mid = (mids.get(topic) ?? 0) + 1;
    mids.set(topic, mid);
    return mid;
  };
  const patchFrame = (op: 'R' | 'P', topic: string, p: FeedPatch): void => {
    compressed = !compressed;
    out.send({ op, tc: topic, mid: nextMid(topic), pl: encodePatchPayload(p.patch, p.ts, compressed) });
  };

  ws.on('message', (data) => {
    if (out.silent) return;
    let frame: { op?: unknown; tc?: unknown; sid?: unknown };
    try {
      frame = JSON.parse(String(data)) as typeof frame;
    } catch {
      return;
    }
    if (frame.op === 'C') {
      out.send({ op: 'C', rc: 200, hbi: deps.hbiSeconds, sid });
      // Maintenance for the whole service is announced on connecting; for one game, on its topic.
      if (deps.pushFaults.find('maintenance') !== undefined) out.send({ op: 'M', sid });
      return;
    }
    const topic = typeof frame.tc === 'string' ? frame.tc : '';
    if (deps.claimed?.(topic)) return;
    if (frame.op === 'S') {
      const feed = deps.feed(topic);
      if (feed === undefined || deps.faults.roll('topic404')) {
        out.send({ op: 'S', rc: 404, tc: topic, sid });
        return;
      }
      out.send({ op: 'S', rc: 200, tc: topic, sid });
      const game = gameOf(topic);
      if (deps.pushFaults.find('maintenance', game)?.games !== undefined)
        out.send({ op: 'M', tc: topic, sid });
      // Answered, and then nothing: the topic does not exist (yet), though the answer said 200.
      if (deps.pushFaults.has('no-h', game)) return;
      // Subscribing again is how a client gets a fresh checkpoint: the `mid`s go on.
      const { checkpoint, since } = feed.latest();
      const bomb = deps.pushFaults.catchUpBomb(game ?? '');
      out.sending(deps.pushFaults.has('batched-frames', game), () => {
        out.send({ op: 'H', tc: topic, mid: nextMid(topic), pl: deps.checkpointUrl(topic, checkpoint.id) });
        if (bomb !== undefined)
          out.send({
            op: 'R',
            tc: topic,
            mid: nextMid(topic),
            pl: JSON.stringify({ ts: deps.now(), '~c': 1, pl: bomb }),
          });
        for (const p of since) patchFrame('R', topic, p);
      });
      return;
    }
    if (frame.op === 'U') mids.delete(topic);
  });

  return {
    publish(topic, published) {
      if (out.silent || !mids.has(topic)) return;
      const { faults } = deps;
      if (faults.roll('dropsocket')) {
        ws.terminate();
        return;
      }
      if (faults.roll('silentsocket')) {
        // Stops everything, pings included: only the client's heartbeat check can tell.
        out.silent = true;
        return;
      }
      if (faults.roll('lostframe')) {
        nextMid(topic);
        return;
      }
      const patch = faults.roll('badpatch') ? { ...published, patch: UNAPPLIABLE } : published;
      const game = gameOf(topic) ?? '';
      const { absentKeys, bomb } = deps.pushFaults.forPatch(game, published);
      if (bomb !== undefined)
        out.send({
          op: 'P',
          tc: topic,
          mid: nextMid(topic),
          pl: JSON.stringify({ ts: published.ts, '~c': 1, pl: bomb }),
        });
      const sent = absentKeys ? { ...patch, patch: [...patch.patch, ...ABSENT_KEY_OPS] } : patch;
      const batched = deps.pushFaults.has('batched-frames', game);
      out.sending(batched, () => {
        patchFrame('P', topic, sent);
        // The keep-alive that a server flushes with the patch, in the same message.
        if (batched) out.send({ op: 'I', tc: topic, mid: nextMid(topic), pl: '0' });
      });
    },
    keepAlive() {
      if (out.silent) return;
      for (const topic of mids.keys()) out.send({ op: 'I', tc: topic, mid: nextMid(topic), pl: '0' });
      out.send({ op: 'B', pl: String(deps.now()) });
      if (ws.readyState === ws.OPEN) ws.ping();
    },
    get silent() {
      return out.silent;
    },
  };
}

/** The socket's outgoing frames: one message each, or held and sent together as one list. */
class FrameSender {
  /** Sends nothing any more (the `silentsocket` fault). */
  silent = false;
  // Frames held to go out together as one list (the `batched-frames` fault); null: sent one by one.
  private batch: Record<string, unknown>[] | null = null;

  constructor(private readonly ws: WebSocket) {}

  send(frame: Record<string, unknown>): void {
    if (this.batch !== null) this.batch.push(frame);
    else if (this.open()) this.ws.send(JSON.stringify(frame));
  }

  /** Runs `fn`, its frames sent as one message when `together`. */
  sending(together: boolean, fn: () => void): void {
    if (!together) return fn();
    this.batch = [];
    try {
      fn();
    } finally {
      const frames = this.batch;
      this.batch = null;
      if (this.open() && frames.length > 0) this.ws.send(JSON.stringify(frames));
    }
  }

  private open(): boolean {
    return !this.silent && this.ws.readyState === this.ws.OPEN;
  }
}
