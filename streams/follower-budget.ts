import { firstValueFrom, timer } from 'rxjs';
import { pollIntervalEffective } from '../src/core/metrics.js';
import type { EngineContext } from './engine-context.js';
import type { GameDocuments } from './game-document.js';
import { gameKeyOf, type GameTracker } from './game-tracker.js';

/** A follower's share of the live budget of summary requests (poll-budget.ts). */
export interface FollowerBudget {
  /**
   * Tells the budget what the game wants now (a change only marks the shares for recomputing), so
   * a game that went over to push frees its share at once, not at its next request.
   */
  declare(t: GameTracker): void;
  /**
   * Whether the budget lets this game's summary be requested now. A game fed by healthy push
   * wants only its reconciliation polls, and is counted for those.
   */
  mayRequest(t: GameTracker): Promise<boolean>;
  /** The game polls no more here: its share goes to the others. */
  drop(t: GameTracker): void;
}

export function createFollowerBudget(ctx: EngineContext, documents: GameDocuments): FollowerBudget {
  const budgetId = (t: GameTracker): string => gameKeyOf(t.key.league, t.key.gameId);

  /** Declares the game's demand; says whether push health spaces its polls, and its effective interval. */
  function declare(t: GameTracker): { scheduled: boolean; effective: number } {
    const id = budgetId(t);
    const { everyMs, scheduled } = documents.demand(t.key);
    const first = t.urgent || ctx.watched(t.key.league, t.key.gameId);
    ctx.budget.want(id, everyMs, first);
    const effective = ctx.budget.effectiveMs(id);
    t.status.effectiveIntervalMs = effective;
    return { scheduled, effective };
  }

  return {
    declare: (t) => void declare(t),
    async mayRequest(t) {
      const { scheduled, effective } = declare(t);
      // A pushed game's polls are spaced by push health (pollDue): a reconciliation, or the final
      // corrections asked for at the end, are due when it says so, and spacing them again by the
      // reconciliation interval would put off the final score by up to that long.
      const grant = ctx.budget.tryRequest(budgetId(t), scheduled);
      if (grant === null) return false;
      pollIntervalEffective.observe({ league: t.key.league }, effective / 1000);
      // Paced behind the requests of other games that came due at the same moment.
      if (grant.waitMs > 0) await firstValueFrom(timer(grant.waitMs, ctx.scheduler));
      return !ctx.isClosed();
    },
    drop: (t) => ctx.budget.drop(budgetId(t)),
  };
}
