import type { League } from '../core/leagues.js';
import { arr, isObject, obj, snakeCase, toSeasonYear, valueOrDisplay } from './cells.js';
import { byPath, extract, logosAt, type Extractors } from './extract.js';
import { fixedFrame } from './fixed.js';
import type { Cells, Frame, Layout } from './frame.js';
import { NEWS_EXTRACTORS } from './news.js';
import { parsePlays, parseWinprobability, playColumns, winprobabilityColumns } from './plays.js';
import {
  BOXSCORE_STAT_COLUMNS,
  SUMMARY_STANDINGS_STAT_COLUMNS,
  SUMMARY_TABLES,
  type Row,
  type SummaryTableName,
} from './schema.js';

/**
 * The summary's 14 tables. Each reads one part of the payload; a part that is missing or
 * wrongly shaped gives that table with no rows.
 */

const BOXSCORE_PLAYER: Extractors = {
  ...byPath(['team.id', 'team.abbreviation', 'team.displayName', 'team.location']),
  ...byPath(
    [
      'athlete.id',
      'athlete.displayName',
      'athlete.shortName',
      'athlete.jersey',
      'reason',
      'starter',
      'active',
      'didNotPlay',
      'ejected',
    ],
    { under: 'entry' },
  ),
  athlete_position: 'entry.athlete.position.abbreviation',
  ...byPath(BOXSCORE_STAT_COLUMNS, { under: 'stats' }),
};

/**
 * One item per athlete per team: the stat blocks of a team are merged by athlete id, the
 * block's `keys` (snake_cased) naming the athlete's `stats` values in order.
 */
function boxscoreAthletes(raw: unknown): unknown[] {
  const items: { team: unknown; entry: Record<string, unknown>; stats: Record<string, unknown> }[] = [];
  for (const teamEntry of arr(obj(obj(raw).boxscore).players)) {
    const team = obj(teamEntry).team;
    const byAthlete = new Map<string, (typeof items)[number]>();
    for (const block of arr(obj(teamEntry).statistics)) {
      const keys = arr(obj(block).keys);
      for (const entry of arr(obj(block).athletes)) {
        if (!isObject(entry)) continue;
        const id = obj(entry.athlete).id;
        let item = typeof id === 'string' || typeof id === 'number' ? byAthlete.get(String(id)) : undefined;
        if (!item) {
          item = { team, entry, stats: {} };
          items.push(item);
          if (typeof id === 'string' || typeof id === 'number') byAthlete.set(String(id), item);
        }
        const stats = arr(entry.stats);
        for (let i = 0; i < keys.length && i < stats.length; i++) {
          const key = keys[i];
          if (typeof key === 'string') item.stats[snakeCase(key)] = stats[i];
        }
      }
    }
  }
  return items;
}

const BOXSCORE_TEAM: Extractors = {
  ...byPath(['team.id', 'team.abbreviation', 'team.displayName']),
  ...byPath(['homeAway', 'displayOrder'], { under: 'entry' }),
  ...byPath(['stat.name', 'stat.label', 'stat.displayValue']),
  stat_value: (i) => {
    const stat = obj(i.stat);
    return valueOrDisplay(stat.value, stat.displayValue);
  },
};

function boxscoreTeamStats(raw: unknown): unknown[] {
  const items: unknown[] = [];
  for (const entry of arr(obj(obj(raw).boxscore).teams)) {
    if (!isObject(entry)) continue;
    for (const stat of arr(entry.statistics))
      if (isObject(stat)) items.push({ team: entry.team, entry, stat });
  }
  return items;
}

const LEADERS: Extractors = {
  ...byPath(['team.id', 'team.abbreviation', 'category.name', 'category.displayName']),
  ...byPath(['athlete.id', 'athlete.displayName', 'displayValue', 'summary'], { under: 'leader' }),
  main_stat: (i) => mainStat(obj(i.leader)),
  value: (i) => {
    const leader = obj(i.leader);
    return valueOrDisplay(leader.value, leader.displayValue);
  },
  athlete_position: 'leader.athlete.position.abbreviation',
};

/**
 * Upstream's `mainStat`, or, when it sends none, the same object rebuilt from the leader: its
 * display value and the abbreviation of its first statistic (the category's own stat).
 */
function mainStat(leader: Record<string, unknown>): unknown {
  if (leader.mainStat !== undefined && leader.mainStat !== null) return leader.mainStat;
  const label = obj(arr(leader.statistics)[0]).abbreviation;
  if (typeof leader.displayValue !== 'string' || typeof label !== 'string') return null;
  return { value: leader.displayValue, label };
}

function leaders(raw: unknown): unknown[] {
  const items: unknown[] = [];
  for (const teamEntry of arr(obj(raw).leaders)) {
    const team = obj(teamEntry).team;
    for (const category of arr(obj(teamEntry).leaders)) {
      for (const leader of arr(obj(category).leaders)) {
        if (isObject(leader)) items.push({ team, category, leader });
      }
    }
  }
  return items;
}

const GAME_INFO: Extractors = byPath([
  'attendance',
  'venue.id',
  'venue.guid',
  'venue.fullName',
  'venue.address.city',
  'venue.address.state',
  'venue.shortName',
  'venue.grass',
]);

const OFFICIALS: Extractors = byPath([
  'fullName',
  'displayName',
  'position.name',
  'position.displayName',
  'position.id',
  'order',
]);

