import type { PlayRow } from '../src/model/events.js';
import { diffColumns, rowFingerprint, type PlayColumn } from './play-fingerprint.js';

/**
 * The incremental play diff. ESPN re-sends the whole play list on every poll, so the list is
 * walked once; per play the work is a Map lookup and a cheap "same source?" check. Only plays
 * that are new or fail that check are converted to rows (in one batch) and column-diffed.
 *
 * Order: the upstream's list order is the truth (it is not sorted by sequence number). Each
 * added play names the play before it (`after`); a play whose place changed other than by
 * insertions and removals is reported as moved. Applying removals, then additions and moves in
 * event order, turns the previous list into the new one (proof sketch in docs/events.md).
 */

/** What the engine keeps per play id (the bus entry is this without `src` and `stamp`). */
export interface PlayRecord {
  /** Null: removed (a tombstone keeping the counters) or only a win probability is known. */
  row: PlayRow | null;
  fp: string | null;
  /** Id of the previous play in the upstream's list, null when first. */
  after: string | null;
  wp: number | null;
  tie: number | null;
  /** How many times each event was emitted for this play: makes re-emitted ids distinct. */
  adds: number;
  updates: number;
  removes: number;
  wpChanges: number;
  /** Memory only: the raw item last seen, for the cheap check. */
  src?: unknown;
  /** Memory only: the poll that last saw this id (duplicate and removal detection). */
  stamp?: number;
  /** Memory only: index in `PlayState.order` as of the last poll that saw it. */
  pos?: number;
}

export interface PlayState {
  records: Map<string, PlayRecord>;
  /** Ids of the live plays in the upstream's order as of the last applied poll. */
  order: string[];
  /**
   * Memory only: the records of `order`, same index (empty after a restore). Lets a play found at
   * the same position as last poll skip the Map lookup, which is most plays of most polls.
   */
  recs: PlayRecord[];
  /** Memory only: increases per diff. */
  stamp: number;
}

export interface PlayDiffSource<T> {
  idOf(item: T): string | null;
  /** Cheap check that two source items give the same row; may say false when unsure. */
  same(previous: T, next: T): boolean;
  /** Rows for a batch of items, same order. */
  toRows(items: readonly T[]): PlayRow[];
}

export type PlayChange =
  | { kind: 'added'; id: string; row: PlayRow; after: string | null; index: number; record: PlayRecord }
  | {
      kind: 'updated';
      id: string;
      row: PlayRow;
      changed: PlayColumn[];
      previous: Partial<PlayRow>;
      moved: boolean;
      after: string | null;
      record: PlayRecord;
    }
  | { kind: 'removed'; id: string; row: PlayRow | null; record: PlayRecord };

export interface PlayDiff {
  /** Removals first (old order), then additions and updates in the new list's order. */
  changes: PlayChange[];
  /** New versions of records to store (changed content, position, or counters). */
  records: Map<string, PlayRecord>;
  order: string[];
  /** The records of `order`, same index. */
  recs: PlayRecord[];
  /** Plays skipped: no id, or an id already seen earlier in the same list. */
  skipped: number;
}

export function emptyPlayState(): PlayState {
  return { records: new Map(), order: [], recs: [], stamp: 0 };
}

export function diffPlays<T>(state: PlayState, items: readonly T[], source: PlayDiffSource<T>): PlayDiff {
  const stamp = ++state.stamp;
  const seen = collectIds(state, items, source, stamp);
  const changes: PlayChange[] = [];
  const next = new Map<string, PlayRecord>();
  const removed = seen.liveSeen < state.order.length ? removePlays(state, stamp, changes, next) : undefined;
  const { pending, recs } = placePlays(state, seen, source, removed, next);
  if (pending.length > 0) convertPending(pending, seen.ids, source, changes, next, recs);
  return { changes, records: next, order: seen.ids, recs, skipped: seen.skipped };
}

/** Pass 1's findings: the list's ids in order, without duplicates or id-less items. */
interface SeenPlays<T> {
  ids: string[];
  /** The items of `ids`, same index. */
  kept: T[];
  /** The record known for each of `ids`, same index (a tombstone's too). */
  found: Array<PlayRecord | undefined>;
  /** How many live plays of the previous poll are still listed. */
  liveSeen: number;
  skipped: number;
}

/** A play to convert to a row: new, or its source changed, or it moved. */
interface PendingPlay<T> {
  index: number;
  id: string;
  item: T;
  record: PlayRecord | undefined;
  moved: boolean;
}

/** Pass 1: ids, duplicates, which live plays are still there (stamped with this poll). */
function collectIds<T>(
  state: PlayState,
  items: readonly T[],
  source: PlayDiffSource<T>,
  stamp: number,
): SeenPlays<T> {
  const { records, order: old, recs: oldRecs } = state;
  const seen: SeenPlays<T> = { ids: [], kept: [], found: [], liveSeen: 0, skipped: 0 };
  const { ids } = seen;
  let newIds: Set<string> | undefined;
  for (const item of items) {
    const id = source.idOf(item);
    if (id === null) {
      seen.skipped++;
      continue;
    }
    const j = ids.length;
    const record = (old[j] === id ? oldRecs[j] : undefined) ?? records.get(id);
    if (record !== undefined && record.row !== null) {
      if (record.stamp === stamp) {
        seen.skipped++;
        continue;
      }
      record.stamp = stamp;
      seen.liveSeen++;
    } else {
      newIds ??= new Set();
      if (newIds.has(id)) {
        seen.skipped++;
        continue;
      }
      newIds.add(id);
    }
    ids.push(id);
    seen.kept.push(item);
    seen.found.push(record);
  }
  return seen;
}

