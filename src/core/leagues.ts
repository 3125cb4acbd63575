/** The two leagues, by the names used in operation names, and ESPN's path segment for each. */
export const LEAGUES = ['mens', 'womens'] as const;
export type League = (typeof LEAGUES)[number];

export const LEAGUE_SEGMENT: Readonly<Record<League, string>> = { mens: 'nba', womens: 'wnba' };

export function isLeague(value: unknown): value is League {
  return value === 'mens' || value === 'womens';
}
