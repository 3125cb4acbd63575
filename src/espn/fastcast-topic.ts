import { fastcastApplyErrors, fastcastPushLag, fastcastSkippedOps } from '../core/metrics.js';
import { decodePatchPayload, type FastcastFrame, type PatchOperation } from './fastcast-wire.js';
import { applyBatch, type SkippedOperation } from './fastcast-patch.js';
import { unreadPartLabel } from './summary-parts.js';

/**
 * One subscribed topic's document on the client side: the checkpoint, then the patches in `mid`
 * order. A gap in `mid`, a payload that does not decode or a patch that does not apply to a part
 * courtside reads makes the topic ask for a fresh checkpoint; the document it had is never changed
 * in part. An operation failing on a part courtside does not read is skipped (fastcast-patch.ts).
 *
 * Patch frames that arrive together (one read of the socket, typically) are applied as one batch
 * to one new version of the document (sharing what the batch does not touch), and the listener
 * hears of the batch once: each batch wakes the engine, and a burst of frames must not wake it per
 * frame.
 */

export type ResyncReason = 'mid_gap' | 'bad_patch' | 'bad_payload' | 'checkpoint_failed' | 'bad_document';

export type TopicPhase = 'subscribing' | 'loading' | 'live' | 'absent';

export interface TopicDocument {
  readonly doc: unknown;
  /** Publication time (ms) of the newest patch in the document, null for a bare checkpoint. */
  readonly ts: number | null;
  /** Patches applied in this batch (0: a checkpoint, with its catch-up frames applied). */
  readonly patches: number;
}

export interface TopicHooks {
  /** Returns why the document cannot be used (its reader refuses it: the topic resyncs), or nothing. */
  document(update: TopicDocument): string | void;
  /** The document cannot be trusted until a fresh checkpoint: ask for one. */
  resync(reason: ResyncReason, detail: string): void;
  /** Downloads a checkpoint. */
  fetchCheckpoint(url: string): Promise<unknown>;
  /** Operations skipped in a batch that applied (they failed on parts courtside does not read). */
  skipped?(ops: readonly SkippedOperation[]): void;
  /** Runs `fn` once the frames already read have been handled (coalescing, never a timer). */
  soon(fn: () => void): void;
  now(): number;
}

export interface Topic {
  readonly name: string;
  readonly phase: TopicPhase;
  /** The last document handed out, or undefined before the first checkpoint. */
  readonly doc: unknown;
  /** A frame of this topic. */
  frame(frame: FastcastFrame): void;
  /** Subscribed again (a fresh `H` will follow) or the socket closed: pending frames are dropped. */
  reset(phase: TopicPhase): void;
}

