import { catchError, defer, exhaustMap, map, merge, takeWhile, timer, type Observable } from 'rxjs';
import { BusUnavailableError } from '../src/core/errors.js';
import type { CopyOffer } from '../src/bus/types.js';
import { eventsEmitted, pollLag } from '../src/core/metrics.js';
import type { GameEvent, PlayRow } from '../src/model/events.js';
import { operationName } from '../src/espn/operations.js';
import { parsePlays } from '../src/tables/index.js';
import { copyOf, expire, isHolding, stop } from './custody.js';
import type { EngineContext } from './engine-context.js';
import { createFollowerBudget, type FollowerBudget } from './follower-budget.js';
import { createFollowerLease, type FollowerLease, type LeaseHooks } from './follower-lease.js';
import { diffSummary, type SummaryDiff } from './game-diff.js';
import type { GameDocuments } from './game-document.js';
import { follow, startFollowing } from './game-feed.js';
import type { GameTracker, PollOutcome } from './game-tracker.js';
import type { RawPlay } from './play-fingerprint.js';
import { isUrgent } from './poll-budget.js';
import { errorInfo } from './poller-status.js';

export interface GameFollowerHooks extends LeaseHooks {
  /** Publishes an event the bus accepted. */
  emit(event: GameEvent): void;
  /** A follower started or stopped, or a game changed state (for the tracked-games gauge). */
  changed(): void;
}

export interface GameFollowers {
  /** Starts the game's follower unless it runs (or the engine is closed). */
  start(t: GameTracker): void;
  /** Stops the game's follower, if it runs. */
  stop(t: GameTracker): void;
  /**
   * Offers the game's copy for writing back (or renews the offer; without a copy, only looks) and
   * learns whether the store has the game back.
   */
  offer(t: GameTracker): Promise<CopyOffer | 'stored' | null>;
}

type Diffed = Extract<SummaryDiff, { kind: 'diff' }>;

const toRows = (plays: readonly RawPlay[]): PlayRow[] => parsePlays({ plays });

/**
 * The game followers: one per live game, each taking the game's lease at every tick (follower-
 * lease.ts), asking the game's documents (game-document.ts) for its next one, pushed or polled,
 * diffing it into events and committing them with the game's state. Between polls they drive the
 * game's custody (custody.ts) with what the bus answers.
 */
export function createGameFollowers(
  ctx: EngineContext,
  documents: GameDocuments,
  hooks: GameFollowerHooks,
): GameFollowers {
  const { bus, intervals, logger, instanceId, timings, now } = ctx;
  const budget = createFollowerBudget(ctx, documents);
  const lease = createFollowerLease(ctx, documents, budget, hooks);
  const turn = createTurn(ctx, documents, budget, lease, hooks);

  /** A turn, then every pushed document that arrived meanwhile (a wake-up during a turn is dropped). */
  async function turnThenPushed(t: GameTracker, due: number): Promise<PollOutcome> {
    let outcome = await turn(t, due);
    while (outcome === 'continue' && documents.pending(t.key) && !ctx.isClosed())
      outcome = await turn(t, now());
    return outcome;
  }

  function start(t: GameTracker): void {
    if (t.sub !== null || ctx.isClosed()) return;
    t.postPolls = 0;
    t.status.state = 'polling';
    t.following = startFollowing(now());
    t.status.failures = 0;
    t.status.backoffMs = null;
    logger.info({ ...t.key }, 'summary poller started');
    const ticks = timer(0, intervals.summaryMs, ctx.scheduler);
    const attempt = (due: number): Observable<PollOutcome> =>
      defer(() => ctx.track(turnThenPushed(t, due))).pipe(
        catchError((error: unknown) => {
          const delay = ctx.book.failed(t.status, error, intervals.backoffBaseMs);
          // Whether or not Redis answers: a copy we no longer hold goes when it is stale.
          t.custody = expire(t.custody, now(), timings);
          const wait = timer(delay, ctx.scheduler);
          // A poll the bus failed is tried again as soon as its wait is over: left to the ticks,
          // it would wait for the next one (the wait swallows the tick it spans), which added up
          // to two summary intervals of silence after every Redis failover.
          return error instanceof BusUnavailableError
            ? wait.pipe(exhaustMap(() => attempt(now())))
            : wait.pipe(map((): PollOutcome => 'continue'));
        }),
      );
    const sub = merge(ticks, documents.wakes(t.key))
      .pipe(
        exhaustMap(() => attempt(now())),
        takeWhile((outcome) => outcome !== 'stop'),
      )
      .subscribe({ complete: () => finish(t) });
    // A synchronous completion (closed meanwhile) already ran finish. Push waits for the lease: a
    // turn granted it says so.
    if (!sub.closed) t.sub = sub;
    hooks.changed();
  }

  function finish(t: GameTracker): void {
    t.sub?.unsubscribe();
    const wasRunning = t.sub !== null;
    t.sub = null;
    t.status.state = 'stopped';
    budget.drop(t);
    if (wasRunning) documents.unfed(t.key);
    const finished = copyOf(t.custody)?.meta.ended === true;
    if (isHolding(t.custody) && !ctx.isClosed()) {
      const key = t.key;
      const expiry = finished ? bus.expireGame(key, ctx.finishedGameTtlMs) : Promise.resolve();
      ctx
        .track(expiry.then(() => bus.releaseLease(key, instanceId)))
        .catch((error: unknown) =>
          logger.warn({ ...key, code: errorInfo(error).code }, 'lease release failed'),
        );
    }
    // The state stays on the bus (snapshots). A final copy is kept a while in case Redis loses it;
    // any other copy is not needed any more.
    t.custody = stop(t.custody, now(), timings, !ctx.isClosed());
    logger.info({ ...t.key, finished }, 'summary poller stopped');
    hooks.changed();
  }

  return {
    start,
    stop(t) {
      if (t.sub === null) return;
      t.sub.unsubscribe();
      finish(t);
    },
    offer: lease.offer,
  };
}

