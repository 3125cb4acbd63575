import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import {
  EMPTY,
  Subject,
  asyncScheduler,
  catchError,
  defer,
  exhaustMap,
  map,
  repeat,
  takeWhile,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { createMemoryBus } from '../src/bus/memory.js';
import type { Bus, CopyOffer, GameKey } from '../src/bus/types.js';
import { BusUnavailableError, CourtsideError, InvalidOptionsError } from '../src/core/errors.js';
import { backoffDelay } from '../src/espn/backoff.js';
import { isLeague, type League } from '../src/core/leagues.js';
import { silentLogger } from '../src/core/log.js';
import { eventsEmitted, pollErrors, pollLag, trackedGames } from '../src/core/metrics.js';
import { parsePlays, parseScoreboard } from '../src/tables/index.js';
import { scoreboardDelay, wantsSummary, type ScheduledGame } from './cadence.js';
import type { Engine, EngineIntervals, EngineOptions, PollerState, PollerStatus } from './engine-types.js';
import type { GameEvent, GameSnapshot, GameState, PlayRow } from '../src/model/events.js';
import { diffSummary } from './game-diff.js';
import { fullDelta, restoreGameState, storedSeq, type GameDiffState } from './game-state.js';
import type { RawPlay } from './play-fingerprint.js';
import { createSnapshotSource } from './snapshot-source.js';

export type { Engine, EngineIntervals, EngineOptions, PollerStatus } from './engine-types.js';
export { createSnapshotSource } from './snapshot-source.js';

export const DEFAULT_INTERVALS: Readonly<Omit<EngineIntervals, 'leaseTtlMs' | 'backoffBaseMs'>> = {
  summaryMs: 3_000,
  scoreboardLiveMs: 10_000,
  scoreboardGameDayMs: 60_000,
  scoreboardIdleMs: 300_000,
  // One minute: long enough to spare an upstream that is down, short enough to notice recovery.
  backoffMaxMs: 60_000,
};
// The design's floor for the summary interval: faster gains nothing and hammers the upstream.
export const MIN_SUMMARY_INTERVAL_MS = 1_000;
// A lease outlives two missed renewals, so one slow poll does not hand the game over.
const LEASE_TTL_FACTOR = 3;
// A game whose stored state vanished (Redis restarted empty): every instance with a copy offers it,
// and the newest copy is written back this many lease TTLs after its owner found the loss, so that
// every copy had time to be offered. One with no copy waits twice as long, and until no offer
// stands, before it starts the game over (re-emitting its history under the same ids).
const ORPHAN_GRACE_FACTOR = 5;
export const DEFAULT_FINISHED_GAME_TTL_MS = 24 * 3_600_000;
// close() waits this long (real time) for polls in flight, then gives up on them.
const CLOSE_WAIT_MS = 2_000;

type PollOutcome = 'continue' | 'stop';

interface Tracker {
  key: GameKey;
  /** From the scoreboard; null until a scoreboard listed the game. */
  scheduled: ScheduledGame | null;
  row: Record<string, unknown> | null;
  rowFresh: boolean;
  sub: Subscription | null;
  diff: GameDiffState | null;
  holding: boolean;
  /** Another instance held this game's lease at some point: its state should be on the bus. */
  heldElsewhere: boolean;
  /** When this instance first found the game's stored state missing; null while the store has it. */
  orphanSince: number | null;
  /** When this instance last stopped holding the lease (its copy of the state is kept a while). */
  heldUntil: number | null;
  /** Our copy is offered for writing back (the store lost the game): it is kept until then. */
  offered: boolean;
  postPolls: number;
  finished: boolean;
  status: PollerStatus;
}

const toRows = (plays: readonly RawPlay[]): PlayRow[] => parsePlays({ plays });

function errorInfo(error: unknown): { code: string; message: string } {
  if (error instanceof CourtsideError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'INTERNAL', message: error.message };
  return { code: 'INTERNAL', message: String(error) };
}

function resolveIntervals(options: EngineOptions): EngineIntervals {
  const given = options.intervals ?? {};
  const summaryMs = given.summaryMs ?? DEFAULT_INTERVALS.summaryMs;
  const out: EngineIntervals = {
    ...DEFAULT_INTERVALS,
    backoffBaseMs: summaryMs,
    leaseTtlMs: summaryMs * LEASE_TTL_FACTOR,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
    summaryMs,
  };
  for (const [name, value] of Object.entries(out)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new InvalidOptionsError(
        `intervals.${name} must be a positive number of ms, got ${String(value)}`,
      );
    }
  }
  if (out.summaryMs < MIN_SUMMARY_INTERVAL_MS && options.allowFastIntervals !== true) {
    throw new InvalidOptionsError(
      `intervals.summaryMs must be at least ${MIN_SUMMARY_INTERVAL_MS} ms, got ${out.summaryMs} (allowFastIntervals is for tests)`,
    );
  }
  return out;
}