export function createTopic(name: string, hooks: TopicHooks): Topic {
  let phase: TopicPhase = 'subscribing';
  let doc: unknown;
  const mids = createMidSequence();
  // Checkpoints asked for: an answer to an older one is dropped.
  let generation = 0;
  let pending: FastcastFrame[] = [];
  let flushScheduled = false;

  const resync = (reason: ResyncReason, detail: string): void => {
    if (reason !== 'mid_gap') fastcastApplyErrors.inc();
    phase = 'subscribing';
    pending = [];
    mids.restart();
    generation++;
    hooks.resync(reason, detail);
  };

  /**
   * Applies the pending frames to a copy of the document and hands it out: `fromCheckpoint` when
   * the document is a checkpoint just loaded (handed out with the catch-up frames applied, never
   * alone: a checkpoint can be older than the patches that follow it).
   */
  const flush = (fromCheckpoint = false): void => {
    flushScheduled = false;
    if (phase !== 'live') return;
    const frames = pending;
    pending = [];
    if (frames.length === 0 && !fromCheckpoint) return;
    const batch = decodeBatch(name, frames, hooks.now);
    if ('error' in batch) return resync('bad_payload', batch.error);
    const { ops, ts } = batch;
    if (ops.length > 0) {
      // A copy takes the whole batch: an operation failing on a part courtside reads leaves the
      // document as it was.
      const result = applyBatch(doc, ops);
      if (!result.ok) {
        resync('bad_patch', result.error);
        return;
      }
      if (result.skipped.length > 0) {
        for (const s of result.skipped) fastcastSkippedOps.inc({ part: unreadPartLabel(s.part) });
        hooks.skipped?.(result.skipped);
      }
      doc = result.doc;
    }
    const refused = hooks.document({ doc, ts, patches: fromCheckpoint ? 0 : frames.length });
    if (typeof refused === 'string') resync('bad_document', refused);
  };

  const schedule = (): void => {
    if (flushScheduled) return;
    flushScheduled = true;
    hooks.soon(() => flush());
  };

  const load = (url: string): void => {
    const mine = ++generation;
    phase = 'loading';
    hooks.fetchCheckpoint(url).then(
      (body) => {
        if (mine !== generation) return;
        doc = body;
        phase = 'live';
        flush(true);
      },
      (error: unknown) => {
        if (mine !== generation) return;
        resync('checkpoint_failed', (error as Error).message);
      },
    );
  };

  return {
    name,
    get phase() {
      return phase;
    },
    get doc() {
      return doc;
    },
    frame(f) {
      if (f.op === 'H') {
        if (typeof f.pl !== 'string' || !/^https?:\/\//.test(f.pl)) {
          resync('bad_payload', 'checkpoint frame without a URL');
          return;
        }
        // A checkpoint announced at a mid the topic already has holds nothing it lacks (a server
        // may announce each new checkpoint to everyone): the live document, or the checkpoint
        // still downloading with the frames held after it. Loading it would cost a second
        // download and hold back the patches that follow until it ends; on a loaded machine the
        // first download can still be under way when the next checkpoint is announced.
        const held = phase === 'live' || phase === 'loading';
        if (held && mids.has(f.mid)) return;
        pending = [];
        mids.checkpoint(f.mid);
        load(f.pl);
        return;
      }
      if (phase === 'subscribing' || phase === 'absent') return;
      // FastCast numbers a topic's frames; one missing means a patch may be missing.
      if (f.mid !== undefined) {
        if (!mids.follows(f.mid)) return resync('mid_gap', `mid ${f.mid} after ${mids.last}`);
        mids.take(f.mid);
      }
      if (f.op === 'R' || f.op === 'P') {
        pending.push(f);
        if (phase === 'live') schedule();
      }
    },
    reset(next) {
      phase = next;
      pending = [];
      mids.restart();
      generation++;
    },
  };
}

/** A batch of `R`/`P` frames decoded: their operations in order and the newest publication time. */
function decodeBatch(
  name: string,
  frames: readonly FastcastFrame[],
  now: () => number,
): { ops: PatchOperation[]; ts: number | null } | { error: string } {
  const ops: PatchOperation[] = [];
  let ts: number | null = null;
  for (const f of frames) {
    try {
      const p = decodePatchPayload(f.pl ?? '', `fastcast ${name} mid ${f.mid ?? '?'}`);
      ops.push(...p.patch);
      if (p.ts !== null) {
        ts = p.ts;
        fastcastPushLag.observe(Math.max(0, now() - p.ts) / 1000);
      }
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
  return { ops, ts };
}

/** The `mid`s of one topic's frames, as far as the document holds them. */
interface MidSequence {
  /** The last mid taken, null before any (or since `restart`). */
  readonly last: number | null;
  /** Whether the document holds frame `mid` already. */
  has(mid: number | undefined): boolean;
  /** A checkpoint announced at `mid` is loaded: the frames after it are its catch-up. */
  checkpoint(mid: number | undefined): void;
  follows(mid: number): boolean;
  take(mid: number): void;
  restart(): void;
}

function createMidSequence(): MidSequence {
  let lastMid: number | null = null;
  // The mid of the H frame the document was loaded from, and whether a frame followed it yet.
  let checkpointMid: number | null = null;
  let afterCheckpoint = false;
  return {
    get last() {
      return lastMid;
    },
    has: (mid) => mid !== undefined && lastMid !== null && mid <= lastMid,
    checkpoint(mid) {
      lastMid = mid ?? null;
      checkpointMid = lastMid;
      afterCheckpoint = false;
    },
    /**
     * Whether a frame numbered `mid` follows the last one without a gap. Servers number the catch-up
     * after an H frame in more than one way, and each is taken: after an H carrying the checkpoint's
     * mid the catch-up follows it; after an H carrying the topic's current mid, the catch-up frames
     * keep the (lower) mids they were first published under, so the first may start below the H's;
     * and an H taking a mid of its own comes right after the catch-up's last frame, so the next
     * frame follows the H's mid. Any other jump is a gap.
     */
    follows(mid) {
      if (lastMid === null || mid === lastMid + 1) return true;
      if (checkpointMid === null) return false;
      if (!afterCheckpoint && mid <= checkpointMid) return true;
      return lastMid === checkpointMid - 1 && mid === checkpointMid + 1;
    },
    take(mid) {
      lastMid = mid;
      afterCheckpoint = true;
    },
    restart() {
      lastMid = null;
    },
  };
}
