import {
  catchError,
  defer,
  exhaustMap,
  firstValueFrom,
  map,
  merge,
  takeWhile,
  timer,
  type Observable,
  type Subscription,
} from 'rxjs';
import { BusUnavailableError } from '../src/core/errors.js';
import type { CopyOffer, GameKey } from '../src/bus/types.js';
import { eventsEmitted, pollIntervalEffective, pollLag } from '../src/core/metrics.js';
import type { GameEvent, PlayRow } from '../src/model/events.js';
import { operationName } from '../src/espn/operations.js';
import { parsePlays, type ScoreboardRow } from '../src/tables/index.js';
import type { ScheduledGame } from './cadence.js';
import {
  copyOf,
  expire,
  heldElsewhere,
  hold,
  isHolding,
  isOffered,
  leftToCopyHolders,
  mayWriteBack,
  missing,
  needsStoreCheck,
  offerAnswered,
  replaceCopy,
  settle,
  standBy as standByCustody,
  stop,
  waitsForCopy,
  type Custody,
} from './custody.js';
import type { EngineContext } from './engine-context.js';
import type { PollerStatus } from './engine-types.js';
import { diffSummary } from './game-diff.js';
import { fullDelta, restoreGameState, storedSeq, type GameDiffState } from './diff-state.js';
import type { RawPlay } from './play-fingerprint.js';
import { isUrgent } from './poll-budget.js';
import { errorInfo } from './poller-status.js';
import { checkResync, pollDue, reconcileOverdue, reconciled, wantReconcile } from './push-health.js';
import { setHealth, type PushState } from './push-state.js';
import { follow, startFollowing, type Following } from './game-feed.js';
import { reconcileSummary } from './summary-merge.js';

/** One game this instance knows from a scoreboard: its listing, its poller and its custody. */
export interface GameTracker {
  readonly key: GameKey;
  /** From the scoreboard; null until a scoreboard listed the game. */
  scheduled: ScheduledGame | null;
  row: ScoreboardRow | null;
  /** `row` came with a scoreboard poll after the last commit: the next diff takes it in. */
  rowFresh: boolean;
  sub: Subscription | null;
  custody: Custody;
  /** Polls in a row that saw the game over. */
  postPolls: number;
  /** In its closing minutes or overtime, as last diffed: first served by the live budget. */
  urgent: boolean;
  readonly status: PollerStatus;
  /** The game's push feed; null when push is off. */
  readonly push: PushState | null;
  /** Whether this instance stands by for the game or follows it itself, since when. */
  following: Following;
}

type PollOutcome = 'continue' | 'stop';

export interface SummaryPollerHooks {
  /** A poll found the store missing a game it should hold: every copy is offered now. */
  storeLostData(): void;
  /** When this instance's bus last found that Redis lost its data (null: never). */
  dataLostAt(): number | null;
  /** Publishes an event the bus accepted. */
  emit(event: GameEvent): void;
  /** A poller started or stopped, or a game changed state (for the tracked-games gauge). */
  changed(): void;
  /**
   * This instance feeds the game (its poller runs and it holds the lease: true) or does not
   * (standby, or the poller stopped: false). Its push topic is wanted only while it does: a
   * standby instance would receive every frame of a game it does not feed. Called again with the
   * same value as polls go on.
   */
  feeding?(t: GameTracker, feeding: boolean): void;
}

export interface SummaryPollers {
  /** Starts the game's poller unless it runs (or the engine is closed). */
  start(t: GameTracker): void;
  /** Stops the game's poller, if it runs. */
  stop(t: GameTracker): void;
  /**
   * Offers the game's copy for writing back (or renews the offer; without a copy, only looks) and
   * learns whether the store has the game back.
   */
  offer(t: GameTracker): Promise<CopyOffer | 'stored' | null>;
}

const toRows = (plays: readonly RawPlay[]): PlayRow[] => parsePlays({ plays });

