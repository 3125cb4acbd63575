import type { League } from '../src/core/leagues.js';
import type { GameState, Score } from '../src/model/events.js';

/**
 * Deterministic event ids: `<league>:<gameId>:<type>:<key>`. The key names what changed and, for
 * things that can happen more than once, a counter kept in the game's stored state (so the same
 * history gives the same ids on any instance, and a repeat is a new id, not a duplicate).
 */
export function eventIds(league: League, gameId: string) {
  const base = `${league}:${gameId}`;
  const again = (n: number) => (n > 0 ? `~${n}` : '');
  return {
    gameStarted: () => `${base}:game.started`,
    gameEnded: () => `${base}:game.ended`,
    /** `n`: the game's n-th status change (1-based). */
    gameStatus: (n: number, state: GameState, name: string | null) =>
      `${base}:game.status:${n}:${state}:${name ?? 'unknown'}`,
    periodStarted: (period: number) => `${base}:period.started:${period}`,
    periodEnded: (period: number) => `${base}:period.ended:${period}`,
    /** `epoch`: how many times the score went down before; away-home like the plays' columns. */
    scoreChanged: (score: Score, epoch: number) =>
      `${base}:score.changed:${score.away}-${score.home}${again(epoch)}`,
    /** `previousAdds`: times the play was added before (0 for the first). */
    playAdded: (playId: string, previousAdds: number) => `${base}:play.added:${playId}${again(previousAdds)}`,
    /** `n`: the play's n-th update (1-based); `fp`: fingerprint of the new row. */
    playUpdated: (playId: string, n: number, fp: string) => `${base}:play.updated:${playId}:${n}-${fp}`,
    playRemoved: (playId: string, previousRemoves: number) =>
      `${base}:play.removed:${playId}${again(previousRemoves)}`,
    /** `n`: the play's n-th win-probability value (1-based). */
    winprobChanged: (playId: string, n: number) => `${base}:winprob.changed:${playId}:${n}`,
    /** `n`: the game's n-th situation change (1-based). */
    situationChanged: (n: number) => `${base}:situation.changed:${n}`,
  };
}
