import { LEAGUE_SEGMENT, type League } from '../core/leagues.js';
import { hashString } from './random.js';
import { LEAGUE_ID, LEAGUE_NAME, LEAGUE_UID } from './team-catalog.js';

/** Pieces shared by the generated payloads: the season they describe, the league object, news. */

// The season the catalog and the generated calendar describe. Any fixed year would do: a fixed one
// keeps generated payloads the same from one day to the next.
export const SEASON_YEAR: Readonly<Record<League, number>> = {
  mens: 2025,
  womens: 2025,
  'mens-college': 2025,
  'womens-college': 2025,
};
// ESPN answers ten articles when a news request gives no limit.
const DEFAULT_NEWS_LIMIT = 10;

export const season = (league: League) => ({
  year: SEASON_YEAR[league],
  type: 2,
  name: 'Regular Season',
  displayName: seasonLabel(league),
});
// The WNBA's season is one summer; the others span two calendar years ("2024-25").
export const seasonLabel = (league: League) =>
  league === 'womens'
    ? String(SEASON_YEAR.womens)
    : `${SEASON_YEAR[league] - 1}-${String(SEASON_YEAR[league]).slice(2)}`;

/** The league as ESPN names it in summary headers, league lists and scoreboards. */
export function leagueIdentity(league: League) {
  return {
    id: LEAGUE_ID[league],
    uid: LEAGUE_UID[league],
    name: LEAGUE_NAME[league],
    abbreviation: LEAGUE_SEGMENT[league].toUpperCase(),
    slug: LEAGUE_SEGMENT[league],
  };
}

export function leagueObject(league: League): Record<string, unknown> {
  return {
    ...leagueIdentity(league),
    season: {
      year: SEASON_YEAR[league],
      displayName: seasonLabel(league),
      type: { id: '2', type: 2, name: 'Regular Season', abbreviation: 'reg' },
    },
    logos: [
      {
        href: `https://a.espncdn.com/i/teamlogos/leagues/500/${LEAGUE_SEGMENT[league]}.png`,
        width: 500,
        height: 500,
        alt: '',
        rel: ['full', 'default'],
      },
    ],
  };
}

function article(league: League, n: number, about: string): Record<string, unknown> {
  const id = 40_000_000 + (hashString(`${league}/${about}`) % 1_000_000) * 10 + n;
  const at = new Date(Date.UTC(SEASON_YEAR[league], 0, 15, 12, 0, 0) - n * 3_600_000)
    .toISOString()
    .replace('.000', '');
  const segment = LEAGUE_SEGMENT[league];
  return {
    id,
    nowId: `1-${id}`,
    contentKey: `${id}-1-21-1`,
    dataSourceIdentifier: `sim${id.toString(16)}`,
    type: n % 3 === 0 ? 'Media' : 'HeadlineNews',
    headline: `${about}: simulated story ${n + 1}`,
    description: `A generated article about ${about}.`,
    lastModified: at,
    published: at,
    images: [],
    categories: [{ type: 'league', description: LEAGUE_NAME[league] }],
    premium: false,
    ...(league === 'mens' ? { byline: 'Courtside Simulator' } : {}),
    links: {
      web: { href: `https://www.espn.com/${segment}/story/_/id/${id}` },
      mobile: { href: `https://m.espn.com/${segment}/story?storyId=${id}` },
      api: { self: { href: `https://content.core.api.espn.com/v1/sports/news/${id}` } },
      app: { sportscenter: { href: `sportscenter://x-callback-url/showStory?uid=${id}` } },
    },
  };
}

export function news(league: League, params: Readonly<Record<string, string>>, about: string): unknown {
  const limit = Math.min(Number(params.limit ?? DEFAULT_NEWS_LIMIT) || DEFAULT_NEWS_LIMIT, 50);
  return {
    header: `${about} News`,
    link: { href: `https://www.espn.com/${LEAGUE_SEGMENT[league]}/`, text: 'All News' },
    articles: Array.from({ length: limit }, (_, n) => article(league, n, about)),
  };
}

/** The `leagues[0]` of a scoreboard: the league with its calendar of game days, as ESPN sends it. */
export function scoreboardLeague(league: League): Record<string, unknown> {
  const year = SEASON_YEAR[league];
  const start = `${year - 1}-10-04T07:00Z`;
  const end = `${year}-06-27T06:59Z`;
  const calendar: string[] = [];
  for (let at = Date.parse(start); at < Date.parse(end); at += 86_400_000) {
    calendar.push(`${new Date(at).toISOString().slice(0, 10)}T07:00Z`);
  }
  return {
    ...leagueObject(league),
    calendarType: 'day',
    calendarIsWhitelist: true,
    calendarStartDate: start,
    calendarEndDate: end,
    calendar,
  };
}
