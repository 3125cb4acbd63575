import { describe, expect, it } from 'vitest';
import {
  INITIAL_CUSTODY,
  copyOf,
  expire,
  hasCopyToOffer,
  heldElsewhere,
  hold,
  isFinished,
  isHolding,
  isOffered,
  leftToCopyHolders,
  letGo,
  mayWriteBack,
  missing,
  needsStoreCheck,
  offerAnswered,
  reclaim,
  replaceCopy,
  settle,
  standBy,
  stop,
  waitsForCopy,
  type Custody,
  type CustodyState,
  type CustodyTimings,
} from '../../streams/custody.js';
import { newGameState, type GameDiffState } from '../../streams/diff-state.js';

// Custody is pure: time is the `now` each transition is given, so these tests run in virtual time
// by passing the clock along (t0 + offsets), with no timer at all.
const T: CustodyTimings = { graceMs: 45_000, offerWaitMs: 10_000, offerTtlMs: 105_000 };
const t0 = Date.UTC(2025, 0, 1, 0, 0);

function copy(seq: number, ended = false): GameDiffState {
  const state = newGameState('mens', 'g1');
  state.meta.seq = seq;
  state.meta.ended = ended;
  return state;
}

function custody(state: CustodyState, more: Partial<Custody> = {}): Custody {
  return { ...INITIAL_CUSTODY, state, ...more };
}

const c1 = copy(7);
const holding = custody({ name: 'holding', copy: c1, offered: false });
const holdingOffered = custody({ name: 'holding', copy: c1, offered: true });
const kept = custody({ name: 'kept', copy: c1, heldUntil: t0 });
const finalCopy = copy(9, true);
const final = custody({ name: 'final', copy: finalCopy, heldUntil: t0 });
const offered = custody({ name: 'offered', copy: c1, heldUntil: t0, final: false });
const offeredFinal = custody({ name: 'offered', copy: finalCopy, heldUntil: t0, final: true });
const finished = custody({ name: 'finished' });

describe('custody: the start', () => {
  it('starts unheld, with no copy, nothing missing and never held elsewhere', () => {
    expect(INITIAL_CUSTODY).toEqual({ state: { name: 'unheld' }, heldElsewhere: false, missingSince: null });
    expect(copyOf(INITIAL_CUSTODY)).toBeNull();
    expect(isHolding(INITIAL_CUSTODY) || isOffered(INITIAL_CUSTODY) || isFinished(INITIAL_CUSTODY)).toBe(
      false,
    );
  });
});

describe('custody: hold', () => {
  it('makes the copy the live state from any state, clearing an offer and a loss', () => {
    const c2 = copy(3);
    for (const from of [INITIAL_CUSTODY, kept, offered, holdingOffered, final, finished]) {
      const next = hold({ ...from, missingSince: t0 }, c2);
      expect(next.state).toEqual({ name: 'holding', copy: c2, offered: false });
      expect(next.missingSince).toBeNull();
      expect(isHolding(next) && copyOf(next) === c2).toBe(true);
    }
  });

  it('keeps the knowledge that another instance held the game', () => {
    expect(hold(heldElsewhere(INITIAL_CUSTODY), c1).heldElsewhere).toBe(true);
  });
});

describe('custody: replaceCopy', () => {
  it('swaps the copy and keeps the state and its data', () => {
    const newer = copy(12);
    expect(replaceCopy(holdingOffered, newer).state).toEqual({ name: 'holding', copy: newer, offered: true });
    expect(replaceCopy(kept, newer).state).toEqual({ name: 'kept', copy: newer, heldUntil: t0 });
    expect(replaceCopy(offeredFinal, newer).state).toEqual({
      name: 'offered',
      copy: newer,
      heldUntil: t0,
      final: true,
    });
  });

  it('gives a state without a copy one that the next expiry drops (it was never held)', () => {
    const newer = copy(12);
    const fromUnheld = replaceCopy(INITIAL_CUSTODY, newer);
    expect(fromUnheld.state).toEqual({ name: 'kept', copy: newer, heldUntil: null });
    expect(expire(fromUnheld, t0, T).state.name).toBe('unheld');
    expect(expire(replaceCopy(finished, newer), t0, T).state.name).toBe('finished');
  });
});

