import type { GameStateDelta } from '../src/bus/types.js';
import type { League } from '../src/core/leagues.js';
import type { GameSnapshot, GameState, Score, SnapshotTeam } from '../src/model/events.js';
import { emptyPlayState, type PlayRecord, type PlayState } from './play-diff.js';

/**
 * What the engine stores per game on the bus, so that another instance (or this one after a
 * restart) continues the same `seq` and diff: `meta` is one JSON value, the plays are entries
 * keyed by play id (only changed entries are written per poll).
 */
export interface GameMeta {
  /** Format version of this object. */
  v: 1;
  seq: number;
  state: GameState | null;
  statusName: string | null;
  statusDetail: string | null;
  statusDescription: string | null;
  period: number | null;
  clock: string | null;
  started: boolean;
  ended: boolean;
  periodsStarted: number;
  periodsEnded: number;
  /** Last score reported by `score.changed` (0-0 before the first). */
  score: Score;
  /** Times the score went down: part of `score.changed` ids so a repeated score gets a new id. */
  scoreEpoch: number;
  /** Number of `game.status` events so far: part of their ids. */
  statusChanges: number;
  teams: { home: SnapshotTeam; away: SnapshotTeam } | null;
  date: string | null;
  winProbability: GameSnapshot['winProbability'];
  /**
   * Number of `situation.changed` events so far: part of their ids. The situation itself is kept
   * in the snapshot only.
   */
  situationChanges: number;
  snapshot: GameSnapshot | null;
}

/** One play's bus entry: the play record without what only lives in memory. */
export type PlayEntry = Omit<PlayRecord, 'src'>;

export interface GameDiffState {
  league: League;
  gameId: string;
  meta: GameMeta;
  plays: PlayState;
  /** Memory only: consecutive responses judged stale (see docs/events.md). */
  staleStreak: number;
  /** Memory only: the last applied win-probability list (ids and values by position). */
  wpSeen: { ids: string[]; values: number[] } | null;
}

export function initialMeta(): GameMeta {
  return {
    v: 1,
    seq: 0,
    state: null,
    statusName: null,
    statusDetail: null,
    statusDescription: null,
    period: null,
    clock: null,
    started: false,
    ended: false,
    periodsStarted: 0,
    periodsEnded: 0,
    score: { home: 0, away: 0 },
    scoreEpoch: 0,
    statusChanges: 0,
    teams: null,
    date: null,
    winProbability: null,
    situationChanges: 0,
    snapshot: null,
  };
}

export function newGameState(league: League, gameId: string): GameDiffState {
  return { league, gameId, meta: initialMeta(), plays: emptyPlayState(), staleStreak: 0, wpSeen: null };
}

export function toEntry(record: PlayRecord): PlayEntry {
  return {
    row: record.row,
    fp: record.fp,
    after: record.after,
    wp: record.wp,
    tie: record.tie,
    adds: record.adds,
    updates: record.updates,
    removes: record.removes,
    wpChanges: record.wpChanges,
  };
}

/** The whole state as one delta that replaces what the bus holds (a re-seed after Redis lost it). */
export function fullDelta(state: GameDiffState): GameStateDelta {
  return {
    meta: state.meta,
    set: [...state.plays.records].map(([id, r]) => [id, toEntry(r)] as const),
    replace: true,
  };
}

/** The `seq` of a stored game, or null when the bus holds no usable state for it. */
export function storedSeq(stored: { meta: unknown } | undefined): number | null {
  return stored !== undefined && isMeta(stored.meta) ? stored.meta.seq : null;
}

function isMeta(value: unknown): value is GameMeta {
  return typeof value === 'object' && value !== null && (value as { v?: unknown }).v === 1;
}

/**
 * Rebuilds the diff state from what `bus.loadGame` returned. The play order is rebuilt from each
 * entry's `after` link. Restored plays have no raw source yet, so the first poll after a restart
 * converts every play once and compares fingerprints (no events for unchanged plays).
 */
export function restoreGameState(
  league: League,
  gameId: string,
  stored: { meta: unknown; entries: Map<string, unknown> } | undefined,
): GameDiffState {
  const state = newGameState(league, gameId);
  if (!stored || !isMeta(stored.meta)) return state;
  state.meta = { ...initialMeta(), ...stored.meta };
  const next = new Map<string | null, string>();
  for (const [id, value] of stored.entries) {
    const e = value as PlayEntry;
    state.plays.records.set(id, { ...e });
    if (e.row !== null) next.set(e.after, id);
  }
  const order: string[] = [];
  const seen = new Set<string>();
  let cursor = next.get(null);
  while (cursor !== undefined && !seen.has(cursor)) {
    seen.add(cursor);
    order.push(cursor);
    cursor = next.get(cursor);
  }
  // Live plays the chain did not reach (should not happen): keep them, at the end.
  for (const [id, r] of state.plays.records) if (r.row !== null && !seen.has(id)) order.push(id);
  state.plays.order = order;
  return state;
}
