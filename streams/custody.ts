import type { CopyOffer } from '../src/bus/types.js';
import type { GameState } from '../src/model/events.js';
import type { GameDiffState } from './diff-state.js';

/**
 * Custody of one game on one instance: whether this instance holds the game's lease, and what
 * becomes of its in-memory copy of the game's state (its diff state) once it does not.
 *
 * The bus holds every game's state, so a copy in memory is only needed while this instance polls
 * the game. But Redis may run without persistence: a restart empties it, and then the copies in
 * the instances' memory are all that is left. Only the newest may be written back (an older one
 * would make its holder emit again what the newest one's holder already emitted), so copies are
 * kept a while after their lease is gone, offered through the bus when the store lost the game,
 * and the owner of the best offer writes it back. docs/architecture.md draws the states.
 *
 * The functions here are pure: the summary poller calls them with what the bus answered and the
 * scheduler's clock, and stores the custody they return.
 */
export type CustodyState =
  /** No lease and no copy. */
  | { readonly name: 'unheld' }
  /**
   * This instance holds the lease: `copy` is the game's live state. `offered`: the store lost its
   * data and the copy is on offer too, until the store holds the game again.
   */
  | { readonly name: 'holding'; readonly copy: GameDiffState; readonly offered: boolean }
  /** The lease is gone; the copy is kept for the grace after `heldUntil` (null: not kept). */
  | { readonly name: 'kept'; readonly copy: GameDiffState; readonly heldUntil: number | null }
  /**
   * The poller stopped at the end of the game and kept the final copy, for twice the grace, so it
   * outlives every older copy. A finished game's poller is not started again by the scoreboard.
   */
  | { readonly name: 'final'; readonly copy: GameDiffState; readonly heldUntil: number | null }
  /**
   * The store lost the game and the copy is on offer: it is kept until the store holds the game
   * again, however long that takes. `final`: it is a finished game's final copy.
   */
  | {
      readonly name: 'offered';
      readonly copy: GameDiffState;
      readonly heldUntil: number | null;
      readonly final: boolean;
    }
  /** The final copy has gone too: nothing is left to do for the game. */
  | { readonly name: 'finished' };

export type CustodyStateName = CustodyState['name'];

export interface Custody {
  readonly state: CustodyState;
  /** Another instance held the lease at some point: the game's state should be on the bus. */
  readonly heldElsewhere: boolean;
  /** When this instance found the game's stored state missing; null while the store has it. */
  readonly missingSince: number | null;
}

export interface CustodyTimings {
  /** A copy of a game no longer held is kept this long after (a final copy twice as long). */
  graceMs: number;
  /**
   * The owner of the best offer writes it back this long after it found the loss, so that every
   * instance with a copy had time to offer it; one with no copy waits twice as long.
   */
  offerWaitMs: number;
  /** An offer stands this long unless its owner renews it. */
  offerTtlMs: number;
}

export const INITIAL_CUSTODY: Custody = {
  state: { name: 'unheld' },
  heldElsewhere: false,
  missingSince: null,
};

// ---- reading ---------------------------------------------------------------------------------

/** The in-memory copy of the game's state, if this instance has one. */
export function copyOf(c: Custody): GameDiffState | null {
  return 'copy' in c.state ? c.state.copy : null;
}

export function isHolding(c: Custody): boolean {
  return c.state.name === 'holding';
}

/** The copy is on offer for writing back. */
export function isOffered(c: Custody): boolean {
  return c.state.name === 'offered' || (c.state.name === 'holding' && c.state.offered);
}

/** The poller stopped at the end of the game; the scoreboard does not start it again. */
export function isFinished(c: Custody): boolean {
  const s = c.state;
  return s.name === 'final' || s.name === 'finished' || (s.name === 'offered' && s.final);
}

/** There is a copy and it is not on offer yet: when the store loses its data it is offered. */
export function hasCopyToOffer(c: Custody): boolean {
  return copyOf(c) !== null && !isOffered(c);
}

/**
 * A renewal of a lease held all along needs no check of the stored state; a lease taken anew, or
 * taken back, does: the store may have lost the game or moved on meanwhile.
 */
export function needsStoreCheck(c: Custody, grant: 'taken' | 'renewed'): boolean {
  return grant === 'taken' || !isHolding(c);
}

/**
 * No stored state was found and there is no copy: should the game be left to the instances that
 * may still have one in memory? Yes for a game another instance held, and for any game in
 * progress shortly after this instance's bus saw Redis lose its data (this instance may have
 * started a moment before and never seen the game held).
 */
export function leftToCopyHolders(
  c: Custody,
  lost: { dataLostAt: number | null; scheduled: GameState | undefined; now: number },
  t: CustodyTimings,
): boolean {
  const lostRecently =
    lost.dataLostAt !== null && lost.now - lost.dataLostAt < t.offerTtlMs && lost.scheduled !== 'pre';
  return c.heldElsewhere || lostRecently;
}

/**
 * With a copy, the store missing the game: this instance writes its copy back once its offer is
 * the best and every instance had the time to offer theirs.
 */
export function mayWriteBack(
  c: Custody,
  best: CopyOffer | 'stored' | null,
  owner: string,
  now: number,
  t: CustodyTimings,
): boolean {
  const ours = best !== 'stored' && best?.owner === owner;
  return ours && now - (c.missingSince ?? now) >= t.offerWaitMs;
}

/**
 * Without a copy, the store missing the game: wait while any offer stands (its owner will write
 * it back), and at least twice as long as the owners wait for each other. Only then is the game
 * started over.
 */
