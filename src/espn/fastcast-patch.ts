import fjp from 'fast-json-patch';
import type { PatchOperation } from './fastcast-wire.js';
import { partOf, readsPointer } from './summary-parts.js';

/**
 * A batch of FastCast patch operations applied to a topic's document, lenient where that is safe.
 *
 * ESPN's game-package patches `remove`/`replace` keys that the document no longer has, in steady
 * state, mostly in odds and pick data; failing the whole batch on them would download a fresh
 * checkpoint every few frames and leave the game to polling. So the operations are applied one by
 * one to one new version of the document, and:
 * - an operation that fails on a part courtside does not read (summary-parts.ts) is skipped and
 *   reported: whatever it would have changed is never read;
 * - one that fails on a part courtside reads (or on the whole document, or on a path that is not a
 *   pointer) fails the batch: the new version is dropped, the document stays as it was, and the
 *   caller resyncs. A read part is never left half-patched.
 *
 * Every operation is validated against the document before it changes anything (fast-json-patch
 * checks the path, the source of `move`/`copy` and array bounds first), so a skipped operation
 * changes nothing either.
 *
 * The new version shares structure with the old one: before an operation, every object or array
 * from the root down to the parent of its target (and of a `move`'s source) is copied, once per
 * batch, and fast-json-patch changes those copies in place. Everything off those paths is shared.
 * A whole-summary copy per batch (0.4-0.9 MB, a millisecond or more) would make a frame cost the
 * size of the game; this way it costs the size of its paths (a play added: the root and the plays
 * array, shallow). The old document is never changed, so a reader holding it keeps a consistent
 * view; neither version may be changed by its readers, since they share parts.
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

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** The reference tokens of a JSON Pointer (RFC 6901), unescaped; `""` has none. */
const tokensOf = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * The containers of one batch's new version that it owns (copied in this batch): changed in place.
 * Any other container may be shared with an older version and is copied before a change.
 */
class Owned {
  private readonly fresh = new Set<Container>();

  own<T extends Container>(node: T): T {
    if (this.fresh.has(node)) return node;
    const copy = (Array.isArray(node) ? node.slice() : { ...node }) as T;
    this.fresh.add(copy);
    return copy;
  }

  /**
   * Returns `root`, owned, with every container on `pointer`'s path above its last token owned too,
   * as far as the path exists (a path that does not resolve fails in fast-json-patch, on owned
   * copies that equal the originals). Only own keys are followed, never `__proto__` or the like.
   */
  ownPath(root: unknown, pointer: string): unknown {
    if (!isContainer(root) || !pointer.startsWith('/')) return root;
    const tokens = tokensOf(pointer);
    const top = this.own(root);
    let parent: Container = top;
    for (let t = 0; t < tokens.length - 1; t++) {
      const token = tokens[t] as string;
      if (!Object.hasOwn(parent, token)) break;
      const child: unknown = (parent as Record<string, unknown>)[token];
      if (!isContainer(child)) break;
      const owned = this.own(child);
      (parent as Record<string, unknown>)[token] = owned;
      parent = owned;
    }
    return top;
  }
}

/** Applies `ops` to a new version of `doc` that shares what they do not touch; `doc` itself is never changed. */
export function applyBatch(doc: unknown, ops: readonly PatchOperation[]): BatchResult {
  let next: unknown = doc;
  const owned = new Owned();
  const skipped: SkippedOperation[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i] as PatchOperation;
    try {
      if (op.op !== 'test') next = owned.ownPath(next, op.path);
      if (op.op === 'move' && typeof op.from === 'string') next = owned.ownPath(next, op.from);
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
