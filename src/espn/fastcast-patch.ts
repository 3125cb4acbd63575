import fjp from 'fast-json-patch';
import type { PatchOperation } from './fastcast-frames.js';
import { partOf, readsPointer } from './summary-parts.js';

/**
 * A batch of FastCast patch operations applied to a topic's document, lenient where that is safe.
 *
 * ESPN's game-package patches `remove`/`replace` keys that the document no longer has, in steady
 * state, mostly in odds and pick data; failing the whole batch on them would download a fresh
 * checkpoint every few frames and leave the game to polling. So the operations are applied one by
 * one to one copy of the document, and:
 * - an operation that fails on a part courtside does not read (summary-parts.ts) is skipped and
 *   reported: whatever it would have changed is never read;
 * - one that fails on a part courtside reads (or on the whole document, or on a path that is not a
 *   pointer) fails the batch: the copy is dropped, the document stays as it was, and the caller
 *   resyncs. A read part is never left half-patched.
 *
 * Every operation is validated against the document before it changes anything (fast-json-patch
 * checks the path, the source of `move`/`copy` and array bounds first), so a skipped operation
 * changes nothing either.
 */

export interface SkippedOperation {
  /** The top-level part the operation's path lands in. */
  readonly part: string | null;
  readonly op: string;
  readonly path: string;
  /** fast-json-patch's reason, first line. */
  readonly message: string;
}

export type BatchResult =
  | { readonly ok: true; readonly doc: unknown; readonly skipped: readonly SkippedOperation[] }
  | { readonly ok: false; readonly error: string };

/** Whether a failure of `op` touches a part courtside reads: its target, and the source a `move` takes away. */
function touchesRead(op: PatchOperation): boolean {
  if (readsPointer(op.path)) return true;
  return op.op === 'move' && typeof op.from === 'string' && readsPointer(op.from);
}

const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'patch does not apply';

/** Applies `ops` to a copy of `doc`; `doc` itself is never changed. */
export function applyBatch(doc: unknown, ops: readonly PatchOperation[]): BatchResult {
  // One copy per batch, as the whole-batch apply had: a burst of frames costs it once.
  let next: unknown = structuredClone(doc);
  const skipped: SkippedOperation[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i] as PatchOperation;
    try {
      next = fjp.applyOperation(next, op as fjp.Operation, true, true, true, i).newDocument;
      // A whole-document `copy`/`move` from a path that is not there gives no document at all
      // (fast-json-patch does not refuse it); nor may a `remove` or a scalar take its place.
      if (op.path === '' && (typeof next !== 'object' || next === null || Array.isArray(next)))
        throw new Error('the operation leaves no document object');
    } catch (error) {
      if (touchesRead(op)) return { ok: false, error: `${op.op} ${op.path}: ${firstLine(error)}` };
      skipped.push({ part: partOf(op.path), op: op.op, path: op.path, message: firstLine(error) });
    }
  }
  return { ok: true, doc: next, skipped };
}
