import type { League } from '../core/leagues.js';
import { arr, isObject, obj, snakeCase, toSeasonYear } from './cells.js';
import { extract, logosAt, type Extractors } from './extract.js';
import { fixedFrame } from './fixed.js';
import type { Cells, Frame, Layout } from './frame.js';
import { NEWS_EXTRACTORS } from './news.js';
import { parsePlays, parseWinprobability } from './plays.js';
import { BOXSCORE_STAT_COLUMNS, SUMMARY_TABLES, type Row, type SummaryTableName } from './schema.js';

/**
 * The summary's 14 tables. Each reads one part of the payload; a part that is missing or
 * wrongly shaped gives that table with no rows.
 */

const BOXSCORE_PLAYER: Extractors = {
  team_id: 'team.id',
  team_abbreviation: 'team.abbreviation',
  team_display_name: 'team.displayName',
  team_location: 'team.location',
  athlete_id: 'entry.athlete.id',
  athlete_display_name: 'entry.athlete.displayName',
  athlete_short_name: 'entry.athlete.shortName',
  athlete_jersey: 'entry.athlete.jersey',
  athlete_position: 'entry.athlete.position.abbreviation',
  reason: 'entry.reason',
  ...Object.fromEntries(BOXSCORE_STAT_COLUMNS.map((s) => [s, `stats.${s}`])),
  starter: 'entry.starter',
  active: 'entry.active',
  did_not_play: 'entry.didNotPlay',
  ejected: 'entry.ejected',
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
  team_id: 'team.id',
  team_abbreviation: 'team.abbreviation',
  team_display_name: 'team.displayName',
  home_away: 'entry.homeAway',
  stat_name: 'stat.name',
  stat_label: 'stat.label',
  stat_display_value: 'stat.displayValue',
  stat_value: 'stat.value',
  display_order: 'entry.displayOrder',
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
  team_id: 'team.id',
  team_abbreviation: 'team.abbreviation',
  category_name: 'category.name',
  category_display_name: 'category.displayName',
  athlete_id: 'leader.athlete.id',
  athlete_display_name: 'leader.athlete.displayName',
  athlete_position: 'leader.athlete.position.abbreviation',
  display_value: 'leader.displayValue',
  main_stat: 'leader.mainStat',
  summary: 'leader.summary',
  value: 'leader.value',
};

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

const GAME_INFO: Extractors = {
  attendance: 'attendance',
  venue_id: 'venue.id',
  venue_guid: 'venue.guid',
  venue_full_name: 'venue.fullName',
  venue_address_city: 'venue.address.city',
  venue_address_state: 'venue.address.state',
  venue_short_name: 'venue.shortName',
  venue_grass: 'venue.grass',
};

const OFFICIALS: Extractors = {
  full_name: 'fullName',
  display_name: 'displayName',
  position_name: 'position.name',
  position_display_name: 'position.displayName',
  position_id: 'position.id',
  order: 'order',
};

const HEADER: Extractors = {
  id: 'id',
  uid: 'uid',
  competitions: 'competitions',
  links: 'links',
  league_id: 'league.id',
  league_uid: 'league.uid',
  league_name: 'league.name',
  league_abbreviation: 'league.abbreviation',
  league_slug: 'league.slug',
  league_links: 'league.links',
  league_logos: 'league.logos',
  game_note: 'gameNote',
  time_valid: 'timeValid',
  season_current: 'season.current',
  league_is_tournament: 'league.isTournament',
  season_year: (h) => toSeasonYear(obj(h.season).year),
  season_type: 'season.type',
};

const SEASON_SERIES: Extractors = {
  type: 'type',
  title: 'title',
  description: 'description',
  summary: 'summary',
  series_label: 'seriesLabel',
  series_score: 'seriesScore',
  short_summary: 'shortSummary',
  events: 'events',
  round: 'round',
  completed: 'completed',
  total_competitions: 'totalCompetitions',
};

const STANDING_STATS = ['games_behind', 'losses', 'streak', 'win_percent', 'wins'] as const;

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
  ...Object.fromEntries(STANDING_STATS.map((s) => [s, `stats.${s}`])),
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

const FORMAT: Extractors = {
  regulation_periods: 'regulation.periods',
  regulation_display_name: 'regulation.displayName',
  regulation_slug: 'regulation.slug',
  overtime_display_name: 'overtime.displayName',
  overtime_slug: 'overtime.slug',
  regulation_clock: 'regulation.clock',
  overtime_clock: 'overtime.clock',
};

export const ARTICLE_EXTRACTORS: Extractors = {
  id: 'id',
  now_id: 'nowId',
  content_key: 'contentKey',
  data_source_identifier: 'dataSourceIdentifier',
  publishedkey: 'publishedkey',
  type: 'type',
  game_id: 'gameId',
  headline: 'headline',
  description: 'description',
  link_text: 'linkText',
  categorized: 'categorized',
  originally_posted: 'originallyPosted',
  last_modified: 'lastModified',
  published: 'published',
  section: 'section',
  source: 'source',
  images: 'images',
  video: 'video',
  categories: 'categories',
  keywords: 'keywords',
  story: 'story',
  links_web_href: 'links.web.href',
  links_mobile_href: 'links.mobile.href',
  links_api_self_href: 'links.api.self.href',
  links_app_sportscenter_href: 'links.app.sportscenter.href',
  premium: 'premium',
  is_live_blog: 'isLiveBlog',
  allow_comments: 'allowComments',
  allow_search: 'allowSearch',
  allow_content_reactions: 'allowContentReactions',
};

const SUMMARY_INJURIES: Extractors = {
  injuries: 'injuries',
  team_id: 'team.id',
  team_uid: 'team.uid',
  team_display_name: 'team.displayName',
  team_abbreviation: 'team.abbreviation',
  team_links: 'team.links',
  team_logo: 'team.logo',
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
  // Plays and win probability always come as rows: the engine needs them so, and transposing
  // them for Arrow costs less than reading every cell through generic extractors.
  plays: (raw) => ({ rows: parsePlays(raw) as unknown as Row[] }),
  winprobability: (raw) => ({ rows: parseWinprobability(raw) as unknown as Row[] }),
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
