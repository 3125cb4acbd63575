import type { League } from '../core/leagues.js';

/**
 * Which synthetic college games of a slate are NCAA tournament games, and how they are marked: as
 * ESPN marks a tournament game, with the competition's `tournamentId`, the header's `gameNote`
 * naming the round ("Men's Basketball Championship - East Region - Elite 8") and season type 3
 * (post-season). One game in eight of each college league is one, so every slate of some size
 * has them beside regular-season games.
 */

export interface TournamentGame {
  readonly tournamentId: number;
  readonly gameNote: string;
}

const SHARE = 8;
const ROUNDS = ['First Round', 'Second Round', 'Sweet 16', 'Elite 8'];
// The men's regions are named for parts of the country, the women's numbered by site.
const TOURNAMENTS: Partial<Record<League, { id: number; title: string; regions: readonly string[] }>> = {
  'mens-college': {
    id: 22,
    title: "Men's Basketball Championship",
    regions: ['East Region', 'West Region', 'South Region', 'Midwest Region'],
  },
  'womens-college': {
    id: 23,
    title: "Women's Basketball Championship",
    regions: ['Regional 1', 'Regional 2', 'Regional 3', 'Regional 4'],
  },
};

/** The tournament marks of the league's game in place `slot` of a slate, undefined for most. */
export function tournamentGame(league: League, slot: number): TournamentGame | undefined {
  const tournament = TOURNAMENTS[league];
  if (!tournament || slot % SHARE !== SHARE - 1) return undefined;
  const n = Math.floor(slot / SHARE);
  const region = tournament.regions[n % tournament.regions.length] as string;
  const round = ROUNDS[Math.floor(n / tournament.regions.length) % ROUNDS.length] as string;
  return { tournamentId: tournament.id, gameNote: `${tournament.title} - ${region} - ${round}` };
}