/** The live plays this poll did not stamp: tombstones, in the old order. Returns their ids. */
function removePlays(
  state: PlayState,
  stamp: number,
  changes: PlayChange[],
  next: Map<string, PlayRecord>,
): Set<string> {
  const removed = new Set<string>();
  for (const id of state.order) {
    const record = state.records.get(id);
    if (record === undefined || record.stamp === stamp) continue;
    removed.add(id);
    const tomb: PlayRecord = { ...record, row: null, fp: null, after: null, removes: record.removes + 1 };
    delete tomb.src;
    delete tomb.stamp;
    delete tomb.pos;
    next.set(id, tomb);
    changes.push({ kind: 'removed', id, row: record.row, record: tomb });
  }
  return removed;
}

/**
 * Pass 2: position and content. `k` walks the old order; see the module comment. A live play in
 * place with the same source keeps its record (relinked when its predecessor changed); the others
 * are pending.
 */
function placePlays<T>(
  state: PlayState,
  seen: SeenPlays<T>,
  source: PlayDiffSource<T>,
  removed: Set<string> | undefined,
  next: Map<string, PlayRecord>,
): { pending: PendingPlay<T>[]; recs: PlayRecord[] } {
  const old = state.order;
  const { ids, kept, found } = seen;
  const pending: PendingPlay<T>[] = [];
  let moved: Set<string> | undefined;
  let k = 0;
  const recs = new Array<PlayRecord>(ids.length);
  for (let j = 0; j < ids.length; j++) {
    const id = ids[j] as string;
    const item = kept[j] as T;
    const after = j === 0 ? null : (ids[j - 1] as string);
    const record = found[j];
    if (record === undefined || record.row === null) {
      pending.push({ index: j, id, item, record, moved: false });
      continue;
    }
    while (k < old.length && (removed?.has(old[k] as string) || moved?.has(old[k] as string))) k++;
    let isMoved = false;
    if (old[k] === id) k++;
    else {
      (moved ??= new Set()).add(id);
      isMoved = true;
    }
    const sameSource = record.src !== undefined && source.same(record.src as T, item);
    record.pos = j;
    recs[j] = record;
    if (!sameSource || isMoved) pending.push({ index: j, id, item, record, moved: isMoved });
    else if (record.after !== after) {
      const relinked = { ...record, after };
      next.set(id, relinked);
      recs[j] = relinked;
    }
  }
  return { pending, recs };
}

/** The pending plays converted to rows in one batch: each added, updated, or refreshed silently. */
function convertPending<T>(
  pending: readonly PendingPlay<T>[],
  ids: readonly string[],
  source: PlayDiffSource<T>,
  changes: PlayChange[],
  next: Map<string, PlayRecord>,
  recs: PlayRecord[],
): void {
  const rows = source.toRows(pending.map((p) => p.item));
  pending.forEach((p, i) => {
    const row = rows[i] as PlayRow;
    const after = p.index === 0 ? null : (ids[p.index - 1] as string);
    const base = p.record;
    const change =
      base === undefined || base.row === null ? added(p, row, after) : updated(p, base, base.row, row, after);
    next.set(p.id, change.record);
    recs[p.index] = change.record;
    if (change.kind !== 'refreshed') changes.push(change);
  });
}

/** A play new to the list, or back after a removal (its counters kept). */
function added<T>(p: PendingPlay<T>, row: PlayRow, after: string | null): PlayChange {
  const base = p.record;
  const record: PlayRecord = {
    row,
    fp: rowFingerprint(row),
    after,
    wp: base?.wp ?? null,
    tie: base?.tie ?? null,
    adds: (base?.adds ?? 0) + 1,
    updates: base?.updates ?? 0,
    removes: base?.removes ?? 0,
    wpChanges: base?.wpChanges ?? 0,
    src: p.item,
    pos: p.index,
  };
  return { kind: 'added', id: p.id, row, after, index: p.index, record };
}

/** A live play whose row or place changed; `refreshed` when neither did in any column shown. */
function updated<T>(
  p: PendingPlay<T>,
  base: PlayRecord,
  previousRow: PlayRow,
  row: PlayRow,
  after: string | null,
): PlayChange | { kind: 'refreshed'; record: PlayRecord } {
  const diff = diffColumns(previousRow, row);
  if (diff.changed.length === 0 && !p.moved) {
    // Source differed in a field no column shows, or the check was unsure: refresh silently.
    return { kind: 'refreshed', record: { ...base, after, src: p.item, pos: p.index } };
  }
  const record: PlayRecord = {
    ...base,
    row,
    fp: diff.changed.length === 0 ? base.fp : rowFingerprint(row),
    after,
    updates: base.updates + 1,
    src: p.item,
    pos: p.index,
  };
  return {
    kind: 'updated',
    id: p.id,
    row,
    changed: diff.changed,
    previous: diff.previous,
    moved: p.moved,
    after,
    record,
  };
}

/** Makes a diff the current state (after its events were committed). */
export function applyPlayDiff(state: PlayState, diff: Pick<PlayDiff, 'records' | 'order' | 'recs'>): void {
  for (const [id, record] of diff.records) state.records.set(id, record);
  state.order = diff.order;
  state.recs = diff.recs;
}

/** Stores changed records outside a play diff (win probability) and keeps `recs` aligned. */
export function setRecords(state: PlayState, changed: Map<string, PlayRecord>): void {
  for (const [id, record] of changed) {
    state.records.set(id, record);
    const pos = record.pos;
    if (record.row !== null && pos !== undefined && state.order[pos] === id) state.recs[pos] = record;
  }
}