describe('custody: offerAnswered', () => {
  const best = { owner: 'a', seq: 7 };

  it('puts a held copy on offer while it stays held', () => {
    const next = offerAnswered(holding, best);
    expect(next.state).toEqual({ name: 'holding', copy: c1, offered: true });
    expect(isOffered(next) && isHolding(next)).toBe(true);
    expect(offerAnswered(next, best)).toBe(next);
  });

  it('puts a kept copy on offer, and a final copy on offer as a final copy', () => {
    expect(offerAnswered(kept, null).state).toEqual({
      name: 'offered',
      copy: c1,
      heldUntil: t0,
      final: false,
    });
    const fromFinal = offerAnswered(final, best);
    expect(fromFinal.state).toMatchObject({ name: 'offered', heldUntil: t0, final: true });
    expect(isFinished(fromFinal)).toBe(true);
  });

  it('changes nothing without a copy (the offer only looked)', () => {
    expect(offerAnswered(INITIAL_CUSTODY, best)).toBe(INITIAL_CUSTODY);
    expect(offerAnswered(finished, null)).toBe(finished);
    expect(offerAnswered(offered, best)).toBe(offered);
  });

  it("settles when the store answers 'stored'", () => {
    expect(offerAnswered({ ...offered, missingSince: t0 }, 'stored')).toEqual(
      settle({ ...offered, missingSince: t0 }),
    );
    expect(offerAnswered({ ...INITIAL_CUSTODY, missingSince: t0 }, 'stored').missingSince).toBeNull();
  });
});

describe('custody: settle', () => {
  it('takes an offered copy back to kept, from the same moment, or to final', () => {
    expect(settle(offered).state).toEqual({ name: 'kept', copy: c1, heldUntil: t0 });
    expect(settle(offeredFinal).state).toEqual({ name: 'final', copy: finalCopy, heldUntil: t0 });
  });

  it('withdraws the offer of a held copy and forgets the loss', () => {
    const next = settle({ ...holdingOffered, missingSince: t0 });
    expect(next.state).toEqual({ name: 'holding', copy: c1, offered: false });
    expect(next.missingSince).toBeNull();
  });

  it('leaves states without an offer as they are', () => {
    for (const from of [INITIAL_CUSTODY, holding, kept, final, finished])
      expect(settle(from).state).toBe(from.state);
  });
});

describe('custody: heldElsewhere and missing', () => {
  it('heldElsewhere is set once and stays through later transitions', () => {
    const once = heldElsewhere(INITIAL_CUSTODY);
    expect(once.heldElsewhere).toBe(true);
    expect(heldElsewhere(once)).toBe(once);
    expect(standBy(hold(once, c1), t0, T).heldElsewhere).toBe(true);
  });

  it('missing records the first time the store was found without the game', () => {
    const first = missing(kept, t0);
    expect(first.missingSince).toBe(t0);
    expect(missing(first, t0 + 5_000).missingSince).toBe(t0);
    expect(first.state).toBe(kept.state);
  });
});

describe('custody: expire', () => {
  it('keeps a copy for the grace after it was last held, then drops it', () => {
    expect(expire(kept, t0 + T.graceMs, T)).toBe(kept);
    expect(expire(kept, t0 + T.graceMs + 1, T).state).toEqual({ name: 'unheld' });
  });

  it('keeps a final copy twice as long, then the game is finished', () => {
    expect(expire(final, t0 + 2 * T.graceMs, T)).toBe(final);
    const gone = expire(final, t0 + 2 * T.graceMs + 1, T);
    expect(gone.state).toEqual({ name: 'finished' });
    expect(isFinished(gone)).toBe(true);
  });

  it('never drops a held or an offered copy, however old', () => {
    const late = t0 + 100 * T.graceMs;
    for (const from of [holding, holdingOffered, offered, offeredFinal])
      expect(expire(from, late, T)).toBe(from);
  });
});

