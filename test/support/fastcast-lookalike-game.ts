import { gzipSync, deflateSync } from 'node:zlib';
// A seeded generator is no part of FastCast: sharing the simulator's keeps one copy of it.
import { createRandom } from '../../src/simulator/random.js';
import { absentKeyOps, idOf, makePatch, mixIn, type Json, type Op } from './fastcast-lookalike-patch.js';

/**
 * One game of the FastCast look-alike (test/support/fastcast-lookalike.ts): follows the game's
 * summary on a site API, publishes each new version as a patch on the game's topic, keeps the
 * topic's checkpoints and catch-up, serves the site summary lagging the push document, and plays
 * the oddities chosen for it. Like the rest of the look-alike it is written from the protocol facts
 * alone and shares no code with the simulator's FastCast nor with courtside's client.
 */

export interface LookalikeGameOptions {
  readonly gameId: string;
  /** Publications (1-based) whose frame is lost on the wire. */
  readonly lostFrameAt?: readonly number[];
  /** Publications (1-based) replaced by a patch that cannot apply. */
  readonly badPatchAt?: readonly number[];
  /**
   * Every n-th publication also carries a `remove` and a `replace` of odds and pick keys the
   * document does not hold, mixed in with its real operations (public clients meet these in
   * steady state).
   */
  readonly absentKeysEvery?: number;
  /** `S` is answered 200 and nothing follows: no `H`, no frames (a topic that does not exist yet). */
  readonly noCheckpoint?: boolean;
  /** The checkpoint's body is `{"pl": <document>}` rather than the document. */
  readonly wrappedCheckpoint?: boolean;
  /**
   * Publications (1-based) before which a compressed frame is sent, under a `mid` of its own, whose
   * payload inflates to the look-alike's `bombBytes` (a JSON array padded with spaces).
   */
  readonly bombAt?: readonly number[];
  /** Several messages in one frame: a subscription's `H` and catch-up in one, live frames two by two. */
  readonly batched?: boolean;
}

export interface LookalikeGameStats {
  publications: number;
  /** `P` frames sent (bad patches and bombs included; lost ones not). */
  frames: number;
  lostFrames: number;
  badPatches: number;
  /** Frames that carried operations on absent odds and pick keys. */
  absentKeyFrames: number;
  bombs: number;
  /** Frames that held several messages. */
  batchedFrames: number;
  iFrames: number;
  compressed: number;
  plain: number;
  /** Operations published, by RFC 6902 op (and `replace-array`, `replace-document`). */
  ops: Record<string, number>;
  /** Checkpoint downloads of this topic. */
  checkpointsServed: number;
  /** `H` frames sent unasked (variant `announceCheckpoints`). */
  announcedCheckpoints: number;
  subscribes: number;
  /** `S` for a topic the session already had: a client asking for a fresh checkpoint. */
  resubscribes: number;
  /** Summary requests of this game, per site. */
  summaryRequests: Record<string, number>;
}

export interface GameContext {
  readonly upstream: string;
  readonly league: string;
  readonly sites: readonly string[];
  readonly checkpointBase: string;
  readonly cdnLagMs: number;
  readonly checkpointEvery: number;
  readonly announceCheckpoints: boolean;
  /** The compressed payload of a bomb frame (base64 of the zlib stream), when a game has bombs. */
  readonly bomb: string | null;
  readonly seed: number;
  readonly now: () => number;
  /** Sends a frame (or several in one) to every session subscribed to `topic`. */
  broadcast(topic: string, frame: Json | Json[]): void;
  /** Sessions subscribed to `topic`. */
  subscribers(topic: string): number;
}

export interface LookalikeGame {
  readonly gameId: string;
  readonly topic: string;
  readonly stats: LookalikeGameStats;
  /** When the version that first held each play was published (ms), by play id. */
  readonly publishedAt: Map<string, number>;
  /** When each site first served a summary holding each play (ms), by site then play id. */
  readonly shownAt: Map<string, Map<string, number>>;
  /** Whether several messages go in one frame. */
  readonly batched: boolean;
  /**
   * What follows a 200 `S` answer for this topic (nothing for a topic that does not exist yet):
   * sent one message a frame, or all in one when `batched`.
   */
  subscribed(again: boolean): Json[];
  /** The checkpoint of `mid` as served (its text and gzip form), if still kept. */
  checkpoint(mid: number): { text: string; gz: Buffer } | undefined;
  /** The followed summary has a new version. */
  publish(nextText: string): void;
  /** An `I` frame, and any frame a batch holds. */
  keepAlive(): void;
  /** Sends what a batch holds, so that a new subscriber gets it in its catch-up only. */
  flush(): void;
  /** The site summary as a site serves it: the newest version published at least `cdnLagMs` ago. */
  siteSummary(site: string): string;
}