/**
 * The summary pollers: one per live game, each polling the game's summary while this instance
 * holds its lease, diffing it into events and committing them with the game's state. Between
 * polls they drive the game's custody (custody.ts) with what the bus answers.
 */
export function createSummaryPollers(ctx: EngineContext, hooks: SummaryPollerHooks): SummaryPollers {
  const { bus, client, intervals, logger, instanceId, timings, now } = ctx;

  const budgetId = (t: GameTracker): string => `${t.key.league}:${t.key.gameId}`;

  /**
   * Whether the live budget lets this game's summary be requested now (poll-budget.ts). A game fed
   * by healthy push wants only its reconciliation polls, and is counted for those.
   */
  async function mayRequest(t: GameTracker): Promise<boolean> {
    const id = budgetId(t);
    const { pushed, effective } = declareDemand(t);
    // A pushed game's polls are spaced by push health (pollDue): a reconciliation, or the final
    // corrections asked for at the end, are due when it says so, and spacing them again by the
    // reconciliation interval would put off the final score by up to that long.
    const grant = ctx.budget.tryRequest(id, pushed);
    if (grant === null) return false;
    pollIntervalEffective.observe({ league: t.key.league }, effective / 1000);
    // Paced behind the requests of other games that came due at the same moment.
    if (grant.waitMs > 0) await firstValueFrom(timer(grant.waitMs, ctx.scheduler));
    return !ctx.isClosed();
  }

  /**
   * Tells the budget what the game wants now (a change only marks the shares for recomputing), so
   * a game that went over to push frees its share at once, not at its next request. Says whether
   * healthy push feeds it, and its effective interval.
   */
  function declareDemand(t: GameTracker): { pushed: boolean; effective: number } {
    const id = budgetId(t);
    const pushed = t.push !== null && t.push.health.name === 'push';
    const first = t.urgent || ctx.watched(t.key.league, t.key.gameId);
    ctx.budget.want(id, pushed ? (ctx.push?.reconcileMs ?? intervals.summaryMs) : intervals.summaryMs, first);
    const effective = ctx.budget.effectiveMs(id);
    t.status.effectiveIntervalMs = effective;
    return { pushed, effective };
  }

  /** Not polling this time; the copy of the state (if any) is kept while it may still be needed. */
  function standBy(t: GameTracker): PollOutcome {
    // Another instance polls it: its share of the budget goes to the games polled here.
    ctx.budget.drop(budgetId(t));
    t.custody = standByCustody(t.custody, now(), timings);
    t.status.state = 'standby';
    t.following = follow(t.following, true, now());
    // A pushed document is the lease holder's to diff: left pending here, it would have the
    // poller ask for the lease again and again with no pause.
    if (t.push) t.push.pending = false;
    hooks.feeding?.(t, false);
    return 'continue';
  }

  /** This instance holds the lease and polled (or was fed) the game. */
  function pollSucceeded(t: GameTracker): void {
    ctx.book.succeeded(t.status);
    pollDeferred(t);
  }

  /** The lease is renewed and the game followed, but its summary waits for a later tick. */
  function pollDeferred(t: GameTracker): void {
    t.status.state = 'polling';
    t.following = follow(t.following, false, now());
  }

  async function offer(t: GameTracker): Promise<CopyOffer | 'stored' | null> {
    const seq = copyOf(t.custody)?.meta.seq ?? null;
    const best = await bus.offerCopy(t.key, instanceId, seq, timings.offerTtlMs);
    t.custody = offerAnswered(t.custody, best);
    return best;
  }

  /** The lease is someone else's (an acquire said no, or a commit was fenced off). */
  async function lostLease(t: GameTracker, why: string): Promise<PollOutcome> {
    t.custody = heldElsewhere(t.custody);
    if (isHolding(t.custody)) logger.warn({ ...t.key }, `${why}; standing by`);
    if (isOffered(t.custody)) await offer(t);
    return standBy(t);
  }

  /**
   * The lease was taken anew (it had lapsed, or the game is taken back): make sure the bus holds
   * our state or a newer one. After a Redis restart without persistence it holds nothing: every
   * instance with a copy offers it, and the owner of the newest writes it back once all had time
   * to offer. 'wait': the lease was given back for now.
   */
  async function verifyStored(t: GameTracker, diff: GameDiffState): Promise<'ok' | 'wait' | 'lost'> {
    const stored = await bus.loadGame(t.key);
    const seq = storedSeq(stored);
    // (A copy at seq 0 has nothing the store could have lost.)
    if ((seq ?? 0) >= diff.meta.seq) {
      // Another instance went on meanwhile: continue from its state.
      if (seq !== null && seq > diff.meta.seq) {
        t.custody = replaceCopy(t.custody, restoreGameState(t.key.league, t.key.gameId, stored));
      }
      t.custody = settle(t.custody);
      return 'ok';
    }
    if (seq === null) {
      const best = await offer(t);
      hooks.storeLostData();
      t.custody = missing(t.custody, now());
      if (!mayWriteBack(t.custody, best, instanceId, now(), timings)) {
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
    t.custody = settle(t.custody);
    return 'ok';
  }

  async function pollGame(t: GameTracker, due: number): Promise<PollOutcome> {
    const { key, status } = t;
    const grant = await bus.acquireLease(key, instanceId, intervals.leaseTtlMs);
    if (ctx.isClosed()) return 'stop';
    if (!grant) return lostLease(t, 'lease taken by another instance');
    // The lease is this instance's: so is the push topic, from now on.
    hooks.feeding?.(t, true);
    const copy = copyOf(t.custody);
    if (copy !== null) {
      const verdict = needsStoreCheck(t.custody, grant) ? await verifyStored(t, copy) : 'ok';
      if (verdict === 'wait') return standBy(t);
      if (verdict === 'lost') return lostLease(t, 'lease lost while writing the game state back');
    } else {
      const stored = await bus.loadGame(key);
      const lost = { dataLostAt: hooks.dataLostAt(), scheduled: t.scheduled?.state, now: now() };
      if (stored === undefined && leftToCopyHolders(t.custody, lost, timings)) {
        if (t.scheduled?.state === 'post') {
          // Its holder finished it (and dropped its copy) before Redis lost it: nothing to redo.
          await bus.releaseLease(key, instanceId);
          logger.warn({ ...key }, 'finished game lost with Redis; not started over');
          return 'stop';
        }
        // A standing offer: an instance with a copy will write it back.
        const best = await offer(t);
        t.custody = missing(t.custody, now());
        if (waitsForCopy(t.custody, best, now(), timings)) {
          await bus.releaseLease(key, instanceId);
          return standBy(t);
        }
        logger.warn({ ...key }, 'game state lost with Redis and not written back; starting the game over');
      }
      const loaded = restoreGameState(key.league, key.gameId, stored);
      t.custody = hold(t.custody, loaded);
      logger.debug({ ...key, seq: loaded.meta.seq }, 'lease held; game state loaded');
    }
    const diffState = copyOf(t.custody);
    // Only a poll that outlived its poller (stopped meanwhile by the scoreboard) finds it gone.
    if (diffState === null) return 'continue';
    t.custody = hold(t.custody, diffState);
    const where = `${operationName(key.league, 'summary')}?event=${key.gameId}`;
    const push = t.push;
    declareDemand(t);
    let raw: unknown;
    let pushed = false;
    const overdue =
      push !== null &&
      reconcileOverdue(push.health, now(), push.lastPollAt, ctx.push?.reconcileMs ?? 0, intervals.summaryMs);
    // A pushed document waiting is diffed without a request when the budget has no room for the
    // reconciliation: it is tried again at a later tick.
    if (push?.pending && (!overdue || !(await mayRequest(t)))) {
      // A document push delivered: the same diff as a polled summary, without a request.
      push.pending = false;
      raw = push.doc;
      pushed = true;
    } else {
      if (push) {
        setHealth(push, checkResync(push.health, now(), intervals.summaryMs), key, logger);
        if (!pollDue(push.health, now(), push.lastPollAt, ctx.push?.reconcileMs ?? 0)) {
          // Push is healthy: the lease is renewed, the summary waits for its reconciliation.
          pollSucceeded(t);
          return 'continue';
        }
      }
      if (!(overdue && push?.pending) && !(await mayRequest(t))) {
        // The budget stretches this game's interval: the lease is renewed, the summary waits for a
        // later tick (the next one loses nothing: plays are diffed from the whole summary). No
        // request was made, so a failing game's failures and backoff stand as they were.
        pollDeferred(t);
        return 'continue';
      }
      const polled = await client.call(
        operationName(key.league, 'summary'),
        { event_id: key.gameId },
        { returnParsed: false, fresh: true, signal: ctx.signal },
      );
      raw = polled;
      if (push) {
        push.lastPollAt = now();
        setHealth(push, reconciled(push.health), key, logger);
        if (push.doc !== undefined) {
          // The site API's CDN can lag push: an older summary never takes back what push delivered.
          const merged = reconcileSummary(push.doc, polled, where);
          // The pending pushed document, if any, is the one just merged.
          push.pending = false;
          raw = merged.doc;
          if (merged.pollWins && push.health.name !== 'push') push.doc = undefined;
        }
      }
    }
    if (ctx.isClosed() || copyOf(t.custody) !== diffState) return ctx.isClosed() ? 'stop' : 'continue';
    const result = diffSummary(diffState, raw, {
      now: now(),
      toRows,
      where,
      ...(t.rowFresh ? { scoreboardRow: t.row } : {}),
    });
    if (result.kind === 'stale') {
      result.apply();
      logger.info({ ...key, streak: result.streak }, `stale summary ignored: ${result.reason}`);
      pollSucceeded(t);
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
        if (!ctx.isClosed()) hooks.emit(event);
      }
    } else {
      result.apply();
    }
    pollSucceeded(t);
    t.urgent = isUrgent(key.league, result.header.period, result.header.clock);
    if (status.gameState !== result.header.state) {
      status.gameState = result.header.state;
      hooks.changed();
    }
    pollLag.observe({ league: key.league, poller: 'summary' }, Math.max(0, now() - due) / 1000);
    if (result.header.state === 'post') {
      // The end is confirmed by polling the summary, at the normal interval, push or not: ESPN
      // corrects final scores and plays in the moments after the end, and the second poll
      // catches what the first missed.
      if (push) setHealth(push, wantReconcile(push.health), key, logger);
      if (!pushed && ++t.postPolls >= 2) return 'stop';
    } else {
      t.postPolls = 0;
    }
    return 'continue';
  }

  /** A poll, then every push document that arrived meanwhile (a wake-up during a poll is dropped). */
  async function pollThenPushed(t: GameTracker, due: number): Promise<PollOutcome> {
    let outcome = await pollGame(t, due);
    while (outcome === 'continue' && t.push?.pending === true && !ctx.isClosed())
      outcome = await pollGame(t, now());
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
      defer(() => ctx.track(pollThenPushed(t, due))).pipe(
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
    const sub = (t.push ? merge(ticks, t.push.wake) : ticks)
      .pipe(
        exhaustMap(() => attempt(now())),
        takeWhile((outcome) => outcome !== 'stop'),
      )
      .subscribe({ complete: () => finish(t) });
    // A synchronous completion (closed meanwhile) already ran finish. The push topic waits for
    // the lease: a poll granted it says so.
    if (!sub.closed) t.sub = sub;
    hooks.changed();
  }

  function finish(t: GameTracker): void {
    t.sub?.unsubscribe();
    const wasRunning = t.sub !== null;
    t.sub = null;
    t.status.state = 'stopped';
    ctx.budget.drop(budgetId(t));
    if (wasRunning) hooks.feeding?.(t, false);
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
    offer,
  };
}