describe('custody: standBy', () => {
  it('keeps a held copy from now', () => {
    const at = t0 + 60_000;
    const next = standBy(holding, at, T);
    expect(next.state).toEqual({ name: 'kept', copy: c1, heldUntil: at });
    expect(isHolding(next)).toBe(false);
  });

  it('keeps a held copy that is on offer on offer', () => {
    expect(standBy(holdingOffered, t0 + 1, T).state).toEqual({
      name: 'offered',
      copy: c1,
      heldUntil: t0 + 1,
      final: false,
    });
  });

  it('only expires a copy that was not held (its time counts from when it was)', () => {
    expect(standBy(kept, t0 + T.graceMs, T)).toBe(kept);
    expect(standBy(kept, t0 + T.graceMs + 1, T).state.name).toBe('unheld');
  });
});

describe('custody: stop', () => {
  const endedCopy = copy(20, true);
  const holdingEnded = custody({ name: 'holding', copy: endedCopy, offered: false });

  it('keeps the final copy of a game that ended, from now, for twice the grace', () => {
    const at = t0 + 10_000;
    const next = stop(holdingEnded, at, T, true);
    expect(next.state).toEqual({ name: 'final', copy: endedCopy, heldUntil: at });
    expect(isFinished(next)).toBe(true);
    expect(expire(next, at + 2 * T.graceMs + 1, T).state.name).toBe('finished');
  });

  it('keeps a final copy that is on offer on offer', () => {
    const next = stop(custody({ name: 'holding', copy: endedCopy, offered: true }), t0, T, true);
    expect(next.state).toEqual({ name: 'offered', copy: endedCopy, heldUntil: t0, final: true });
  });

  it('keeps the time a copy not held was last held', () => {
    const keptEnded = custody({ name: 'kept', copy: endedCopy, heldUntil: t0 });
    expect(stop(keptEnded, t0 + 30_000, T, true).state).toEqual({
      name: 'final',
      copy: endedCopy,
      heldUntil: t0,
    });
    expect(stop(keptEnded, t0 + 2 * T.graceMs + 1, T, true).state.name).toBe('finished');
  });

  it('drops a copy of a game that did not end (the state stays on the bus)', () => {
    for (const from of [holding, holdingOffered, kept, offered])
      expect(stop(from, t0, T, true).state).toEqual({ name: 'unheld' });
    expect(stop(INITIAL_CUSTODY, t0, T, true).state).toEqual({ name: 'unheld' });
  });

  it('keeps nothing when the engine closes, but remembers that the game finished', () => {
    expect(stop(holdingEnded, t0, T, false).state).toEqual({ name: 'finished' });
    expect(stop(holding, t0, T, false).state).toEqual({ name: 'unheld' });
  });
});

describe('custody: reclaim', () => {
  it('turns a final copy back into a kept one, so the restarted poller can write it back', () => {
    const next = reclaim(final);
    expect(next.state).toMatchObject({ name: 'kept', heldUntil: t0 });
    expect(copyOf(next)).toBe(copyOf(final));
    expect(isFinished(next)).toBe(false);
  });

  it('changes nothing else', () => {
    for (const from of [INITIAL_CUSTODY, holding, kept, offered, offeredFinal, finished])
      expect(reclaim(from)).toBe(from);
  });
});

describe('custody: letGo', () => {
  it('stops holding without keeping the copy past the next expiry', () => {
    const next = letGo(holding);
    expect(next.state).toEqual({ name: 'kept', copy: c1, heldUntil: null });
    expect(expire(next, t0, T).state.name).toBe('unheld');
    expect(letGo(holdingOffered).state).toEqual({ name: 'offered', copy: c1, heldUntil: null, final: false });
    for (const from of [INITIAL_CUSTODY, kept, offered, final, finished]) expect(letGo(from)).toBe(from);
  });
});

