import type { Observable, SchedulerLike } from 'rxjs';
import type { Bus, GameKey } from '../src/bus/types.js';
import type { EspnClient } from '../src/espn-client/client.js';
import type { League } from '../src/core/leagues.js';
import type { Logger } from '../src/core/log.js';
import type { GameEvent, GameSnapshot, GameState, SnapshotSource } from '../src/model/events.js';

export interface EngineIntervals {
  /** Summary poll of a live game; default 3000, at least 1000 unless `allowFastIntervals`. */
  summaryMs: number;
  /** Scoreboard while a game is in progress or starts within 10 minutes; default 10 s. */
  scoreboardLiveMs: number;
  /** Scoreboard on a game day otherwise; default 60 s. */
  scoreboardGameDayMs: number;
  /** Scoreboard when there is no game today; default 5 minutes. */
  scoreboardIdleMs: number;
  /** Scale of the first error backoff; default the poller's own interval. */
  backoffBaseMs: number;
  /** Cap of the error backoff; default 60 s. */
  backoffMaxMs: number;
  /** Lease on a game, renewed each poll; default 3 × summaryMs. */
  leaseTtlMs: number;
}

export interface EngineOptions {
  client: Pick<EspnClient, 'call'>;
  leagues: League[];
  /** Default: a new in-memory bus (closed by the engine's `close()`). */
  bus?: Bus;
  /** All timing (intervals, backoff, `at` timestamps); default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  intervals?: Partial<EngineIntervals>;
  /**
   * Summary intervals under 1 s (`MIN_SUMMARY_INTERVAL_MS`: faster gains nothing and hammers the
   * upstream) are refused unless this is true. Only tests and benchmarks set it, explicitly; user
   * configuration never reaches it.
   */
  allowFastIntervals?: boolean;
  /** Lease owner name; default `<host>:<pid>:<random>`. */
  instanceId?: string;
  /**
   * How long a finished game's state stays on the bus (snapshots, `/v1/games`); default 24 h.
   * After that it is deleted, so a season's games do not pile up in Redis.
   */
  finishedGameTtlMs?: number;
  /**
   * Until when after Eastern midnight the previous Eastern day's board is read besides the default
   * one, as an Eastern wall-clock time `HH:MM`; default `06:00`. After it, that board is read only
   * while it lists a game not yet final. `00:00`: only then. See board-days.ts.
   */
  previousDayUntil?: string;
  logger?: Logger;
  /**
   * Summary requests a second shared by every live game this instance follows (poll-budget.ts);
   * default 30. When the games' intervals add up to more, each game's interval stretches, the
   * closing minutes and overtimes last.
   */
  liveBudget?: number;
  /** Someone watches this game here (a stream subscribed to it by id): the live budget serves it first. */
  watched?: (league: League, gameId: string) => boolean;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /**
   * Live games over FastCast, ESPN's push service, with the summary poll as reconciliation and
   * safety net. Absent: every game is polled, as without push.
   */
  push?: EnginePush;
}

export interface EnginePush {
  /** Opens the push client that reports to `listener` (one connection for every game). */
  connect(listener: GamePushListener): GamePush;
  /** While push is healthy, the summary is polled this often for reconciliation; default 15 s. */
  reconcileMs?: number;
}

/** Push, as the engine uses it: by game. */
export interface GamePush {
  /** Wants the game's documents (idempotent). */
  subscribe(league: League, gameId: string): void;
  /** Forgets the game: nothing more is reported of it. */
  unsubscribe(league: League, gameId: string): void;
  close(): Promise<void>;
}

/** One document push delivered for a game. */
export interface PushedDocument {
  /** The whole summary-shaped document. */
  readonly doc: unknown;
  /** Delivered whole (after a subscription or a loss), not changes applied to the one before. */
  readonly fresh: boolean;
  /** Names where it came from in error messages. */
  readonly where: string;
}

/**
 * How a game's push was lost: `behind`, its document is behind and a fresh one is on its way;
 * `down`, push does not feed the game for now (left to polling until a document comes).
 */
export type PushLoss = 'behind' | 'down';

/** What push reports of the games subscribed. */
export interface GamePushListener {
  /** The game has a new document. Returns why it cannot be used, if it cannot: a fresh one is asked for. */
  document(key: GameKey, update: PushedDocument): string | void;
  /** The game's document is not kept current until the next `document` call; `detail` says why. */
  lost(key: GameKey, kind: PushLoss, detail: string): void;
}

/**
 * How this instance follows a game, in one word (game-feed.ts): `push` (FastCast feeds it here),
 * `polling` (its summary is polled here), `standby` (another instance holds the game's lease and
 * feeds it; this one only stands by).
 */
export type FeedSource = 'push' | 'polling' | 'standby';

/** How a game is fed, for status pages: the word, since when and why. */
export interface PushFeedStatus {
  source: FeedSource;
  /**
   * With push on, push-health.ts's state: polling, push, resyncing or fallen-back; `standby` while
   * another instance holds the game; with push off, `polling`.
   */
  state: string;
  /** Since when, ISO 8601. */
  since: string;
  reason: string;
}

/**
 * What a poller does now. A summary poller says `push` while FastCast feeds its game (the summary
 * is then polled only to reconcile) and `polling` while the summary feeds it, as its `feed` does.
 */
export type PollerState = 'idle' | 'polling' | 'push' | 'backoff' | 'standby' | 'stopped';

export interface PollerStatus {
  poller: 'scoreboard' | 'summary';
  league: League;
  /** Null for a scoreboard poller. */
  gameId: string | null;
  /** `standby`: another instance holds the game's lease. */
  state: PollerState;
  /** The game's state as last seen (summary pollers). */
  gameState: GameState | null;
  intervalMs: number;
  /**
   * Summary pollers: the interval the live budget allows this game now (ms); `intervalMs` while the
   * budget does not bind, more when it does (or push's reconciliation interval while push feeds it).
   */
  effectiveIntervalMs?: number;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: { code: string; message: string } | null;
  /** Consecutive failures (0 after a success). */
  failures: number;
  /** Current backoff delay while in `backoff`, else null. */
  backoffMs: number | null;
  /** Summary pollers: whether the game is fed by push, by polling, or by another instance, since when. */
  feed?: PushFeedStatus;
}

export interface Engine {
  /** Hot and shared: every event this instance committed, with its offset. */
  readonly events$: Observable<GameEvent>;
  /** Snapshot of a game this instance polls (holds the lease of), else undefined. */
  state(league: League, gameId: string): GameSnapshot | undefined;
  /** Snapshots of any game, read from the bus (whichever instance polls it). */
  readonly snapshots: SnapshotSource;
  status(): PollerStatus[];
  start(): void;
  /** Stops polling, releases leases; idempotent. */
  close(): Promise<void>;
}
