import type { GameSnapshot, PlayRow } from '../src/model/events.js';
import type { NewGameEvent } from '../src/bus/types.js';
import type { League } from '../src/core/leagues.js';

/**
 * The synthetic slate the delivery benchmarks share: 15 games (10 men's, 5 women's) and
 * `play.added` events of ~700 bytes, committed straight to a bus (delivery is measured, not diffing).
 */
export interface Game {
  league: League;
  gameId: string;
  home: { id: string; abbreviation: string };
  away: { id: string; abbreviation: string };
}

export const SLATE: Game[] = Array.from({ length: 15 }, (_, i) => ({
  league: i < 10 ? 'mens' : 'womens',
  gameId: String(401_700_000 + i),
  home: { id: String(2 * i + 1), abbreviation: `H${i}` },
  away: { id: String(2 * i + 2), abbreviation: `A${i}` },
}));
const seq = new Map<string, number>();

export function playEvent(g: Game): NewGameEvent {
  const n = (seq.get(g.gameId) ?? 0) + 1;
  seq.set(g.gameId, n);
  const play: PlayRow = {
    id: `${g.gameId}${String(n).padStart(6, '0')}`,
    sequence_number: String(n),
    text: `Player ${n % 13} makes 18-foot pullup jump shot (Player ${n % 7} assists)`,
    away_score: n,
    home_score: n + 2,
    scoring_play: true,
    score_value: 2,
    participants: `${4_000_000 + (n % 13)},${4_000_100 + (n % 7)}`,
    wallclock: new Date().toISOString(),
    shooting_play: true,
    points_attempted: 2,
    short_description: 'Pullup Jump Shot',
    type_id: '132',
    type_text: 'Pullup Jump Shot',
    period_number: 2,
    period_display_value: '2nd Quarter',
    clock_display_value: '7:41',
    team_id: g.home.id,
    coordinate_x: 12,
    coordinate_y: 20,
  };
  return {
    id: `${g.league}:${g.gameId}:play:${play.id}`,
    type: 'play.added',
    league: g.league,
    gameId: g.gameId,
    seq: n,
    at: new Date().toISOString(),
    teams: { home: g.home, away: g.away },
    data: { play },
  };
}

/** The game's snapshot as the engine stores it, with its newest plays (the engine keeps 20). */
export function gameSnapshot(g: Game, plays: readonly PlayRow[]): GameSnapshot {
  const team = (t: Game['home']) => ({
    ...t,
    displayName: `Team ${t.abbreviation}`,
    color: '552583',
    alternateColor: 'fdb927',
    logo: `https://a.espncdn.com/i/teamlogos/nba/500/${t.abbreviation}.png`,
  });
  const last = plays.at(-1);
  return {
    league: g.league,
    gameId: g.gameId,
    seq: seq.get(g.gameId) ?? 0,
    state: 'in',
    status: { name: 'STATUS_IN_PROGRESS', detail: '7:41 - 2nd Quarter', description: 'In Progress' },
    teams: { home: team(g.home), away: team(g.away) },
    score: { home: Number(last?.home_score ?? 0), away: Number(last?.away_score ?? 0) },
    period: 2,
    clock: '7:41',
    date: new Date().toISOString(),
    scoreboard: null,
    recentPlays: plays.slice(-20),
    winProbability: null,
    updatedAt: new Date().toISOString(),
  };
}
