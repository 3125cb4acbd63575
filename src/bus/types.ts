import type { GameEvent } from '../model/events.js';
import type { League } from '../core/leagues.js';

/**
 * The bus: one event log shared by every instance, the per-game state the engine needs to carry
 * on after a fail-over, and the lease that makes exactly one instance poll a game.
 * Two implementations behind this interface: in memory (single process) and Redis.
 *
 * The log is one totally ordered stream for all leagues (not one per league), so that a client
 * resuming a multi-league subscription from one offset gets neither a gap nor a duplicate.
 */
export interface GameKey {
  league: League;
  gameId: string;
}

/** Offsets look like Redis stream ids, `<ms>-<n>`, in both implementations. */
export type Offset = string;

export interface LogBounds {
  /** Oldest retained event's offset, or null when the log is empty. */
  first: Offset | null;
  /** Newest event's offset, or null when the log is empty. */
  last: Offset | null;
  /** Newest offset that was trimmed away (a `since` older than this has a gap), or null. */
  trimmedThrough: Offset | null;
}

/** The engine's per-game state, stored opaquely: `meta` is one JSON value, `entries` a keyed map (plays). */
export interface StoredGame {
  meta: unknown;
  entries: Map<string, unknown>;
}

/** A change to a game's stored state: work proportional to what changed. */
export interface GameStateDelta {
  meta: unknown;
  set?: ReadonlyArray<readonly [string, unknown]>;
  delete?: readonly string[];
  /**
   * The stored entries are replaced by `set` instead of updated: the owner writes its whole state
   * back after the store lost it (a Redis restart without persistence).
   */
  replace?: boolean;
}

/**
 * What `acquireLease` got: `taken` when the lease was free (or expired) and is now the caller's,
 * `renewed` when the caller already held it, false when another owner holds it. An owner that
 * thought it held the lease and gets `taken` knows its lease lapsed in between.
 */
export type LeaseGrant = 'taken' | 'renewed' | false;

/** An instance's in-memory copy of a game's state, offered for writing back (see `Bus.offerCopy`). */
export interface CopyOffer {
  owner: string;
  /** The copy's `seq`: the newest copy is the one every instance's events continued from. */
  seq: number;
}

export type NewGameEvent = Omit<GameEvent, 'offset'>;

export interface Bus {
  readonly kind: 'memory' | 'redis';
  /**
   * The cap on events retained in the log: exactly this many in memory; on Redis, which trims in
   * chunks of up to 100 (like `MAXLEN ~`), up to 100 more. Events older than `retentionMs` go sooner.
   */
  readonly retention: number;
  /** Events younger than this (ms) are kept unless the `retention` cap cuts them (logged). */
  readonly retentionMs?: number;

  /**
   * Atomically appends `events` to the log and applies `delta` to the game's stored state —
   * but only while `owner` holds the game's lease (when `owner` is given). Returns the events
   * with offsets, or null when the lease was lost (nothing was written).
   *
   * A re-send of the game's previous commit (same newest event `seq` and `id`, same count) is
   * applied once: it returns the offsets assigned the first time and writes nothing. So after an
   * ambiguous failure (a BUS_UNAVAILABLE error, the reply lost) retrying the same commit is safe.
   */
  commit(
    game: GameKey,
    events: readonly NewGameEvent[],
    delta: GameStateDelta,
    owner?: string,
  ): Promise<GameEvent[] | null>;
  loadGame(game: GameKey): Promise<StoredGame | undefined>;
  /** Every game with stored state, with its meta (for listings and snapshots). */
  listGames(): Promise<Array<GameKey & { meta: unknown }>>;
  deleteGame(game: GameKey): Promise<void>;
  /**
   * The game's stored state is deleted `ttlMs` from now (finished games: otherwise a season's
   * games pile up in the store and in every `listGames`). A later commit cancels the expiry.
   */
  expireGame(game: GameKey, ttlMs: number): Promise<void>;

  /** Events strictly after `after` (null: from the oldest retained), oldest first, at most `limit`. */
  read(after: Offset | null, limit: number): Promise<GameEvent[]>;
  bounds(): Promise<LogBounds>;
  /**
   * Live tail: batches of events appended after `after` (null: only events appended from now on).
   * Ends when `signal` aborts or the bus closes. A reader that falls more than `retention` behind
   * goes on from the oldest retained event (compare its cursor with `bounds().trimmedThrough`).
   */
  tail(after: Offset | null, signal?: AbortSignal): AsyncIterable<GameEvent[]>;

  /** Takes or renews the lease on a game for `owner`; false while another owner holds it. */
  acquireLease(game: GameKey, owner: string, ttlMs: number): Promise<LeaseGrant>;
  /** Gives the lease up if `owner` holds it. */
  releaseLease(game: GameKey, owner: string): Promise<void>;

  /**
   * After the store lost a game's state (Redis restarted without persistence), every instance with
   * a copy in memory offers it, and only the newest is written back: an older one would re-emit
   * what the newer one's holder already emitted. Keeps the best offer (highest `seq`, the first on a
   * tie) for `ttlMs`, renewed by its owner's next offer; `seq` null only looks. Returns 'stored'
   * when the store holds the game's state (nothing to write back), else the best standing offer,
   * or null when there is none.
   */
  offerCopy(
    game: GameKey,
    owner: string,
    seq: number | null,
    ttlMs: number,
  ): Promise<CopyOffer | 'stored' | null>;
  /**
   * Calls `listener` when this instance finds that the store lost its data (Redis came back empty
   * from a restart without persistence). Returns a function removing the listener. The memory bus
   * never calls it: its data lives as long as it does.
   */
  onDataLost(listener: () => void): () => void;

  /** Idempotent. */
  close(): Promise<void>;
}

/** Compares two offsets `<ms>-<n>` numerically; negative when a < b. */
export function compareOffsets(a: Offset, b: Offset): number {
  const [am, an] = offsetParts(a);
  const [bm, bn] = offsetParts(b);
  return am !== bm ? am - bm : an - bn;
}

/** An offset's two numbers, `<ms>-<n>` → [ms, n] (0 where one is missing). */
export function offsetParts(offset: Offset): [ms: number, n: number] {
  const [ms = 0, n = 0] = offset.split('-').map(Number);
  return [ms, n];
}

export const OFFSET_PATTERN = /^[0-9]{1,15}-[0-9]{1,15}$/;
