import type { GameKey } from '../src/bus/types.js';
import type { League } from '../src/core/leagues.js';
import { trackedGames } from '../src/core/metrics.js';
import type { GameEvent, GameSnapshot, GameState } from '../src/model/events.js';
import type { ScoreboardRow } from '../src/tables/index.js';
import type { ScheduledGame } from './cadence.js';
import {
  INITIAL_CUSTODY,
  copyOf,
  expire,
  hasCopyToOffer,
  isFinished,
  isHolding,
  letGo,
  reclaim,
} from './custody.js';
import type { EngineContext } from './engine-context.js';
import type { PollerStatus } from './engine-types.js';
import { errorInfo, newStatus } from './poller-status.js';
import { reportedStatus, startFollowing } from './game-feed.js';
import { createGameDocuments } from './game-document.js';
import { createGameFollowers } from './game-follower.js';
import { gameKeyOf, type GameTracker } from './game-tracker.js';

/** What the scoreboard poller tells about one game it listed. */
export interface ListedGame {
  league: League;
  gameId: string;
  scheduled: ScheduledGame;
  row: ScoreboardRow;
  /** Its summary should be polled now (in progress, or about to start). */
  wanted: boolean;
}

export interface LiveGames {
  /** The scoreboard listed the game: its listing is kept, its follower started or stopped. */
  listed(game: ListedGame): void;
  /**
   * After a scoreboard poll of `league`: games it no longer lists and nobody polls are forgotten;
   * copies kept of the others go once stale.
   */
  sweep(league: League, seen: ReadonlySet<string>): void;
  /** The bus found that Redis lost its data. */
  dataLost(): void;
  /** The snapshot of a game this instance holds the lease of. */
  snapshot(league: League, gameId: string): GameSnapshot | undefined;
  /** Status of every game follower that ran. */
  statuses(): PollerStatus[];
  /** Stops every follower; returns the games whose lease this instance held. */
  stopAll(): GameKey[];
  /** Updates the tracked-games gauge. */
  refreshGauge(): void;
  /** Closes the push client, if push is on. */
  closePush(): Promise<void>;
}

export { gameKeyOf } from './game-tracker.js';

/**
 * The games this instance tracks, one follower each, fed by the scoreboard followers. Also where a
 * loss of Redis's data reaches every game at once.
 */
export function createLiveGames(
  ctx: EngineContext,
  leagues: readonly League[],
  emit: (event: GameEvent) => void,
): LiveGames {
  const { logger, timings, now } = ctx;
  const trackers = new Map<string, GameTracker>();
  // When this instance's bus last found that Redis lost its data (null: never).
  let dataLostAt: number | null = null;

  const documents = createGameDocuments(
    ctx,
    (key) => (trackers.get(gameKeyOf(key.league, key.gameId))?.sub ?? null) !== null,
  );
  const refreshGauge = (): void => countTracked(leagues, trackers.values());
  const followers = createGameFollowers(ctx, documents, {
    storeLostData: offerEveryCopy,
    dataLostAt: () => dataLostAt,
    emit,
    changed: refreshGauge,
  });

  /**
   * Redis lost its data (the bus found a new dataset, or a poll found one of our games missing: a
   * restart without persistence loses them all): every copy is offered now, also those of games
   * in backoff, which will not poll for a while.
   */
  function offerEveryCopy(): void {
    for (const t of trackers.values()) {
      if (!hasCopyToOffer(t.custody)) continue;
      ctx
        .track(followers.offer(t))
        .catch((error: unknown) =>
          logger.warn({ ...t.key, code: errorInfo(error).code }, 'offering the game state copy failed'),
        );
      if (t.custody.state.name === 'final' && t.sub === null) {
        logger.warn(
          { ...t.key, seq: t.custody.state.copy.meta.seq },
          'finished game lost with Redis; writing it back',
        );
        // The follower's lease check writes the final copy back once every copy had time to be
        // offered; the two polls that follow see a finished game and stop.
        t.custody = reclaim(t.custody);
        followers.start(t);
      }
    }
  }

  return {
    listed({ league, gameId, scheduled, row, wanted }) {
      const k = gameKeyOf(league, gameId);
      let t = trackers.get(k);
      if (t === undefined) {
        t = newTracker(ctx, { league, gameId }, scheduled, row);
        trackers.set(k, t);
      } else {
        t.scheduled = scheduled;
        t.row = row;
        t.rowFresh = true;
      }
      t.status.gameState = copyOf(t.custody)?.meta.state ?? scheduled.state;
      if (wanted) {
        if (!isFinished(t.custody)) followers.start(t);
      } else if (t.sub !== null && scheduled.state === 'pre') {
        // Rescheduled or postponed to later: the scoreboard will start it again in time.
        followers.stop(t);
      }
    },
    sweep(league, seen) {
      for (const [k, t] of trackers) {
        if (t.key.league !== league || t.sub !== null) continue;
        if (seen.has(k)) t.custody = expire(t.custody, now(), timings);
        else {
          trackers.delete(k);
          documents.release(t.key);
        }
      }
      refreshGauge();
    },
    dataLost() {
      dataLostAt = now();
      offerEveryCopy();
    },
    snapshot(league, gameId) {
      const t = trackers.get(gameKeyOf(league, gameId));
      if (!t || !isHolding(t.custody)) return undefined;
      return copyOf(t.custody)?.meta.snapshot ?? undefined;
    },
    statuses() {
      const out: PollerStatus[] = [];
      for (const t of trackers.values())
        if (t.sub !== null || t.status.state !== 'idle')
          out.push(reportedStatus(t.status, documents.feedStatus(t.key), t.following));
      return out;
    },
    stopAll() {
      const held: GameKey[] = [];
      for (const t of trackers.values()) {
        if (isHolding(t.custody)) held.push(t.key);
        t.sub?.unsubscribe();
        t.sub = null;
        t.custody = letGo(t.custody);
        t.status.state = 'stopped';
      }
      return held;
    },
    refreshGauge,
    closePush: () => documents.close(),
  };
}

/** The tracked-games gauge: the games whose follower runs, by league and state, zero where none. */
function countTracked(leagues: readonly League[], trackers: Iterable<GameTracker>): void {
  const counts = new Map<string, number>();
  for (const league of leagues)
    for (const s of ['pre', 'in', 'post'] as GameState[]) counts.set(`${league}|${s}`, 0);
  for (const t of trackers) {
    if (t.sub === null) continue;
    const s = copyOf(t.custody)?.meta.state ?? t.scheduled?.state ?? 'pre';
    const k = `${t.key.league}|${s}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  for (const [k, n] of counts) {
    const [league = '', state = ''] = k.split('|');
    trackedGames.set({ league, state }, n);
  }
}

/** A game the scoreboard listed for the first time: not followed yet. */
function newTracker(
  ctx: EngineContext,
  key: GameKey,
  scheduled: ScheduledGame,
  row: ScoreboardRow,
): GameTracker {
  return {
    key,
    scheduled,
    row,
    rowFresh: true,
    sub: null,
    custody: INITIAL_CUSTODY,
    postPolls: 0,
    urgent: false,
    status: newStatus('summary', key.league, key.gameId, ctx.intervals.summaryMs),
    following: startFollowing(ctx.now()),
  };
}