interface Entry {
  readonly mid: number;
  readonly op: 'P' | 'I';
  /** The `pl` as sent: a JSON string for patches, "0" for `I`. */
  readonly pl: string;
}

interface Checkpoint {
  readonly mid: number;
  readonly text: string;
  readonly gz: Buffer;
}

// Checkpoints kept for download: a client handed an H frame just before a newer one still finds it.
const CHECKPOINTS_KEPT = 4;

export function createLookalikeGame(
  ctx: GameContext,
  options: LookalikeGameOptions,
  first: string,
): LookalikeGame {
  const { now } = ctx;
  const rnd = createRandom(ctx.seed);
  const topic = `gp-basketball-${ctx.league}-${options.gameId}`;
  const lost = new Set(options.lostFrameAt ?? []);
  const bad = new Set(options.badPatchAt ?? []);
  const bombs = new Set(options.bombAt ?? []);
  const stats: LookalikeGameStats = {
    publications: 0,
    frames: 0,
    lostFrames: 0,
    badPatches: 0,
    absentKeyFrames: 0,
    bombs: 0,
    batchedFrames: 0,
    iFrames: 0,
    compressed: 0,
    plain: 0,
    ops: {},
    checkpointsServed: 0,
    announcedCheckpoints: 0,
    subscribes: 0,
    resubscribes: 0,
    summaryRequests: Object.fromEntries(ctx.sites.map((s) => [s, 0])),
  };
  const publishedAt = new Map<string, number>();
  let text = first;
  let doc = JSON.parse(text) as Json;
  for (const p of Array.isArray(doc.plays) ? doc.plays : []) {
    const id = idOf(p);
    if (id !== null) publishedAt.set(id, now());
  }
  // Topic mids start anywhere: nothing says they start at 1.
  let mid = 40_000 + Math.floor(rnd() * 10_000);
  const checkpoints: Checkpoint[] = [];
  const history: Entry[] = [];
  const takeCheckpoint = (): void => {
    const body = options.wrappedCheckpoint ? `{"pl":${text}}` : text;
    checkpoints.push({ mid, text: body, gz: gzipSync(body) });
    if (checkpoints.length > CHECKPOINTS_KEPT) checkpoints.shift();
    const oldest = checkpoints[0]?.mid ?? mid;
    while ((history[0]?.mid ?? Infinity) <= oldest) history.shift();
  };
  takeCheckpoint();
  // Versions with the time they were published, for the lagging site summary.
  const versions: Array<{ at: number; text: string }> = [{ at: now(), text }];
  // Per site, the plays of each publication that site has not served yet, oldest first.
  const unshown = new Map(ctx.sites.map((site) => [site, [{ at: -Infinity, ids: [...publishedAt.keys()] }]]));
  const shownAt = new Map(ctx.sites.map((site) => [site, new Map<string, number>()]));

  const checkpointFrame = (cp: Checkpoint): Json => ({
    op: 'H',
    tc: topic,
    mid: cp.mid,
    pl: `${ctx.checkpointBase}/FastcastService/pubsub/profiles/12000/topic/${topic}/message/${cp.mid}/checkpoint`,
  });

  // Frames waiting for a companion, when the game sends several messages a frame.
  let pending: Json[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    const frames = pending;
    pending = [];
    if (frames.length > 1) stats.batchedFrames++;
    ctx.broadcast(topic, frames.length > 1 ? frames : (frames[0] as Json));
  };
  const emit = (frame: Json): void => {
    // A topic that does not exist sends nothing, whoever asked for it.
    if (options.noCheckpoint) return;
    if (!options.batched) return ctx.broadcast(topic, frame);
    pending.push(frame);
    if (pending.length >= 2) flush();
  };
  const listening = (): boolean => !options.noCheckpoint && ctx.subscribers(topic) > 0;

  const payload = (ops: readonly Op[] | string, ts: number): string => {
    const inner = typeof ops === 'string' ? null : JSON.stringify(ops);
    const compressed = inner === null || rnd() < 0.5;
    if (compressed) stats.compressed++;
    else stats.plain++;
    return JSON.stringify({
      ts,
      '~c': compressed ? 1 : 0,
      pl: inner === null ? ops : compressed ? deflateSync(inner).toString('base64') : inner,
    });
  };

  const count = (ops: readonly Op[]): void => {
    for (const o of ops) {
      const kind =
        o.op === 'replace' && o.path === ''
          ? 'replace-document'
          : o.op === 'replace' && Array.isArray(o.value)
            ? 'replace-array'
            : o.op;
      stats.ops[kind] = (stats.ops[kind] ?? 0) + 1;
    }
  };

  const sendBomb = (at: number): void => {
    if (ctx.bomb === null) throw new Error('bombAt needs the look-alike built with bombBytes');
    mid++;
    const pl = payload(ctx.bomb, at);
    history.push({ mid, op: 'P', pl });
    if (listening()) {
      stats.bombs++;
      stats.frames++;
    }
    emit({ op: 'P', tc: topic, mid, pl });
  };

  const publish = (nextText: string): void => {
    const next = JSON.parse(nextText) as Json;
    const n = ++stats.publications;
    const at = now();
    if (bombs.has(n)) sendBomb(at);
    let ops = makePatch(doc, next, n, rnd);
    count(ops);
    const every = options.absentKeysEvery ?? 0;
    if (every > 0 && n % every === 0) {
      ops = mixIn(ops, absentKeyOps(doc, next, n));
      stats.absentKeyFrames++;
    }
    const added: string[] = [];
    for (const p of Array.isArray(next.plays) ? next.plays : []) {
      const id = idOf(p);
      if (id !== null && !publishedAt.has(id)) {
        publishedAt.set(id, at);
        added.push(id);
      }
    }
    for (const list of unshown.values()) list.push({ at, ids: added });
    text = nextText;
    doc = next;
    versions.push({ at, text });
    // Versions older than the lag are needed only as the one now served.
    while (versions.length > 1 && (versions[1]?.at ?? Infinity) <= at - ctx.cdnLagMs) versions.shift();
    mid++;
    const entry: Entry = { mid, op: 'P', pl: payload(ops, at) };
    history.push(entry);
    const announce = n % ctx.checkpointEvery === 0;
    if (announce) takeCheckpoint();
    if (lost.has(n)) {
      // Lost on the wire: the mid is gone, the patch with it.
      if (listening()) stats.lostFrames++;
      return;
    }
    if (listening()) stats.frames++;
    if (bad.has(n)) {
      // Sent in place of the real patch; alternately a failing test and a removal of nothing.
      const broken: Op[] =
        stats.badPatches % 2 === 0
          ? [{ op: 'test', path: '/header/id', value: 'not-this-game' }, ...ops]
          : [{ op: 'remove', path: '/plays/100000' }];
      if (listening()) stats.badPatches++;
      return emit({ op: 'P', tc: topic, mid, pl: payload(broken, at) });
    }
    emit({ op: 'P', tc: topic, mid, pl: entry.pl });
    if (announce && ctx.announceCheckpoints && listening()) {
      stats.announcedCheckpoints++;
      emit(checkpointFrame(checkpoints[checkpoints.length - 1] as Checkpoint));
    }
  };

  return {
    gameId: options.gameId,
    topic,
    stats,
    publishedAt,
    shownAt,
    batched: options.batched ?? false,
    subscribed(again) {
      stats.subscribes++;
      if (again) stats.resubscribes++;
      if (options.noCheckpoint) return [];
      const cp = checkpoints[checkpoints.length - 1] as Checkpoint;
      // Catch-up: every frame since the checkpoint under its own mid, keep-alives included.
      const frames = [
        checkpointFrame(cp),
        ...history
          .filter((e) => e.mid > cp.mid)
          .map((e) => ({ op: e.op === 'P' ? 'R' : 'I', tc: topic, mid: e.mid, pl: e.pl })),
      ];
      if (options.batched && frames.length > 1) stats.batchedFrames++;
      return frames;
    },
    checkpoint(m) {
      const cp = checkpoints.find((c) => c.mid === m);
      if (cp) stats.checkpointsServed++;
      return cp;
    },
    publish,
    flush,
    keepAlive() {
      mid++;
      history.push({ mid, op: 'I', pl: '0' });
      if (listening()) stats.iFrames++;
      emit({ op: 'I', tc: topic, mid, pl: '0' });
      flush();
    },
    siteSummary(site) {
      stats.summaryRequests[site] = (stats.summaryRequests[site] ?? 0) + 1;
      const cut = now() - ctx.cdnLagMs;
      const list = unshown.get(site) ?? [];
      const shown = shownAt.get(site);
      while (list.length > 0 && (list[0]?.at ?? Infinity) <= cut)
        for (const id of list.shift()?.ids ?? []) shown?.set(id, now());
      let served = versions[0] as { text: string };
      for (const v of versions) if (v.at <= cut) served = v;
      return served.text;
    },
  };
}