export function waitsForCopy(
  c: Custody,
  best: CopyOffer | 'stored' | null,
  now: number,
  t: CustodyTimings,
): boolean {
  return best !== null || now - (c.missingSince ?? now) < 2 * t.offerWaitMs;
}

// ---- transitions -----------------------------------------------------------------------------

/**
 * `hold`: the lease is this instance's and the store holds `copy`'s state (or `copy` was just
 * written back, or loaded): it is polled from now on. Nothing is on offer or missing any more.
 */
export function hold(c: Custody, copy: GameDiffState): Custody {
  return { ...c, state: { name: 'holding', copy, offered: false }, missingSince: null };
}

/** `replaceCopy`: the store went on past our copy (another instance polled): continue from it. */
export function replaceCopy(c: Custody, copy: GameDiffState): Custody {
  const s = c.state;
  switch (s.name) {
    case 'holding':
    case 'kept':
    case 'final':
    case 'offered':
      return { ...c, state: { ...s, copy } };
    case 'unheld':
      return { ...c, state: { name: 'kept', copy, heldUntil: null } };
    case 'finished':
      return { ...c, state: { name: 'final', copy, heldUntil: null } };
  }
}

/** `settle`: the store holds the game's state again: an offered copy goes back to being kept. */
export function settle(c: Custody): Custody {
  const s = c.state;
  const state: CustodyState =
    s.name === 'offered'
      ? { name: s.final ? 'final' : 'kept', copy: s.copy, heldUntil: s.heldUntil }
      : s.name === 'holding' && s.offered
        ? { ...s, offered: false }
        : s;
  return { ...c, state, missingSince: null };
}

/**
 * `offerAnswered`: the bus answered an offer of the copy (or, without a copy, a look). 'stored':
 * the store has the game, so `settle`. Otherwise the copy is on offer (the bus keeps the best).
 */
export function offerAnswered(c: Custody, best: CopyOffer | 'stored' | null): Custody {
  if (best === 'stored') return settle(c);
  const s = c.state;
  switch (s.name) {
    case 'holding':
      return s.offered ? c : { ...c, state: { ...s, offered: true } };
    case 'kept':
    case 'final':
      return {
        ...c,
        state: { name: 'offered', copy: s.copy, heldUntil: s.heldUntil, final: s.name === 'final' },
      };
    default:
      return c;
  }
}

/** `heldElsewhere`: an acquire said no, or a commit was fenced off: another instance has the lease. */
export function heldElsewhere(c: Custody): Custody {
  return c.heldElsewhere ? c : { ...c, heldElsewhere: true };
}

/** `missing`: a poll found no stored state for the game; the first finding counts. */
export function missing(c: Custody, now: number): Custody {
  return c.missingSince === null ? { ...c, missingSince: now } : c;
}

/**
 * `expire`: a kept copy goes once the grace after `heldUntil` is over (a final copy after twice
 * the grace). Offered and held copies stay.
 */
export function expire(c: Custody, now: number, t: CustodyTimings): Custody {
  const s = c.state;
  if (s.name !== 'kept' && s.name !== 'final') return c;
  const keepMs = s.name === 'final' ? 2 * t.graceMs : t.graceMs;
  if (s.heldUntil !== null && now - s.heldUntil <= keepMs) return c;
  return { ...c, state: { name: s.name === 'final' ? 'finished' : 'unheld' } };
}

/**
 * `standBy`: not polling this time (another instance has the lease, or it was given back while
 * copies are offered). A held copy is kept from now; then `expire`.
 */
export function standBy(c: Custody, now: number, t: CustodyTimings): Custody {
  const s = c.state;
  if (s.name !== 'holding') return expire(c, now, t);
  const state: CustodyState = s.offered
    ? { name: 'offered', copy: s.copy, heldUntil: now, final: false }
    : { name: 'kept', copy: s.copy, heldUntil: now };
  return expire({ ...c, state }, now, t);
}

/**
 * `stop`: the game's poller stopped. A copy that saw the game end is the final copy: kept (or
 * still offered) while `keep`, so it can be written back if Redis loses the game; any other copy
 * is not needed any more (the state stays on the bus).
 */
export function stop(c: Custody, now: number, t: CustodyTimings, keep: boolean): Custody {
  const s = c.state;
  const ended = copyOf(c)?.meta.ended === true;
  if (!ended || !keep || !('copy' in s)) return { ...c, state: { name: ended ? 'finished' : 'unheld' } };
  const heldUntil = s.name === 'holding' ? now : s.heldUntil;
  const offered = s.name === 'offered' || (s.name === 'holding' && s.offered);
  const state: CustodyState = offered
    ? { name: 'offered', copy: s.copy, heldUntil, final: true }
    : { name: 'final', copy: s.copy, heldUntil };
  return expire({ ...c, state }, now, t);
}

/**
 * `reclaim`: Redis lost its data a moment after this instance finished the game. Its final copy
 * is the newest there is, so its poller starts again to write it back; otherwise another instance
 * would write back an older copy and emit the end of the game again.
 */
export function reclaim(c: Custody): Custody {
  const s = c.state;
  return s.name === 'final' ? { ...c, state: { name: 'kept', copy: s.copy, heldUntil: s.heldUntil } } : c;
}

/** `letGo`: the engine closes: its leases are released; nothing is polled any more. */
export function letGo(c: Custody): Custody {
  const s = c.state;
  if (s.name !== 'holding') return c;
  const state: CustodyState = s.offered
    ? { name: 'offered', copy: s.copy, heldUntil: null, final: false }
    : { name: 'kept', copy: s.copy, heldUntil: null };
  return { ...c, state };
}
