import fjp from 'fast-json-patch';
import { checkCheckpoint } from '../espn/fastcast-checkpoint.js';
import { decodePatchPayload, type FastcastFrame, type PatchOperation } from '../espn/fastcast-frames.js';
import { createTopic, type ResyncReason, type Topic } from '../espn/fastcast-topic.js';

/**
 * One game's topic as `courtside doctor` watches it: courtside's own topic code (fastcast-topic.ts:
 * `mid` order, checkpoint, batches) says what courtside makes of the frames, and beside it each
 * patch is applied operation by operation to a copy of the document, so that an operation that
 * fails is named with its path rather than only failing its batch.
 */

export interface CheckpointSeen {
  readonly url: string;
  readonly bytes: number;
  /** The body was `{"pl": document}`. */
  readonly wrapped: boolean;
  /** The check's refusal, or undefined when the document was accepted. */
  readonly refused: string | undefined;
  readonly plays: number | undefined;
}

export interface TopicWatch {
  readonly topic: Topic;
  readonly checkpoint: CheckpointSeen | undefined;
  /** The download failed (network, status, a non-https URL over TLS). */
  readonly checkpointError: string | undefined;
  /** Documents handed out: the first is the checkpoint (with its catch-up). */
  readonly documents: number;
  /** Patch frames applied by the topic. */
  readonly patchesApplied: number;
  /** Why the topic asked for a fresh checkpoint, in order. */
  readonly resyncs: ReadonlyArray<{ reason: ResyncReason; detail: string }>;
  /** Operations that did not apply, by op and path. */
  readonly failedOps: readonly PatchOperation[];
  /** Patch frames that did not decode, with the reason. */
  readonly undecodable: readonly string[];
  /** Publication-to-receipt lag of each live patch (`P`) that carried a time, ms. */
  readonly lags: readonly number[];
  /** Hands a frame of this topic to the watch. */
  frame(frame: FastcastFrame, at: number): void;
  /** Resolves when the first document is out or the checkpoint failed, or at the deadline. */
  firstDocument(ms: number): Promise<void>;
}

export interface TopicWatchOptions {
  readonly name: string;
  readonly gameId: string;
  /** Downloads a checkpoint body (the client's `fetchDocument`, URL checked first). */
  readonly download: (url: string) => Promise<{ body: unknown; bytes: number }>;
  /** Asked after a resync: the doctor subscribes again, as the client would. */
  readonly resubscribe: () => void;
  readonly now: () => number;
}

export function watchTopic(options: TopicWatchOptions): TopicWatch {
  const resyncs: Array<{ reason: ResyncReason; detail: string }> = [];
  const failedOps: PatchOperation[] = [];
  const undecodable: string[] = [];
  const lags: number[] = [];
  let checkpoint: CheckpointSeen | undefined;
  let checkpointError: string | undefined;
  let documents = 0;
  let patchesApplied = 0;
  let settled: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (settled = resolve));
  // The copy each operation is applied to on its own; frames wait for the checkpoint it starts from.
  let shadow: unknown;
  let queued: FastcastFrame[] = [];

  const topic = createTopic(options.name, {
    document(update) {
      documents++;
      patchesApplied += update.patches;
      settled();
    },
    resync(reason, detail) {
      resyncs.push({ reason, detail });
      shadow = undefined;
      queued = [];
      if (reason === 'checkpoint_failed') settled();
      options.resubscribe();
    },
    async fetchCheckpoint(url) {
      let got: { body: unknown; bytes: number };
      try {
        got = await options.download(url);
      } catch (error) {
        checkpointError = (error as Error).message;
        throw error;
      }
      const check = checkCheckpoint(got.body, options.gameId);
      const wrapped = isWrapped(got.body);
      const plays = check.ok && Array.isArray(check.document.plays) ? check.document.plays.length : undefined;
      checkpoint = { url, bytes: got.bytes, wrapped, refused: check.ok ? undefined : check.detail, plays };
      if (!check.ok) throw new Error(check.detail);
      shadow = structuredClone(check.document);
      for (const f of queued.splice(0)) applyShadow(f);
      return check.document;
    },
    soon: (fn) => setImmediate(fn),
    now: options.now,
  });

  function applyShadow(f: FastcastFrame): void {
    let ops: readonly PatchOperation[];
    try {
      ops = decodePatchPayload(f.pl ?? '', `${options.name} mid ${f.mid ?? '?'}`).patch;
    } catch (error) {
      undecodable.push((error as Error).message);
      return;
    }
    for (const op of ops) {
      try {
        shadow = fjp.applyOperation(shadow, op as fjp.Operation, true, true).newDocument;
      } catch {
        failedOps.push(op);
      }
    }
  }

  return {
    topic,
    get checkpoint() {
      return checkpoint;
    },
    get checkpointError() {
      return checkpointError;
    },
    get documents() {
      return documents;
    },
    get patchesApplied() {
      return patchesApplied;
    },
    resyncs,
    failedOps,
    undecodable,
    lags,
    frame(f, at) {
      if (f.op === 'H') {
        shadow = undefined;
        queued = [];
      }
      if (f.op === 'P' || f.op === 'R') {
        const ts = publishedAt(f.pl);
        if (f.op === 'P' && ts !== null) lags.push(Math.max(0, at - ts));
        if (shadow === undefined) queued.push(f);
        else applyShadow(f);
      }
      topic.frame(f);
    },
    firstDocument: (ms) =>
      Promise.race([first, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]),
  };
}

function isWrapped(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'pl' in body && !('header' in body);
}

/** The `ts` of a patch payload, read without inflating it (a payload may be built to inflate huge). */
function publishedAt(pl: string | undefined): number | null {
  try {
    const ts = (JSON.parse(pl ?? '') as { ts?: unknown }).ts;
    return typeof ts === 'number' && Number.isFinite(ts) ? ts : null;
  } catch {
    return null;
  }
}
