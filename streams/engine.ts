import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Subject, asyncScheduler } from 'rxjs';
import { createMemoryBus } from '../src/bus/memory.js';
import type { Bus } from '../src/bus/types.js';
import { InvalidOptionsError } from '../src/core/errors.js';
import { isLeague, type League } from '../src/core/leagues.js';
import { silentLogger } from '../src/core/log.js';
import type { GameEvent, GameSnapshot } from '../src/model/events.js';
import {
  resolveFinishedGameTtl,
  resolveIntervals,
  resolveLiveBudget,
  resolvePreviousDayUntil,
  resolvePush,
} from './engine-config.js';
import { createEngineContext } from './engine-context.js';
import type { Engine, EngineOptions, PollerStatus } from './engine-types.js';
import { createLiveGames } from './live-games.js';
import { startScoreboardPoller, type ScoreboardPoller } from './scoreboard-poller.js';
import { createSnapshotSource } from './snapshot-source.js';

export type { Engine, EngineIntervals, EngineOptions, PollerStatus } from './engine-types.js';
export { createSnapshotSource } from './snapshot-source.js';
export { DEFAULT_FINISHED_GAME_TTL_MS, DEFAULT_INTERVALS, MIN_SUMMARY_INTERVAL_MS } from './engine-config.js';

// close() waits this long (real time) for polls in flight, then gives up on them.
const CLOSE_WAIT_MS = 2_000;

/**
 * The live engine: a scoreboard poller per league decides which games are live; a follower per
 * live game (one instance per game, by lease) diffs each of the game's documents, pushed or
 * polled, into events, commits them with the game's state to the bus, and publishes what the bus
 * accepted on `events$`.
 *
 * This module wires the parts together and owns the lifecycle: scoreboard-poller.ts,
 * live-games.ts (the tracked games), game-follower.ts, game-document.ts (each game's document,
 * pushed or polled), custody.ts (who keeps which copy of a game's state), poller-status.ts,
 * engine-context.ts, engine-config.ts.
 */
export function createEngine(options: EngineOptions): Engine {
  if (!Array.isArray(options.leagues) || options.leagues.length === 0 || !options.leagues.every(isLeague)) {
    throw new InvalidOptionsError('leagues must be a non-empty list of mens, womens');
  }
  const intervals = resolveIntervals(options);
  const ownBus = options.bus === undefined;
  const bus: Bus = options.bus ?? createMemoryBus();
  const logger = (options.logger ?? silentLogger).child({ component: 'engine' });
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leagues = [...new Set(options.leagues)];
  const finishedGameTtlMs = resolveFinishedGameTtl(options);
  const seam = { untilMinutes: resolvePreviousDayUntil(options) };

  const subject = new Subject<GameEvent>();
  const boards = new Map<League, ScoreboardPoller>();
  let started = false;
  let stopWatchingLoss = (): void => undefined;
  let closing: Promise<void> | undefined;
  const ctx = createEngineContext({
    client: options.client,
    bus,
    scheduler: options.scheduler ?? asyncScheduler,
    logger,
    intervals,
    instanceId,
    finishedGameTtlMs,
    push: resolvePush(options),
    random: options.random ?? Math.random,
    liveBudget: resolveLiveBudget(options),
    ...(options.watched ? { watched: options.watched } : {}),
  });
  const games = createLiveGames(ctx, leagues, (event) => subject.next(event));

  return {
    events$: subject.asObservable(),
    snapshots: createSnapshotSource(bus),
    state(league: League, gameId: string): GameSnapshot | undefined {
      return games.snapshot(league, gameId);
    },
    status(): PollerStatus[] {
      const out: PollerStatus[] = [];
      for (const b of boards.values()) out.push({ ...b.status });
      out.push(...games.statuses());
      return out;
    },
    start(): void {
      if (started || ctx.isClosed()) return;
      started = true;
      stopWatchingLoss = bus.onDataLost(() => games.dataLost());
      logger.info({ leagues, instanceId, intervals }, 'engine started');
      for (const league of leagues) boards.set(league, startScoreboardPoller(ctx, league, games, seam));
    },
    close(): Promise<void> {
      closing ??= (async () => {
        ctx.markClosed();
        stopWatchingLoss();
        for (const b of boards.values()) b.stop();
        const held = games.stopAll();
        await games.closePush();
        // In-flight polls were aborted; a bus call may still hang, so wait a bounded time only.
        await ctx.drain(CLOSE_WAIT_MS);
        await Promise.allSettled(held.map((key) => bus.releaseLease(key, instanceId)));
        games.refreshGauge();
        subject.complete();
        if (ownBus) await bus.close();
        logger.info({ instanceId }, 'engine closed');
      })();
      return closing;
    },
  };
}
