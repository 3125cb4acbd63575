import { isOvertime, periodLabel } from '../src/core/periods.js';
import type { GameSituation, GameSnapshot, PlayRow } from '../src/model/events.js';
import type { GameDiffState, GameMeta } from './diff-state.js';
import type { PlayRecord } from './play-diff.js';
import type { SummaryHeader } from './summary-header.js';

/** Plays kept in a snapshot (the scorebug and a reconnecting client's context). */
export const SNAPSHOT_PLAYS = 20;

/** A summary diff's snapshot: the game as it stands after this poll (`next`, already filled). */
export function buildSnapshot(
  state: GameDiffState,
  h: SummaryHeader,
  next: GameMeta,
  input: {
    readonly order: readonly string[];
    readonly records: ReadonlyMap<string, PlayRecord>;
    readonly scoreboardRow: Record<string, unknown> | null;
    readonly situation: GameSituation;
    readonly at: string;
  },
): GameSnapshot {
  const { order, records } = input;
  const recentPlays: PlayRow[] = [];
  for (let i = Math.max(0, order.length - SNAPSHOT_PLAYS); i < order.length; i++) {
    const id = order[i] as string;
    const row = (records.get(id) ?? state.plays.records.get(id))?.row;
    if (row) recentPlays.push(row);
  }
  return {
    league: state.league,
    gameId: state.gameId,
    seq: next.seq,
    state: h.state,
    status: { name: h.name, detail: h.detail, description: h.description },
    // Set from the header just before; the fallback only satisfies the type.
    teams: next.teams ?? { home: h.home.team, away: h.away.team },
    score:
      h.home.score !== null && h.away.score !== null
        ? { home: h.home.score, away: h.away.score }
        : next.score,
    period: next.period,
    periodLabel: next.period !== null && next.period >= 1 ? periodLabel(state.league, next.period) : null,
    overtime: next.period !== null && isOvertime(state.league, next.period),
    clock: h.clock,
    date: h.date,
    scoreboard: input.scoreboardRow,
    recentPlays,
    winProbability: next.winProbability,
    situation: input.situation,
    updatedAt: input.at,
  };
}
