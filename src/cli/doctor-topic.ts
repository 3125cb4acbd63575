import { checkCheckpoint } from '../espn/fastcast-checkpoint.js';
import type { FastcastFrame } from '../espn/fastcast-wire.js';
import type { SkippedOperation } from '../espn/fastcast-patch.js';
import { createTopic, type ResyncReason, type Topic } from '../espn/fastcast-topic.js';

/**
 * One game's topic as `courtside doctor` watches it, through courtside's own topic code
 * (fastcast-topic.ts: `mid` order, checkpoint, batches, the lenient apply): what it skipped and
 * why it asked for a fresh checkpoint is what courtside would make of the same frames.
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
  /** Operations that failed on parts courtside does not read, skipped. */
  readonly skipped: readonly SkippedOperation[];
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
  const skipped: SkippedOperation[] = [];
  const lags: number[] = [];
  let checkpoint: CheckpointSeen | undefined;
  let checkpointError: string | undefined;
  let documents = 0;
  let patchesApplied = 0;
  let settled: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (settled = resolve));
  const topic = createTopic(options.name, {
    document(update) {
      documents++;
      patchesApplied += update.patches;
      settled();
    },
    resync(reason, detail) {
      resyncs.push({ reason, detail });
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
      return check.document;
    },
    skipped: (ops) => skipped.push(...ops),
    soon: (fn) => setImmediate(fn),
    now: options.now,
  });

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
    skipped,
    lags,
    frame(f, at) {
      const ts = f.op === 'P' ? publishedAt(f.pl) : null;
      if (ts !== null) lags.push(Math.max(0, at - ts));
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