const HEADER: Extractors = {
  ...byPath([
    'id',
    'uid',
    'competitions',
    'links',
    'league.id',
    'league.uid',
    'league.name',
    'league.abbreviation',
    'league.slug',
    'league.links',
    'league.isTournament',
    'gameNote',
    'timeValid',
    'season.current',
    'season.type',
  ]),
  league_logos: logosAt('league.logos'),
  season_year: (h) => toSeasonYear(obj(h.season).year),
};

const SEASON_SERIES: Extractors = byPath([
  'type',
  'title',
  'description',
  'summary',
  'seriesLabel',
  'seriesScore',
  'shortSummary',
  'events',
  'round',
  'completed',
  'totalCompetitions',
]);

const SUMMARY_STANDINGS: Extractors = {
  group_header: 'group.header',
  conference_header: 'group.conferenceHeader',
  division_header: 'group.divisionHeader',
  team_id: 'entry.id',
  team_uid: 'entry.uid',
  // `team` is the location text in the summary's standings; an object form carries `location`.
  team_location: (i) => {
    const team = obj(i.entry).team;
    return isObject(team) ? team.location : team;
  },
  ...byPath(SUMMARY_STANDINGS_STAT_COLUMNS, { under: 'stats' }),
};

/** One item per standings entry; stats by snake_cased name, their display values (e.g. "W2", ".683"). */
function summaryStandings(raw: unknown): unknown[] {
  const items: unknown[] = [];
  for (const group of arr(obj(obj(raw).standings).groups)) {
    if (!isObject(group)) continue;
    for (const entry of arr(obj(group.standings).entries)) {
      if (!isObject(entry)) continue;
      const stats: Record<string, unknown> = {};
      for (const stat of arr(entry.stats)) {
        const s = obj(stat);
        const name = typeof s.name === 'string' ? s.name : s.type;
        if (typeof name === 'string') stats[snakeCase(name)] = s.displayValue ?? s.value;
      }
      items.push({ group, entry, stats });
    }
  }
  return items;
}

const FORMAT: Extractors = byPath([
  'regulation.periods',
  'regulation.displayName',
  'regulation.slug',
  'regulation.clock',
  'overtime.displayName',
  'overtime.slug',
  'overtime.clock',
]);

/** The article is a news article with more fields: the news paths and its own. */
export const ARTICLE_EXTRACTORS: Extractors = {
  ...NEWS_EXTRACTORS,
  ...byPath([
    'publishedkey',
    'gameId',
    'linkText',
    'categorized',
    'originallyPosted',
    'section',
    'source',
    'video',
    'keywords',
    'story',
    'isLiveBlog',
    'allowComments',
    'allowSearch',
    'allowContentReactions',
  ]),
};

const SUMMARY_INJURIES: Extractors = {
  ...byPath([
    'injuries',
    'team.id',
    'team.uid',
    'team.displayName',
    'team.abbreviation',
    'team.links',
    'team.logo',
  ]),
  team_logos: logosAt('team.logos'),
};

/** A single-entity part: one row when it is a non-empty object, else none. */
function single(value: unknown): unknown[] {
  return isObject(value) && Object.keys(value).length > 0 ? [value] : [];
}

type TableBuilder = (raw: unknown, league: League, layout: Layout) => Cells;

const BUILDERS: Record<SummaryTableName, TableBuilder> = {
  boxscore_player: (raw, league, layout) =>
    extract('boxscore_player', league, BOXSCORE_PLAYER, boxscoreAthletes(raw), layout),
  boxscore_team: (raw, league, layout) =>
    extract('boxscore_team', league, BOXSCORE_TEAM, boxscoreTeamStats(raw), layout),
  // Plays and win probability have their own parsers (the engine reads plays as rows): row
  // objects for the rows flavour, column vectors for Arrow.
  plays: (raw, league, layout) =>
    layout === 'rows' ? { rows: parsePlays(raw) as unknown as Row[] } : playColumns(raw, league),
  winprobability: (raw, league, layout) =>
    layout === 'rows'
      ? { rows: parseWinprobability(raw) as unknown as Row[] }
      : winprobabilityColumns(raw, league),
  leaders: (raw, league, layout) => extract('leaders', league, LEADERS, leaders(raw), layout),
  game_info: (raw, league, layout) =>
    extract('game_info', league, GAME_INFO, single(obj(raw).gameInfo), layout),
  officials: (raw, league, layout) =>
    extract('officials', league, OFFICIALS, arr(obj(obj(raw).gameInfo).officials), layout),
  header: (raw, league, layout) => extract('header', league, HEADER, single(obj(raw).header), layout),
  season_series: (raw, league, layout) =>
    extract('season_series', league, SEASON_SERIES, arr(obj(raw).seasonseries), layout),
  standings: (raw, league, layout) =>
    extract('summary_standings', league, SUMMARY_STANDINGS, summaryStandings(raw), layout),
  format: (raw, league, layout) => extract('format', league, FORMAT, single(obj(raw).format), layout),
  article: (raw, league, layout) =>
    extract('article', league, ARTICLE_EXTRACTORS, single(obj(raw).article), layout),
  injuries: (raw, league, layout) =>
    extract('summary_injuries', league, SUMMARY_INJURIES, arr(obj(raw).injuries), layout),
  news: (raw, league, layout) =>
    extract('summary_news', league, NEWS_EXTRACTORS, arr(obj(obj(raw).news).articles), layout),
};

/** One summary table as a frame. */
export function summaryFrame(
  raw: unknown,
  league: League,
  table: SummaryTableName,
  layout: Layout = 'rows',
): Frame {
  return fixedFrame(SUMMARY_TABLES[table], league, BUILDERS[table](raw, league, layout));
}
