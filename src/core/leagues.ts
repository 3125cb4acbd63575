/**
 * The four basketball leagues ESPN serves with the same site API and the same FastCast push, by
 * the names used in configuration, streams and URLs, with what each is called upstream.
 */
export const LEAGUES = ['mens', 'womens', 'mens-college', 'womens-college'] as const;
export type League = (typeof LEAGUES)[number];

/** The two college leagues (NCAA Division I and below). */
export type CollegeLeague = 'mens-college' | 'womens-college';

/** The leagues a daemon polls and a simulator plays when told nothing: the professional two. */
export const DEFAULT_LEAGUES: readonly League[] = ['mens', 'womens'];

export interface LeagueInfo {
  /** ESPN's path segment: `/apis/site/v2/sports/basketball/<segment>/…`, FastCast topics. */
  readonly segment: string;
  /** ESPN's sport/league uid (sport 40 is basketball), the prefix of every team and event uid. */
  readonly uid: string;
  /** The prefix of the league's operation names, without its `_`: `mens_college_scoreboard`. */
  readonly prefix: string;
  /** The short name people know the league by (`NBA`, `NCAAM`). */
  readonly label: string;
  /** The league in a heading: "Men's league (NBA)". */
  readonly title: string;
  readonly college: boolean;
}

export const LEAGUE_INFO: Readonly<Record<League, LeagueInfo>> = {
  mens: {
    segment: 'nba',
    uid: 's:40~l:46',
    prefix: 'mens',
    label: 'NBA',
    title: "Men's league (NBA)",
    college: false,
  },
  womens: {
    segment: 'wnba',
    uid: 's:40~l:59',
    prefix: 'womens',
    label: 'WNBA',
    title: "Women's league (WNBA)",
    college: false,
  },
  'mens-college': {
    segment: 'mens-college-basketball',
    uid: 's:40~l:41',
    prefix: 'mens_college',
    label: 'NCAAM',
    title: "Men's college league (NCAA)",
    college: true,
  },
  'womens-college': {
    segment: 'womens-college-basketball',
    uid: 's:40~l:54',
    prefix: 'womens_college',
    label: 'NCAAW',
    title: "Women's college league (NCAA)",
    college: true,
  },
};

export const LEAGUE_SEGMENT: Readonly<Record<League, string>> = {
  mens: LEAGUE_INFO.mens.segment,
  womens: LEAGUE_INFO.womens.segment,
  'mens-college': LEAGUE_INFO['mens-college'].segment,
  'womens-college': LEAGUE_INFO['womens-college'].segment,
};

export function isLeague(value: unknown): value is League {
  return typeof value === 'string' && (LEAGUES as readonly string[]).includes(value);
}

export function isCollege(league: League): league is CollegeLeague {
  return LEAGUE_INFO[league].college;
}

/** The league ESPN names by this path segment (`nba`, `mens-college-basketball`). */
export function leagueOfSegment(segment: string): League | undefined {
  return LEAGUES.find((league) => LEAGUE_INFO[league].segment === segment);
}
