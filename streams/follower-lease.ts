import type { CopyOffer } from '../src/bus/types.js';
import {
  copyOf,
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
  waitsForCopy,
} from './custody.js';
import type { EngineContext } from './engine-context.js';
import type { FollowerBudget } from './follower-budget.js';
import type { GameDocuments } from './game-document.js';
import { follow } from './game-feed.js';
import { fullDelta, restoreGameState, storedSeq, type GameDiffState } from './diff-state.js';
import type { GameTracker, PollOutcome } from './game-tracker.js';

export interface LeaseHooks {
  /** A poll found the store missing a game it should hold: every copy is offered now. */
  storeLostData(): void;
  /** When this instance's bus last found that Redis lost its data (null: never). */
  dataLostAt(): number | null;
}

/** A follower's side of custody (custody.ts): the game's lease, and its state on the bus. */
export interface FollowerLease {
  /**
   * Takes (or renews) the game's lease and makes sure the bus and this instance agree on the
   * game's state: the state to diff against, or what the turn comes to without a diff.
   */
  take(t: GameTracker): Promise<GameDiffState | PollOutcome>;
  /** The lease is someone else's (an acquire said no, or a commit was fenced off). */
  lost(t: GameTracker, why: string): Promise<PollOutcome>;
  /**
   * Offers the game's copy for writing back (or renews the offer; without a copy, only looks) and
   * learns whether the store has the game back.
   */
  offer(t: GameTracker): Promise<CopyOffer | 'stored' | null>;
}

export function createFollowerLease(
  ctx: EngineContext,
  documents: GameDocuments,
  budget: FollowerBudget,
  hooks: LeaseHooks,
): FollowerLease {
  const { bus, intervals, logger, instanceId, timings, now } = ctx;
  const offer = (t: GameTracker): Promise<CopyOffer | 'stored' | null> => offerCopy(ctx, t);

  async function lost(t: GameTracker, why: string): Promise<PollOutcome> {
    t.custody = heldElsewhere(t.custody);
    if (isHolding(t.custody)) logger.warn({ ...t.key }, `${why}; standing by`);
    if (isOffered(t.custody)) await offer(t);
    return standBy(ctx, documents, budget, t);
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

  /**
   * Without a copy: the game's state is loaded from the bus. A game the bus lost is left to the
   * instances with a copy while one may write it back; null once the state is held.
   */
  async function loadStored(t: GameTracker): Promise<PollOutcome | null> {
    const { key } = t;
    const stored = await bus.loadGame(key);
    const lostAt = { dataLostAt: hooks.dataLostAt(), scheduled: t.scheduled?.state, now: now() };
    if (stored === undefined && leftToCopyHolders(t.custody, lostAt, timings)) {
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
        return standBy(ctx, documents, budget, t);
      }
      logger.warn({ ...key }, 'game state lost with Redis and not written back; starting the game over');
    }
    const loaded = restoreGameState(key.league, key.gameId, stored);
    t.custody = hold(t.custody, loaded);
    logger.debug({ ...key, seq: loaded.meta.seq }, 'lease held; game state loaded');
    return null;
  }

  async function take(t: GameTracker): Promise<GameDiffState | PollOutcome> {
    const grant = await bus.acquireLease(t.key, instanceId, intervals.leaseTtlMs);
    if (ctx.isClosed()) return 'stop';
    if (!grant) return lost(t, 'lease taken by another instance');
    // The lease is this instance's: so is the game's push, from now on.
    documents.fed(t.key);
    const copy = copyOf(t.custody);
    if (copy !== null) {
      const verdict = needsStoreCheck(t.custody, grant) ? await verifyStored(t, copy) : 'ok';
      if (verdict === 'wait') return standBy(ctx, documents, budget, t);
      if (verdict === 'lost') return lost(t, 'lease lost while writing the game state back');
    } else {
      const outcome = await loadStored(t);
      if (outcome !== null) return outcome;
    }
    const diffState = copyOf(t.custody);
    // Only a poll that outlived its follower (stopped meanwhile by the scoreboard) finds it gone.
    if (diffState === null) return 'continue';
    t.custody = hold(t.custody, diffState);
    return diffState;
  }

  return { take, lost, offer };
}

async function offerCopy(ctx: EngineContext, t: GameTracker): Promise<CopyOffer | 'stored' | null> {
  const seq = copyOf(t.custody)?.meta.seq ?? null;
  const best = await ctx.bus.offerCopy(t.key, ctx.instanceId, seq, ctx.timings.offerTtlMs);
  t.custody = offerAnswered(t.custody, best);
  return best;
}

/** Not polling this time; the copy of the state (if any) is kept while it may still be needed. */
function standBy(
  ctx: EngineContext,
  documents: GameDocuments,
  budget: FollowerBudget,
  t: GameTracker,
): PollOutcome {
  // Another instance polls it: its share of the budget goes to the games polled here.
  budget.drop(t);
  t.custody = standByCustody(t.custody, ctx.now(), ctx.timings);
  t.status.state = 'standby';
  t.following = follow(t.following, true, ctx.now());
  documents.standBy(t.key);
  return 'continue';
}
