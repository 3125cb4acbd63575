import type { Score, TeamRef } from '../src/model/events.js';
import type { eventIds } from './event-ids.js';
import { draft } from './game-diff-draft.js';
import type { GameMeta } from './diff-state.js';
import type { DraftEvent } from './poll-order.js';
import { isFinal, type SummaryHeader } from './summary-header.js';

type Ids = ReturnType<typeof eventIds>;

/** A summary diff's status and start: a new state or status name, the game's first sign of life. */
export function diffStatus(
  meta: GameMeta,
  next: GameMeta,
  h: SummaryHeader,
  ids: Ids,
  teams: { home: TeamRef; away: TeamRef },
): { status: DraftEvent | null; started: DraftEvent | null } {
  let status: DraftEvent | null = null;
  if (h.state !== meta.state || h.name !== meta.statusName) {
    next.statusChanges = meta.statusChanges + 1;
    status = draft('game.status', ids.gameStatus(next.statusChanges, h.state, h.name), {
      state: h.state,
      previousState: meta.state,
      name: h.name,
      detail: h.detail,
      description: h.description,
    });
  }
  let started: DraftEvent | null = null;
  if (!meta.started && (h.state === 'in' || isFinal(h))) {
    next.started = true;
    started = draft('game.started', ids.gameStarted(), { home: teams.home, away: teams.away, date: h.date });
  }
  return { status, started };
}

/** A summary diff's score: the header's (ahead of the last play's running score while live). */
export function diffScore(meta: GameMeta, next: GameMeta, h: SummaryHeader, ids: Ids): DraftEvent | null {
  const live = h.state === 'in' || h.state === 'post';
  if (!live || h.home.score === null || h.away.score === null) return null;
  const score: Score = { home: h.home.score, away: h.away.score };
  if (score.home === meta.score.home && score.away === meta.score.away) return null;
  // A side's score going down is a correction (a basket rescored or waived off), never play.
  const correction = score.home < meta.score.home || score.away < meta.score.away;
  if (correction) next.scoreEpoch = meta.scoreEpoch + 1;
  next.score = score;
  return draft('score.changed', ids.scoreChanged(score, next.scoreEpoch), {
    score,
    previous: meta.score,
    period: h.period,
    clock: h.clock,
    ...(correction ? { correction: true } : {}),
  });
}

/** A summary diff's end: the final status, once, with the winner (the header's, else the score). */
export function diffEnd(
  meta: GameMeta,
  next: GameMeta,
  h: SummaryHeader,
  ids: Ids,
  periods: number,
): DraftEvent | null {
  if (!isFinal(h) || meta.ended) return null;
  next.ended = true;
  const score = next.score;
  const winner = h.home.winner
    ? 'home'
    : h.away.winner
      ? 'away'
      : score.home > score.away
        ? 'home'
        : score.away > score.home
          ? 'away'
          : null;
  return draft('game.ended', ids.gameEnded(), { score, winner, periods, detail: h.detail });
}
