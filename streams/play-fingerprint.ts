import { isObject } from '../src/core/is-object.js';
import type { PlayRow } from '../src/model/events.js';

/** The `plays` table's columns, in its order: what a `play.updated` compares. */
export const PLAY_COLUMNS = [
  'id',
  'sequence_number',
  'text',
  'away_score',
  'home_score',
  'scoring_play',
  'score_value',
  'participants',
  'wallclock',
  'shooting_play',
  'points_attempted',
  'short_description',
  'type_id',
  'type_text',
  'period_number',
  'period_display_value',
  'clock_display_value',
  'team_id',
  'coordinate_x',
  'coordinate_y',
] as const satisfies ReadonlyArray<keyof PlayRow>;

export type PlayColumn = (typeof PLAY_COLUMNS)[number];

// Unit separator: cannot appear in a JSON-encoded cell, so two different rows never join alike.
const SEP = '\u001f';

/** A row's content as one string: equal strings mean equal rows. */
export function rowContent(row: PlayRow): string {
  let out = '';
  for (const column of PLAY_COLUMNS) {
    const value = row[column];
    out +=
      (value === null || value === undefined ? '\u0000' : typeof value === 'string' ? value : String(value)) +
      SEP;
  }
  return out;
}

/** FNV-1a, 32 bit, as 8 hex digits: a short version tag for ids, not a security hash. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The stored fingerprint of a row (goes into ids of `play.updated` and into the bus entry). */
export function rowFingerprint(row: PlayRow): string {
  return shortHash(rowContent(row));
}

/** Columns whose values differ, and the previous values of those columns. */
export function diffColumns(
  previous: PlayRow,
  next: PlayRow,
): { changed: PlayColumn[]; previous: Partial<PlayRow> } {
  const changed: PlayColumn[] = [];
  const before: Partial<PlayRow> = {};
  for (const column of PLAY_COLUMNS) {
    if (!Object.is(previous[column], next[column])) {
      changed.push(column);
      (before as Record<string, unknown>)[column] = previous[column];
    }
  }
  return { changed, previous: before };
}

/**
 * A raw play's id as text (ESPN sends a string, some payloads a number), or null when it has none:
 * the one reading of it, so that the diff and the push merge key plays alike.
 */
export function rawPlayId(play: unknown): string | null {
  if (!isObject(play)) return null;
  const id = play.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/** The subset of ESPN's raw play that the `plays` columns are read from. */
export interface RawPlay {
  id?: unknown;
  sequenceNumber?: unknown;
  text?: unknown;
  awayScore?: unknown;
  homeScore?: unknown;
  scoringPlay?: unknown;
  scoreValue?: unknown;
  participants?: unknown;
  wallclock?: unknown;
  shootingPlay?: unknown;
  pointsAttempted?: unknown;
  shortDescription?: unknown;
  type?: { id?: unknown; text?: unknown } | null;
  period?: { number?: unknown; displayValue?: unknown } | null;
  clock?: { displayValue?: unknown } | null;
  team?: { id?: unknown } | null;
  coordinate?: { x?: unknown; y?: unknown } | null;
}

/**
 * The cheap check run on every play of every poll: true when every raw field a `plays` column is
 * read from is identical (primitives by `===`). ESPN re-sends the whole list each poll, so this is
 * the per-play cost that must stay small; only plays it rejects are converted to rows and
 * column-diffed. A false "different" costs a conversion and yields no event; it can never hide a
 * change, because every source field of every column is compared.
 */
export function sameRawPlay(a: RawPlay, b: RawPlay): boolean {
  if (a === b) return true;
  return (
    a.id === b.id &&
    a.sequenceNumber === b.sequenceNumber &&
    a.text === b.text &&
    a.awayScore === b.awayScore &&
    a.homeScore === b.homeScore &&
    a.scoringPlay === b.scoringPlay &&
    a.scoreValue === b.scoreValue &&
    a.wallclock === b.wallclock &&
    a.shootingPlay === b.shootingPlay &&
    a.pointsAttempted === b.pointsAttempted &&
    a.shortDescription === b.shortDescription &&
    a.type?.id === b.type?.id &&
    a.type?.text === b.type?.text &&
    a.period?.number === b.period?.number &&
    a.period?.displayValue === b.period?.displayValue &&
    a.clock?.displayValue === b.clock?.displayValue &&
    a.team?.id === b.team?.id &&
    a.coordinate?.x === b.coordinate?.x &&
    a.coordinate?.y === b.coordinate?.y &&
    sameDeep(a.participants, b.participants)
  );
}

/** Structural equality for the small nested values (participants: 0-3 objects). */
function sameDeep(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameDeep(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // for…in, not Object.keys: no allocation per object (this runs for every play of every poll).
  let keys = 0;
  for (const k in a) {
    if (!sameDeep((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    keys++;
  }
  for (const _ in b) keys--;
  if (keys !== 0) return false;
  return true;
}