/**
 * The live engine: a scoreboard poller per league decides which games are live; a summary poller
 * per live game (one instance per game, by lease) diffs each response into events, commits them
 * with the game's state to the bus, and publishes what the bus accepted on `events$`.
 */
export function createEngine(options: EngineOptions): Engine {
  if (!Array.isArray(options.leagues) || options.leagues.length === 0 || !options.leagues.every(isLeague)) {
    throw new InvalidOptionsError('leagues must be a non-empty list of mens, womens');
  }
  const intervals = resolveIntervals(options);
  const client = options.client;
  const ownBus = options.bus === undefined;
  const bus: Bus = options.bus ?? createMemoryBus();
  const scheduler: SchedulerLike = options.scheduler ?? asyncScheduler;
  const logger = (options.logger ?? silentLogger).child({ component: 'engine' });
  const random = options.random ?? Math.random;
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leagues = [...new Set(options.leagues)];
  const orphanGraceMs = ORPHAN_GRACE_FACTOR * intervals.leaseTtlMs;
  // An owner in its longest backoff still renews its offer before the offer lapses.
  const offerTtlMs = intervals.backoffMaxMs + orphanGraceMs;
  const finishedGameTtlMs = options.finishedGameTtlMs ?? DEFAULT_FINISHED_GAME_TTL_MS;
  if (!Number.isFinite(finishedGameTtlMs) || finishedGameTtlMs <= 0) {
    throw new InvalidOptionsError(
      `finishedGameTtlMs must be a positive number of ms, got ${String(finishedGameTtlMs)}`,
    );
  }

  const subject = new Subject<GameEvent>();
  const trackers = new Map<string, Tracker>();
  const boards = new Map<League, { status: PollerStatus; sub: Subscription | null }>();
  const inflight = new Set<Promise<unknown>>();
  const abort = new AbortController();
  // One signal is shared by every in-flight call (one per live game): not a listener leak.
  setMaxListeners(0, abort.signal);
  let started = false;
  let closed = false;
  // When this instance's bus last found that Redis lost its data (null: never).
  let dataLostAt: number | null = null;
  let stopWatchingLoss = (): void => undefined;
  let closing: Promise<void> | undefined;

  const now = () => scheduler.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const keyOf = (league: League, gameId: string) => `${league}:${gameId}`;

  const newStatus = (
    poller: PollerStatus['poller'],
    league: League,
    gameId: string | null,
    intervalMs: number,
  ): PollerStatus => ({
    poller,
    league,
    gameId,
    state: 'idle',
    gameState: null,
    intervalMs,
    lastSuccessAt: null,
    lastErrorAt: null,
    lastError: null,
    failures: 0,
    backoffMs: null,
  });

  const track = <T>(promise: Promise<T>): Promise<T> => {
    inflight.add(promise);
    void promise.then(
      () => inflight.delete(promise),
      () => inflight.delete(promise),
    );
    return promise;
  };

  const failed = (status: PollerStatus, error: unknown, baseMs: number): number => {
    const info = errorInfo(error);
    status.failures++;
    status.lastError = info;
    status.lastErrorAt = iso(now());
    // Redis answers or fails within a second, and a holder that waits longer than its lease loses
    // the game: bus errors are retried at the poll cadence; upstream errors back off.
    const delay =
      error instanceof BusUnavailableError
        ? baseMs
        : backoffDelay(status.failures - 1, { baseMs, maxMs: intervals.backoffMaxMs, random });
    status.state = 'backoff';
    status.backoffMs = delay;
    pollErrors.inc({ league: status.league, poller: status.poller, code: info.code });
    logger.warn(
      {
        league: status.league,
        gameId: status.gameId,
        poller: status.poller,
        code: info.code,
        failures: status.failures,
        backoffMs: delay,
      },
      `poll failed: ${info.message}`,
    );
    return delay;
  };

  const succeeded = (status: PollerStatus): void => {
    if (status.failures > 0) {
      logger.info(
        { league: status.league, gameId: status.gameId, poller: status.poller, after: status.failures },
        'poller recovered',
      );
    }
    status.failures = 0;
    status.backoffMs = null;
    status.lastSuccessAt = iso(now());
  };

  const refreshGauge = (): void => {
    const counts = new Map<string, number>();
    for (const league of leagues)
      for (const s of ['pre', 'in', 'post'] as GameState[]) counts.set(`${league}|${s}`, 0);
    for (const t of trackers.values()) {
      if (t.sub === null) continue;
      const s = t.diff?.meta.state ?? t.scheduled?.state ?? 'pre';
      const k = `${t.key.league}|${s}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const [k, n] of counts) {
      const [league = '', state = ''] = k.split('|');
      trackedGames.set({ league, state }, n);
    }
  };

  // ---- summary pollers -------------------------------------------------------------------

  /** Not polling this time; our copy of the state (if any) is kept while it may still be needed. */
  function standBy(t: Tracker): PollOutcome {
    if (t.holding) t.heldUntil = now();
    t.holding = false;
    dropStaleCopy(t);
    t.status.state = 'standby';
    return 'continue';
  }

  /**
   * A copy of a game we no longer hold is kept for the orphan grace after we last held it (it may
   * be the newest there is if Redis loses its data meanwhile), and while it is on offer; then it
   * goes. A finished game's final copy is kept twice as long, so it outlives every older copy.
   */
  function dropStaleCopy(t: Tracker): void {
    if (t.diff === null || t.holding || t.offered) return;
    const keepMs = t.finished ? 2 * orphanGraceMs : orphanGraceMs;
    if (t.heldUntil === null || now() - t.heldUntil > keepMs) t.diff = null;
  }

  /** The store holds the game's state (again): nothing of ours is on offer or waiting. */
  function settled(t: Tracker): void {
    t.offered = false;
    t.orphanSince = null;
  }

  /**
   * Offers our copy for writing back (or renews the offer; without a copy, only looks) and learns
   * whether the store has the game back.
   */
  async function offer(t: Tracker): Promise<CopyOffer | 'stored' | null> {
    const best = await bus.offerCopy(t.key, instanceId, t.diff?.meta.seq ?? null, offerTtlMs);
    if (best === 'stored') settled(t);
    else if (t.diff !== null) t.offered = true;
    return best;
  }

  /**
   * Redis lost its data (the bus found a new dataset, or a poll found one of our games missing: a
   * restart without persistence loses them all): every copy is offered now, also those of games in
   * backoff, which will not poll for a while.
   */
  function offerEveryCopy(): void {
    for (const t of trackers.values()) {
      if (t.diff === null || t.offered) continue;
      track(offer(t)).catch((error: unknown) =>
        logger.warn({ ...t.key, code: errorInfo(error).code }, 'offering the game state copy failed'),
      );
      // A game we finished a moment ago: our final copy is the newest there is, so we write it
      // back (the poller's lease check does, once every copy had time to be offered), or another
      // instance would write back an older copy and emit the end of the game again.
      if (t.finished && t.sub === null) {
        logger.warn({ ...t.key, seq: t.diff.meta.seq }, 'finished game lost with Redis; writing it back');
        t.finished = false;
        startSummary(t);
      }
    }
  }

  /** The lease is someone else's (an acquire said no, or a commit was fenced off). */
  async function lostLease(t: Tracker, why: string): Promise<PollOutcome> {
    t.heldElsewhere = true;
    if (t.holding) logger.warn({ ...t.key }, `${why}; standing by`);
    if (t.offered) await offer(t);
    return standBy(t);
  }

  /**
   * Our lease had lapsed (or we are taking the game back): make sure the bus holds our state or a
   * newer one. After a Redis restart without persistence it holds nothing: every instance with a
   * copy offers it, and the owner of the newest writes it back once all had time to offer.
   * 'wait': the lease was given back for now.
   */
  async function verifyStored(t: Tracker, diff: GameDiffState): Promise<'ok' | 'wait' | 'lost'> {
    const stored = await bus.loadGame(t.key);
    const seq = storedSeq(stored);
    // (A copy at seq 0 has nothing the store could have lost.)
    if ((seq ?? 0) >= diff.meta.seq) {
      // Another instance went on meanwhile: continue from its state.
      if (seq !== null && seq > diff.meta.seq) t.diff = restoreGameState(t.key.league, t.key.gameId, stored);
      settled(t);
      return 'ok';
    }
    if (seq === null) {
      const best = await offer(t);
      offerEveryCopy();
      t.orphanSince ??= now();
      const ours = best !== 'stored' && best?.owner === instanceId;
      if (!ours || now() - t.orphanSince < orphanGraceMs) {
        await bus.releaseLease(t.key, instanceId);
        return 'wait';
      }
    }
    // Missing, with ours the newest copy; or behind (an older copy was written back): ours wins.
    logger.warn(
      { ...t.key, storedSeq: seq, seq: diff.meta.seq },
      'game state missing or behind on the bus (Redis lost data?); writing it back from memory',
    );
    if ((await bus.commit(t.key, [], fullDelta(diff), instanceId)) === null) return 'lost';
    settled(t);
    return 'ok';
  }

  async function pollGame(t: Tracker, due: number): Promise<PollOutcome> {
    const { key, status } = t;
    const grant = await bus.acquireLease(key, instanceId, intervals.leaseTtlMs);
    if (closed) return 'stop';
    if (!grant) return lostLease(t, 'lease taken by another instance');
    if (t.diff !== null) {
      // A renewal of a lease we held all along needs no check; anything else does.
      const verdict = grant === 'taken' || !t.holding ? await verifyStored(t, t.diff) : 'ok';
      if (verdict === 'wait') return standBy(t);
      if (verdict === 'lost') return lostLease(t, 'lease lost while writing the game state back');
    } else {
      const stored = await bus.loadGame(key);
      // No stored state for a game another instance held, or for any game just after Redis lost its
      // data (this instance may have started a moment before): leave it to the instances that may
      // still have it in memory (twice as long as they wait for each other).
      const lostRecently =
        dataLostAt !== null && now() - dataLostAt < offerTtlMs && t.scheduled?.state !== 'pre';
      if (stored === undefined && (t.heldElsewhere || lostRecently)) {
        if (t.scheduled?.state === 'post') {
          // Its holder finished it (and dropped its copy) before Redis lost it: nothing to redo.
          await bus.releaseLease(key, instanceId);
          logger.warn({ ...key }, 'finished game lost with Redis; not started over');
          return 'stop';
        }
        // A standing offer: an instance with a copy will write it back.
        const best = await offer(t);
        t.orphanSince ??= now();
        if (best !== null || now() - t.orphanSince < 2 * orphanGraceMs) {
          await bus.releaseLease(key, instanceId);
          return standBy(t);
        }
        logger.warn({ ...key }, 'game state lost with Redis and not written back; starting the game over');
      }
      t.diff = restoreGameState(key.league, key.gameId, stored);
      logger.debug({ ...key, seq: t.diff.meta.seq }, 'lease held; game state loaded');
    }
    settled(t);
    t.holding = true;
    const diffState = t.diff;
    const raw = await client.call(
      `${key.league}_summary`,
      { event_id: key.gameId },
      { returnParsed: false, fresh: true, signal: abort.signal },
    );
    if (closed || t.diff !== diffState) return closed ? 'stop' : 'continue';
    const result = diffSummary(diffState, raw, {
      now: now(),
      toRows,
      where: `${key.league}_summary?event=${key.gameId}`,
      ...(t.rowFresh ? { scoreboardRow: t.row } : {}),
    });
    if (result.kind === 'stale') {
      logger.info({ ...key, streak: result.streak }, `stale summary ignored: ${result.reason}`);
      succeeded(status);
      status.state = 'polling';
      return 'continue';
    }
    if (result.dirty) {
      const committed = await bus.commit(key, result.events, result.delta, instanceId);
      if (committed === null) {
        return lostLease(t, 'lease lost before commit; events dropped');
      }
      result.apply();
      t.rowFresh = false;
      for (const event of committed) {
        eventsEmitted.inc({ type: event.type });
        if (!closed) subject.next(event);
      }
    } else {
      result.apply();
    }
    succeeded(status);
    status.state = 'polling';
    if (status.gameState !== result.header.state) {
      status.gameState = result.header.state;
      refreshGauge();
    }
    pollLag.observe({ league: key.league, poller: 'summary' }, Math.max(0, now() - due) / 1000);
    if (result.header.state === 'post') {
      t.postPolls++;
      // The design: one more poll after `post`, so final corrections are seen.
      if (t.postPolls >= 2) return 'stop';
    } else {
      t.postPolls = 0;
    }
    return 'continue';
  }

  function startSummary(t: Tracker): void {
    if (t.sub !== null || closed) return;
    t.postPolls = 0;
    t.status.state = 'polling';
    t.status.failures = 0;
    t.status.backoffMs = null;
    logger.info({ ...t.key }, 'summary poller started');
    const sub = timer(0, intervals.summaryMs, scheduler)
      .pipe(
        exhaustMap(() => {
          const due = now();
          return defer(() => track(pollGame(t, due))).pipe(
            catchError((error: unknown) => {
              const delay = failed(t.status, error, intervals.backoffBaseMs);
              // Whether or not Redis answers: a copy we no longer hold goes when it is stale.
              dropStaleCopy(t);
              return timer(delay, scheduler).pipe(map((): PollOutcome => 'continue'));
            }),
          );
        }),
        takeWhile((outcome) => outcome !== 'stop'),
      )
      .subscribe({ complete: () => finishSummary(t) });
    // A synchronous completion (closed meanwhile) already ran finishSummary.
    if (!sub.closed) t.sub = sub;
    refreshGauge();
  }

  function finishSummary(t: Tracker): void {
    t.sub?.unsubscribe();
    t.sub = null;
    t.status.state = 'stopped';
    t.finished = t.diff?.meta.ended === true;
    if (t.holding && !closed) {
      const key = t.key;
      const expire = t.finished ? bus.expireGame(key, finishedGameTtlMs) : Promise.resolve();
      track(expire.then(() => bus.releaseLease(key, instanceId))).catch((error: unknown) =>
        logger.warn({ ...key, code: errorInfo(error).code }, 'lease release failed'),
      );
    }
    if (t.holding) t.heldUntil = now();
    t.holding = false;
    // The state stays on the bus (snapshots). A final copy is kept a while in case Redis loses it
    // (dropStaleCopy); any other copy is not needed any more.
    if (t.finished && !closed) dropStaleCopy(t);
    else t.diff = null;
    logger.info({ ...t.key, finished: t.finished }, 'summary poller stopped');
    refreshGauge();
  }

  function stopSummary(t: Tracker): void {
    if (t.sub === null) return;
    t.sub.unsubscribe();
    finishSummary(t);
  }

  // ---- scoreboard pollers ----------------------------------------------------------------

  async function pollScoreboard(league: League): Promise<number> {
    const raw = await client.call(
      `${league}_scoreboard`,
      {},
      { returnParsed: false, fresh: true, signal: abort.signal },
    );
    if (closed) return intervals.scoreboardIdleMs;
    const rows = parseScoreboard(raw, league) as unknown as Array<Record<string, unknown>>;
    const at = now();
    const listed: ScheduledGame[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      const gameId = typeof row.game_id === 'string' ? row.game_id : null;
      const state = row.status_type_state;
      if (gameId === null || (state !== 'pre' && state !== 'in' && state !== 'post')) continue;
      const start = typeof row.date === 'string' ? Date.parse(row.date) : NaN;
      const scheduled: ScheduledGame = { state, start: Number.isFinite(start) ? start : null };
      listed.push(scheduled);
      const k = keyOf(league, gameId);
      seen.add(k);
      let t = trackers.get(k);
      if (t === undefined) {
        t = {
          key: { league, gameId },
          scheduled,
          row,
          rowFresh: true,
          sub: null,
          diff: null,
          holding: false,
          heldElsewhere: false,
          orphanSince: null,
          heldUntil: null,
          offered: false,
          postPolls: 0,
          finished: false,
          status: newStatus('summary', league, gameId, intervals.summaryMs),
        };
        trackers.set(k, t);
      } else {
        t.scheduled = scheduled;
        t.row = row;
        t.rowFresh = true;
      }
      t.status.gameState = t.diff?.meta.state ?? state;
      if (wantsSummary(scheduled, at)) {
        if (!t.finished) startSummary(t);
      } else if (t.sub !== null && state === 'pre') {
        // Rescheduled or postponed to later: the scoreboard will start it again in time.
        stopSummary(t);
      }
    }
    // Forget games that left the scoreboard and are not being polled; drop stale kept copies.
    for (const [k, t] of trackers) {
      if (t.key.league !== league || t.sub !== null) continue;
      if (seen.has(k)) dropStaleCopy(t);
      else trackers.delete(k);
    }
    refreshGauge();
    return scoreboardDelay(listed, at, intervals);
  }

  function startScoreboard(league: League): void {
    const board = {
      status: newStatus('scoreboard', league, null, intervals.scoreboardIdleMs),
      sub: null as Subscription | null,
    };
    boards.set(league, board);
    let nextDelay = intervals.scoreboardIdleMs;
    board.sub = defer(() => {
      const due = now();
      board.status.state = 'polling';
      return track(pollScoreboard(league)).then((delay) => ({ delay, due }));
    })
      .pipe(
        map(({ delay, due }) => {
          succeeded(board.status);
          nextDelay = delay;
          board.status.intervalMs = delay;
          pollLag.observe({ league, poller: 'scoreboard' }, Math.max(0, now() - due) / 1000);
          return delay;
        }),
        catchError((error: unknown) => {
          nextDelay = failed(
            board.status,
            error,
            Math.min(intervals.backoffBaseMs, intervals.scoreboardLiveMs),
          );
          return EMPTY;
        }),
        repeat({ delay: () => timer(nextDelay, scheduler) }),
      )
      .subscribe();
  }

  // ---- public ----------------------------------------------------------------------------

  const snapshots = createSnapshotSource(bus);

  return {
    events$: subject.asObservable(),
    snapshots,
    state(league: League, gameId: string): GameSnapshot | undefined {
      const t = trackers.get(keyOf(league, gameId));
      if (!t || !t.holding || !t.diff) return undefined;
      return t.diff.meta.snapshot ?? undefined;
    },
    status(): PollerStatus[] {
      const out: PollerStatus[] = [];
      for (const b of boards.values()) out.push({ ...b.status });
      for (const t of trackers.values())
        if (t.sub !== null || t.status.state !== 'idle') out.push({ ...t.status });
      return out;
    },
    start(): void {
      if (started || closed) return;
      started = true;
      stopWatchingLoss = bus.onDataLost(() => {
        dataLostAt = now();
        offerEveryCopy();
      });
      logger.info({ leagues, instanceId, intervals }, 'engine started');
      for (const league of leagues) startScoreboard(league);
    },
    close(): Promise<void> {
      closing ??= (async () => {
        closed = true;
        stopWatchingLoss();
        abort.abort();
        for (const b of boards.values()) {
          b.sub?.unsubscribe();
          b.status.state = 'stopped' as PollerState;
        }
        const held: GameKey[] = [];
        for (const t of trackers.values()) {
          if (t.holding) held.push(t.key);
          t.sub?.unsubscribe();
          t.sub = null;
          t.holding = false;
          t.status.state = 'stopped';
        }
        // In-flight polls were aborted; a bus call may still hang, so wait a bounded time only.
        await Promise.race([
          Promise.allSettled([...inflight]),
          new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref()),
        ]);
        await Promise.allSettled(held.map((key) => bus.releaseLease(key, instanceId)));
        refreshGauge();
        subject.complete();
        if (ownBus) await bus.close();
        logger.info({ instanceId }, 'engine closed');
      })();
      return closing;
    },
  };
}