/**
 * One turn of a game's follower: it takes the lease, asks the game's documents for the next one,
 * diffs it against the game's state and commits the events. `due`: when the turn was due (lag).
 */
function createTurn(
  ctx: EngineContext,
  documents: GameDocuments,
  budget: FollowerBudget,
  lease: FollowerLease,
  hooks: GameFollowerHooks,
): (t: GameTracker, due: number) => Promise<PollOutcome> {
  const { logger, now } = ctx;
  const commit = createCommit(ctx, lease.lost, hooks);

  async function turn(t: GameTracker, due: number): Promise<PollOutcome> {
    const diffState = await lease.take(t);
    if (typeof diffState === 'string') return diffState;
    const where = `${operationName(t.key.league, 'summary')}?event=${t.key.gameId}`;
    budget.declare(t);
    const next = await documents.next(t.key, { where, mayRequest: () => budget.mayRequest(t) });
    // Push is healthy: the lease is renewed, the summary waits for its reconciliation.
    if (next.kind === 'push-fed') return succeeded(t);
    // The budget stretches this game's interval: the lease is renewed, the summary waits for a
    // later tick (the next one loses nothing: plays are diffed from the whole summary). No request
    // was made, so a failing game's failures and backoff stand as they were.
    if (next.kind === 'deferred') return deferred(t);
    if (ctx.isClosed() || copyOf(t.custody) !== diffState) return ctx.isClosed() ? 'stop' : 'continue';
    const result = diffSummary(diffState, next.doc, {
      now: now(),
      toRows,
      where,
      ...(t.rowFresh ? { scoreboardRow: t.row } : {}),
    });
    if (result.kind === 'stale') {
      result.apply();
      logger.info({ ...t.key, streak: result.streak }, `stale summary ignored: ${result.reason}`);
      return succeeded(t);
    }
    const lost = await commit(t, result);
    if (lost !== null) return lost;
    succeeded(t);
    return afterDiff(t, result, due, next.pushed);
  }

  /** What a diffed document tells of the game: its urgency, its state, whether it is over. */
  function afterDiff(t: GameTracker, result: Diffed, due: number, pushed: boolean): PollOutcome {
    const { key, status } = t;
    t.urgent = isUrgent(key.league, result.header.period, result.header.clock);
    if (status.gameState !== result.header.state) {
      status.gameState = result.header.state;
      hooks.changed();
    }
    pollLag.observe({ league: key.league, poller: 'summary' }, Math.max(0, now() - due) / 1000);
    if (result.header.state !== 'post') {
      t.postPolls = 0;
      return 'continue';
    }
    // The end is confirmed by polling the summary, at the normal interval, push or not: ESPN
    // corrects final scores and plays in the moments after the end, and the second poll catches
    // what the first missed.
    documents.ended(key);
    return !pushed && ++t.postPolls >= 2 ? 'stop' : 'continue';
  }

  /** This instance holds the lease and polled (or was fed) the game. */
  function succeeded(t: GameTracker): PollOutcome {
    ctx.book.succeeded(t.status);
    return deferred(t);
  }

  /** The lease is renewed and the game followed, but its summary waits for a later tick. */
  function deferred(t: GameTracker): PollOutcome {
    t.status.state = 'polling';
    t.following = follow(t.following, false, now());
    return 'continue';
  }

  return turn;
}

/**
 * Commits a diff's events with the game's state, and publishes what the bus accepted. When the
 * lease was lost before the commit (the events are dropped): what the turn comes to; else null.
 */
function createCommit(
  ctx: EngineContext,
  lostLease: (t: GameTracker, why: string) => Promise<PollOutcome>,
  hooks: Pick<GameFollowerHooks, 'emit'>,
): (t: GameTracker, result: Diffed) => Promise<PollOutcome | null> {
  return async (t, result) => {
    if (!result.dirty) {
      result.apply();
      return null;
    }
    const committed = await ctx.bus.commit(t.key, result.events, result.delta, ctx.instanceId);
    if (committed === null) return lostLease(t, 'lease lost before commit; events dropped');
    result.apply();
    t.rowFresh = false;
    for (const event of committed) {
      eventsEmitted.inc({ type: event.type });
      if (!ctx.isClosed()) hooks.emit(event);
    }
    return null;
  };
}
