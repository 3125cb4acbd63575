import { isOvertime, periodLabel } from '../../core/periods.js';
import type { GameEvent, GameSnapshot, PlayRow } from '../../model/events.js';

/**
 * A game's snapshot as it was before its newest events: what a subscription with a spoiler delay
 * shows first, the game as it stood `delay` ago. The snapshot store keeps only the current
 * snapshot, but every event says what it changed and most say what was there before, so the past
 * one is rebuilt by undoing the events the delay holds back, newest first.
 *
 * What the events carry comes back exactly: `seq`, the score (`previous`), the state
 * (`previousState`), the period, the recent plays (an added play goes, an updated one gets its
 * `previous` columns back, a removed one returns) and the win probability where its previous value
 * is known. What changes without an event, or whose earlier value no event carries, is never kept
 * from the newer snapshot: the clock is the one of the newest play left, and the status detail,
 * the scoreboard row and an unknown win probability are cleared (null).
 */
export function rewind(snapshot: GameSnapshot, later: readonly GameEvent[], asOfMs: number): GameSnapshot {
  const first = later[0];
  if (!first) return snapshot;
  const past: GameSnapshot = {
    ...snapshot,
    seq: first.seq - 1,
    status: { ...snapshot.status, detail: null },
    recentPlays: [...snapshot.recentPlays],
    scoreboard: null,
    updatedAt: new Date(asOfMs).toISOString(),
  };
  for (let i = later.length - 1; i >= 0; i--) undo(past, later[i] as GameEvent);
  past.clock = past.recentPlays.at(-1)?.clock_display_value ?? null;
  return past;
}

function undo(past: GameSnapshot, event: GameEvent): void {
  switch (event.type) {
    case 'score.changed':
      past.score = { ...event.data.previous };
      return;
    case 'game.status':
      past.state = event.data.previousState ?? 'pre';
      // The status before this one is not in the event.
      past.status = { name: null, detail: null, description: null };
      return;
    case 'period.started': {
      const before = event.data.period - 1;
      past.period = before;
      past.periodLabel = before >= 1 ? periodLabel(event.league, before) : null;
      past.overtime = before >= 1 && isOvertime(event.league, before);
      return;
    }
    case 'play.added': {
      const id = event.data.play?.id;
      past.recentPlays = past.recentPlays.filter((p) => p.id !== id);
      return;
    }
    case 'play.updated': {
      const { play, previous } = event.data;
      past.recentPlays = past.recentPlays.map((p) => (p.id === play?.id ? { ...p, ...previous } : p));
      return;
    }
    case 'play.removed':
      if (event.data.play) insertInOrder(past.recentPlays, event.data.play);
      return;
    case 'winprob.changed': {
      const { playId, previousHomeWinPercentage } = event.data;
      if (past.winProbability?.playId !== playId) return;
      past.winProbability =
        previousHomeWinPercentage === null
          ? null
          : { playId, homeWinPercentage: previousHomeWinPercentage, tiePercentage: null };
      return;
    }
    case 'situation.changed':
      past.situation = event.data.previous;
      return;
    // Starting and ending a game or a period show in the status, score and period events.
    case 'game.started':
    case 'game.ended':
    case 'period.ended':
      return;
  }
}

const sequenceOf = (play: PlayRow): number => {
  const n = Number(play.sequence_number);
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
};

/** Puts a play back where its sequence number places it (a removed play's position is not kept). */
function insertInOrder(plays: PlayRow[], play: PlayRow): void {
  if (plays.some((p) => p.id === play.id)) return;
  const at = plays.findIndex((p) => sequenceOf(p) > sequenceOf(play));
  plays.splice(at === -1 ? plays.length : at, 0, play);
}
