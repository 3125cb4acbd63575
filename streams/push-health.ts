/**
 * How one game is fed: by push (ESPN's FastCast) or by polling the summary. Pure: the game's
 * documents (game-document.ts) call these functions with what push reported and the scheduler's
 * clock, and keep what they return.
 *
 * ```
 *            document                 lost: behind (a gap, bad patch)
 *  polling ───────────▶ push ─────────────────────────▶ resyncing
 *     ▲                 ▲ │ ▲                               │ │
 *     │                 │ │ └────────── document ───────────┘ │
 *     │       document  │ │ lost: down (socket closed, 404)   │ lost, or no document
 *     │                 │ ▼                                   ▼ within one interval
 *     │               fallen-back ◀───────────────────────────┘
 *     └── stopped (the game's follower stopped; push off never leaves polling)
 * ```
 *
 * While `push`, the summary is polled for reconciliation only (every `reconcileMs`, and at once
 * when asked); in every other state it is polled at the normal interval. `resyncing` still polls
 * at the normal interval: the fresh checkpoint is on its way, but a game must not wait on it.
 */
export type PushHealthName = 'polling' | 'push' | 'resyncing' | 'fallen-back';

export interface PushHealth {
  readonly name: PushHealthName;
  /** When the game entered this state (ms). */
  readonly since: number;
  /** Why: the event that made the last transition. */
  readonly reason: string;
  /** A summary poll is wanted at the next tick, whatever the state (after a gap, a reconnect...). */
  readonly reconcileNow: boolean;
}

export const initialPushHealth = (now: number): PushHealth => ({
  name: 'polling',
  since: now,
  reason: 'started',
  reconcileNow: false,
});

const move = (
  h: PushHealth,
  name: PushHealthName,
  now: number,
  reason: string,
  reconcileNow: boolean,
): PushHealth =>
  // Within a state the reason it was entered for is kept, so only a new state or flag is a change:
  // every pushed patch of a healthy game returns the same object, and nothing downstream redraws.
  h.name === name && h.reconcileNow === reconcileNow
    ? h
    : {
        name,
        since: h.name === name ? h.since : now,
        reason: h.name === name ? h.reason : reason,
        reconcileNow,
      };

/**
 * A document arrived: a checkpoint (`fresh`) or applied patches. A fresh checkpoint after a
 * loss asks for a reconciliation poll: what happened meanwhile may be in the summary only. One
 * that comes while push is healthy (a server announcing its checkpoints unasked) follows no loss
 * and asks for none: a poll per checkpoint would cost as much as polling.
 */
export function documentArrived(h: PushHealth, now: number, fresh: boolean): PushHealth {
  const reconcile = h.reconcileNow || (fresh && (h.name === 'resyncing' || h.name === 'fallen-back'));
  return move(h, 'push', now, fresh ? 'checkpoint' : 'patch', reconcile);
}

/**
 * A game that push never fed is polled whatever push reports; its reason is the latest failure,
 * so a game push cannot feed says why (no such game, a checkpoint refused...).
 */
const stillPolling = (h: PushHealth, reason: string, reconcileNow: boolean): PushHealth =>
  h.reason === reason && h.reconcileNow === reconcileNow ? h : { ...h, reason, reconcileNow };

/** The document is behind and a fresh checkpoint is asked for (a gap, a failed patch). */
export function resyncing(h: PushHealth, now: number, reason: string): PushHealth {
  if (h.name === 'polling') return stillPolling(h, reason, true);
  if (h.name !== 'push') return move(h, h.name, now, h.reason, true);
  return move(h, 'resyncing', now, reason, true);
}

/** Push is gone for this game for now (the socket closed, no such game, a checkpoint refused). */
export function fellBack(h: PushHealth, now: number, reason: string): PushHealth {
  if (h.name === 'polling') return stillPolling(h, reason, h.reconcileNow);
  return move(h, 'fallen-back', now, reason, true);
}

/**
 * Checked at each tick: a resync that brought no document within `graceMs` falls back (the game
 * is polled at the normal interval anyway; the state says so).
 */
export function checkResync(h: PushHealth, now: number, graceMs: number): PushHealth {
  if (h.name === 'resyncing' && now - h.since > graceMs)
    return move(h, 'fallen-back', now, 'resync timed out', true);
  return h;
}

/** A summary poll is wanted at the next tick (the game just ended: its final corrections). */
export function wantReconcile(h: PushHealth): PushHealth {
  return h.reconcileNow ? h : { ...h, reconcileNow: true };
}

/** A summary poll was made: the reconciliation asked for is done. */
export function reconciled(h: PushHealth): PushHealth {
  return h.reconcileNow ? { ...h, reconcileNow: false } : h;
}

/** Whether the summary should be polled at a tick `now`, given the last poll at `lastPollAt`. */
export function pollDue(h: PushHealth, now: number, lastPollAt: number | null, reconcileMs: number): boolean {
  if (h.name !== 'push' || h.reconcileNow || lastPollAt === null) return true;
  return now - lastPollAt >= reconcileMs;
}

/**
 * Whether a summary poll must come before a pending pushed document: only when it is overdue by a
 * whole summary interval. A tick that finds a pushed document pending diffs it instead of polling,
 * so pushed documents arriving faster than the ticks (each one waking the follower) would otherwise
 * put the reconciliation off for as long as they kept coming.
 */
export function reconcileOverdue(
  h: PushHealth,
  now: number,
  lastPollAt: number | null,
  reconcileMs: number,
  summaryMs: number,
): boolean {
  return h.name === 'push' && now - (lastPollAt ?? h.since) >= reconcileMs + summaryMs;
}

/** Fed by push (for status pages): `push`; otherwise polling. */
export const feedOf = (h: PushHealth): 'push' | 'polling' => (h.name === 'push' ? 'push' : 'polling');