describe('custody: decisions', () => {
  it('checks the store unless a lease held all along was renewed', () => {
    expect(needsStoreCheck(holding, 'renewed')).toBe(false);
    expect(needsStoreCheck(holding, 'taken')).toBe(true);
    expect(needsStoreCheck(kept, 'renewed')).toBe(true);
  });

  it('offers every copy that is not on offer yet', () => {
    expect([holding, kept, final].every(hasCopyToOffer)).toBe(true);
    expect([INITIAL_CUSTODY, holdingOffered, offered, offeredFinal, finished].some(hasCopyToOffer)).toBe(
      false,
    );
  });

  it('leaves a missing game to copy holders if another instance held it, or if Redis just lost its data', () => {
    const none = { dataLostAt: null, scheduled: 'in' as const, now: t0 };
    expect(leftToCopyHolders(INITIAL_CUSTODY, none, T)).toBe(false);
    expect(leftToCopyHolders(heldElsewhere(INITIAL_CUSTODY), none, T)).toBe(true);
    const lost = { dataLostAt: t0, scheduled: 'in' as const, now: t0 + T.offerTtlMs - 1 };
    expect(leftToCopyHolders(INITIAL_CUSTODY, lost, T)).toBe(true);
    // Long after the loss, or a game not started yet (nothing of it can be lost): start it.
    expect(leftToCopyHolders(INITIAL_CUSTODY, { ...lost, now: t0 + T.offerTtlMs }, T)).toBe(false);
    expect(leftToCopyHolders(INITIAL_CUSTODY, { ...lost, scheduled: 'pre' }, T)).toBe(false);
  });

  it('writes a copy back only when its offer is the best and the offer wait after the loss is over', () => {
    const lost = missing(offered, t0);
    const ours = { owner: 'a', seq: 7 };
    expect(mayWriteBack(lost, ours, 'a', t0 + T.offerWaitMs - 1, T)).toBe(false);
    expect(mayWriteBack(lost, ours, 'a', t0 + T.offerWaitMs, T)).toBe(true);
    expect(mayWriteBack(lost, { owner: 'b', seq: 9 }, 'a', t0 + T.offerWaitMs, T)).toBe(false);
    expect(mayWriteBack(lost, 'stored', 'a', t0 + T.offerWaitMs, T)).toBe(false);
    expect(mayWriteBack(lost, null, 'a', t0 + T.offerWaitMs, T)).toBe(false);
  });

  it('without a copy, waits while an offer stands and for twice the offer wait, then starts the game over', () => {
    const lost = missing(INITIAL_CUSTODY, t0);
    expect(waitsForCopy(lost, { owner: 'b', seq: 3 }, t0 + 10 * T.offerWaitMs, T)).toBe(true);
    expect(waitsForCopy(lost, null, t0 + 2 * T.offerWaitMs - 1, T)).toBe(true);
    expect(waitsForCopy(lost, null, t0 + 2 * T.offerWaitMs, T)).toBe(false);
  });
});

describe('custody: a Redis restart, step by step', () => {
  it('the holder of the newest copy writes it back; an older copy waits and goes', () => {
    const older = copy(5);
    const newer = copy(8);
    // a held the game until t0, b holds it since.
    let a = standBy(custody({ name: 'holding', copy: older, offered: false }), t0, T);
    let b = custody({ name: 'holding', copy: newer, offered: false });
    // Redis comes back empty at t0 + 10 s: both offer their copies; the bus keeps b's.
    const lossAt = t0 + 10_000;
    a = offerAnswered(a, { owner: 'a', seq: 5 });
    b = offerAnswered(b, { owner: 'b', seq: 8 });
    const best = { owner: 'b', seq: 8 };
    expect(a.state.name).toBe('offered');
    // a's copy outlives its grace while on offer.
    expect(expire(a, t0 + 10 * T.graceMs, T)).toBe(a);
    // b's lease lapsed with the data: its poll takes it anew, finds the game missing, waits.
    expect(needsStoreCheck(b, 'taken')).toBe(true);
    b = missing(b, lossAt);
    expect(mayWriteBack(b, best, 'b', lossAt, T)).toBe(false);
    b = standBy(b, lossAt, T);
    expect(b.state.name).toBe('offered');
    a = missing(a, lossAt + 3_000);
    expect(mayWriteBack(a, best, 'a', lossAt + T.graceMs + 3_000, T)).toBe(false);
    // After the grace b writes its copy back and holds the game again.
    expect(mayWriteBack(b, best, 'b', lossAt + T.graceMs, T)).toBe(true);
    b = hold(b, newer);
    expect(b).toMatchObject({ state: { name: 'holding', offered: false }, missingSince: null });
    // a learns that the store has the game: its copy is kept again, and goes after its grace.
    a = offerAnswered(a, 'stored');
    expect(a.state).toEqual({ name: 'kept', copy: older, heldUntil: t0 });
    expect(expire(a, lossAt + T.graceMs, T).state.name).toBe('unheld');
  });
});
