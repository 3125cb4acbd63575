import type { League } from '../core/leagues.js';
import { g, type ColumnGroup, type ColumnType, type RowOf } from './column-groups.js';
import { OPERATION_TABLES } from './schema-operations.js';

export {
  COLUMN_TYPES,
  EXTRA_COLUMN,
  type ColumnGroup,
  type ColumnType,
  type GroupTag,
  type RowOf,
  type ValueOf,
} from './column-groups.js';

/**
 * The one schema of every table: exact column names, order and types, the contract that analysts'
 * code is written against (the named tables keep the columns of the R and Python ESPN packages, so
 * code written for those reads them unchanged; the other operations' tables are in
 * `schema-operations.ts`). Parsers, `columnsFor`, the Arrow
 * builder, the conformance tests and `docs/tables.md` all read this file.
 *
 * Column order rule: a table's columns are declared in groups by type, and come group by group,
 * each group in its declared order, so a table's layout is the same whatever the payload's key
 * order. League-only columns sit inside their group (e.g. `game_note` at the end of header's
 * character group). The `optional` groups (the scoreboard's college columns: `<side>_rank`,
 * `<side>_conference_id`, `tournament_id`) exist in a table, together, only when some row has a
 * value in one of them.
 */

function sideGroups<const S extends 'home' | 'away'>(s: S) {
  return [
    g('character', [
      `${s}_id`,
      `${s}_name`,
      `${s}_abbreviation`,
      `${s}_display_name`,
      `${s}_location`,
      `${s}_color`,
      `${s}_alternate_color`,
      `${s}_logo`,
      `${s}_score`,
    ] as const),
    // College boards: the team's rank (null when unranked) and its conference's group id.
    g('character', [`${s}_rank`, `${s}_conference_id`] as const, 'optional'),
    g('logical', [`${s}_winner`] as const),
  ] as const;
}

const SCOREBOARD = [
  g('character', [
    'game_id',
    'uid',
    'date',
    'name',
    'short_name',
    'season_slug',
    'status_type_id',
    'status_type_name',
    'status_type_state',
    'status_type_description',
    'status_type_detail',
    'status_type_short_detail',
    'status_display_clock',
    'venue_id',
    'venue_full_name',
    'venue_city',
    'venue_state',
    'broadcast',
    'note',
  ]),
  // College tournament games (conference tournaments, the NCAA tournament).
  g('character', ['tournament_id'], 'optional'),
  g('integer', ['season_year', 'season_type', 'status_period', 'attendance']),
  g('double', ['status_clock']),
  g('logical', ['status_type_completed', 'neutral_site', 'conference_competition', 'venue_indoor']),
  ...sideGroups('home'),
  ...sideGroups('away'),
] as const;

/** The box score's per-athlete stats, in the order ESPN labels them; the parser reads them by these names. */
export const BOXSCORE_STAT_COLUMNS = [
  'minutes',
  'points',
  'field_goals_made_field_goals_attempted',
  'three_point_field_goals_made_three_point_field_goals_attempted',
  'free_throws_made_free_throws_attempted',
  'rebounds',
  'assists',
  'turnovers',
  'steals',
  'blocks',
  'offensive_rebounds',
  'defensive_rebounds',
  'fouls',
  'plus_minus',
] as const;

const BOXSCORE_PLAYER = [
  g('character', [
    'team_id',
    'team_abbreviation',
    'team_display_name',
    'team_location',
    'athlete_id',
    'athlete_display_name',
    'athlete_short_name',
    'athlete_jersey',
    'athlete_position',
    'reason',
    ...BOXSCORE_STAT_COLUMNS,
  ]),
  g('logical', ['starter', 'active', 'did_not_play', 'ejected']),
] as const;

const BOXSCORE_TEAM = [
  g('character', [
    'team_id',
    'team_abbreviation',
    'team_display_name',
    'home_away',
    'stat_name',
    'stat_label',
    'stat_display_value',
    'stat_value',
  ]),
  g('integer', ['display_order']),
] as const;

const PLAYS = [
  g('character', [
    'id',
    'sequence_number',
    'text',
    'participants',
    'wallclock',
    'short_description',
    'type_id',
    'type_text',
    'period_display_value',
    'clock_display_value',
    'team_id',
  ]),
  g('integer', [
    'away_score',
    'home_score',
    'score_value',
    'points_attempted',
    'period_number',
    'coordinate_x',
    'coordinate_y',
  ]),
  g('logical', ['scoring_play', 'shooting_play']),
] as const;

const WINPROBABILITY = [
  g('double', ['home_win_percentage', 'tie_percentage']),
  g('character', ['play_id']),
] as const;

const LEADERS = [
  g('character', [
    'team_id',
    'team_abbreviation',
    'category_name',
    'category_display_name',
    'athlete_id',
    'athlete_display_name',
    'athlete_position',
    'display_value',
    'main_stat',
    'summary',
  ]),
  g('double', ['value']),
] as const;

const GAME_INFO = [
  g('integer', ['attendance']),
  g('character', ['venue_id', 'venue_guid', 'venue_full_name', 'venue_address_city', 'venue_address_state']),
  g('character', ['venue_short_name'], 'mens'),
  g('logical', ['venue_grass']),
] as const;

const OFFICIALS = [
  g('character', ['full_name', 'display_name', 'position_name', 'position_display_name', 'position_id']),
  g('integer', ['order']),
] as const;

const HEADER = [
  g('character', [
    'id',
    'uid',
    'competitions',
    'links',
    'league_id',
    'league_uid',
    'league_name',
    'league_abbreviation',
    'league_slug',
    'league_links',
    'league_logos',
  ]),
  g('character', ['game_note'], 'womens'),
  g('logical', ['time_valid', 'season_current', 'league_is_tournament']),
  g('integer', ['season_year', 'season_type']),
] as const;

const SEASON_SERIES = [
  g('character', [
    'type',
    'title',
    'description',
    'summary',
    'series_label',
    'series_score',
    'short_summary',
    'events',
  ]),
  g('character', ['round'], 'womens'),
  g('logical', ['completed']),
  g('integer', ['total_competitions']),
] as const;

/** The summary's standings stats, read from each entry's stats by these names. */
export const SUMMARY_STANDINGS_STAT_COLUMNS = [
  'games_behind',
  'losses',
  'streak',
  'win_percent',
  'wins',
] as const;

const SUMMARY_STANDINGS = [
  g('character', [
    'group_header',
    'conference_header',
    'division_header',
    'team_id',
    'team_uid',
    'team_location',
    ...SUMMARY_STANDINGS_STAT_COLUMNS,
  ]),
] as const;

const FORMAT = [
  g('integer', ['regulation_periods']),
  g('character', ['regulation_display_name', 'regulation_slug', 'overtime_display_name', 'overtime_slug']),
  g('double', ['regulation_clock', 'overtime_clock']),
] as const;

/** Column runs of the news tables (league news, the summary's news and article), each in this order. */
const NEWS_IDS = ['now_id', 'content_key', 'data_source_identifier'] as const;
const NEWS_LINKS = [
  'links_web_href',
  'links_mobile_href',
  'links_api_self_href',
  'links_app_sportscenter_href',
] as const;
const NEWS_TEXT = [
  'type',
  'headline',
  'description',
  'last_modified',
  'published',
  'images',
  'categories',
] as const;

const ARTICLE = [
  g('integer', ['id']),
  g('character', [
    ...NEWS_IDS,
    'publishedkey',
    'type',
    'game_id',
    'headline',
    'description',
    'link_text',
    'categorized',
    'originally_posted',
    'last_modified',
    'published',
    'section',
    'source',
    'images',
    'video',
    'categories',
    'keywords',
    'story',
    ...NEWS_LINKS,
  ]),
  g('logical', ['premium', 'is_live_blog', 'allow_comments', 'allow_search', 'allow_content_reactions']),
] as const;

const SUMMARY_INJURIES = [
  g('character', [
    'injuries',
    'team_id',
    'team_uid',
    'team_display_name',
    'team_abbreviation',
    'team_links',
    'team_logo',
    'team_logos',
  ]),
] as const;

const WOMENS_NEWS_LINKS = [
  'links_web_self_href',
  'links_web_self_dsi_href',
  'links_api_artwork_href',
  'links_sportscenter_href',
] as const;

/** The summary's news: `byline` is a character column in both leagues (both payloads carry it). */
const SUMMARY_NEWS = [
  g('integer', ['id']),
  g('character', [...NEWS_IDS, ...NEWS_TEXT, 'byline', ...NEWS_LINKS]),
  g('logical', ['premium']),
  g('character', WOMENS_NEWS_LINKS, 'womens'),
] as const;

/** News operations: men's rows carry `byline`, women's rows the four extra link columns instead. */
const NEWS = [
  g('integer', ['id']),
  g('character', [...NEWS_IDS, ...NEWS_TEXT, ...NEWS_LINKS]),
  g('logical', ['premium']),
  g('character', ['byline'], 'mens'),
  g('character', WOMENS_NEWS_LINKS, 'womens'),
] as const;

const INJURIES = [g('character', ['id', 'display_name', 'injuries'])] as const;

const TEAMS = [
  g('character', [
    'team_abbreviation',
    'team_alternate_color',
    'team_color',
    'team_display_name',
    'team_id',
    'team_location',
    'team_logos',
    'team_name',
    'team_nickname',
    'team_short_display_name',
    'team_slug',
    'team_uid',
  ]),
  g('logical', ['team_is_active', 'team_is_all_star']),
] as const;

/** Column runs both leagues' rosters carry, each in this order; the two leagues order the runs differently. */
const ROSTER_RUNS = {
  names: ['id', 'uid', 'guid', 'first_name', 'last_name', 'full_name', 'display_name', 'short_name'],
  page: ['date_of_birth', 'links', 'slug', 'jersey', 'injuries'],
  origin: ['contracts', 'alternate_ids_sdr', 'birth_place_city', 'birth_place_state', 'birth_place_country'],
  college: [
    'college_id',
    'college_guid',
    'college_mascot',
    'college_name',
    'college_short_name',
    'college_abbrev',
    'college_logos',
  ],
  position: [
    'headshot_href',
    'headshot_alt',
    'position_id',
    'position_name',
    'position_display_name',
    'position_abbreviation',
  ],
  status: ['status_id', 'status_name', 'status_type', 'status_abbreviation'],
  hand: ['hand_type', 'hand_abbreviation', 'hand_display_value'],
} as const;

const ROSTER_MENS = [
  g('character', [
    ...ROSTER_RUNS.names,
    'display_weight',
    'display_height',
    ...ROSTER_RUNS.page,
    'teams',
    ...ROSTER_RUNS.origin,
    ...ROSTER_RUNS.college,
    ...ROSTER_RUNS.position,
    'contract_season_start_date',
    'contract_season_end_date',
    ...ROSTER_RUNS.status,
    'citizenship',
    ...ROSTER_RUNS.hand,
  ]),
  g('double', ['weight', 'height', 'debut_year', 'contract_trade_kicker_percentage']),
  g('integer', [
    'age',
    'experience_years',
    'contract_bird_status',
    'contract_incoming_trade_value',
    'contract_outgoing_trade_value',
    'contract_option_type',
    'contract_salary',
    'contract_salary_remaining',
    'contract_years_remaining',
    'contract_season_year',
    'contract_trade_kicker_value',
    'contract_trade_kicker_trade_value',
  ]),
  g('logical', [
    'position_leaf',
    'contract_base_year_compensation_active',
    'contract_poison_pill_provision_active',
    'contract_minimum_salary_exception',
    'contract_trade_kicker_active',
    'contract_trade_restriction',
    'contract_unsigned_foreign_pick',
    'contract_active',
  ]),
] as const;

const ROSTER_WOMENS = [
  g('character', [
    ...ROSTER_RUNS.names,
    'display_height',
    'display_weight',
    ...ROSTER_RUNS.page,
    ...ROSTER_RUNS.origin,
    ...ROSTER_RUNS.position,
    ...ROSTER_RUNS.status,
    ...ROSTER_RUNS.college,
    ...ROSTER_RUNS.hand,
    'citizenship',
    'teams',
  ]),
  g('double', ['height', 'weight']),
  g('integer', ['age', 'experience_years']),
  g('logical', ['position_leaf']),
] as const;

const SCHEDULE = [
  g('character', [
    'id',
    'date',
    'name',
    'short_name',
    'competitions',
    'links',
    'season_display_name',
    'season_type_id',
    'season_type_name',
    'season_type_abbreviation',
  ]),
  g('logical', ['time_valid']),
  g('integer', ['season_year', 'season_type_type']),
] as const;

/** Standings record summaries: upstream's names (with spaces and dots), lower-cased. */
export const STANDINGS_RECORD_COLUMNS = [
  'overall',
  'home',
  'road',
  'vs. div.',
  'vs. conf.',
  'last ten games',
] as const;

/** Standings stats, read from each entry's stats by these names. */
export const STANDINGS_VALUE_COLUMNS = [
  'avg_points_against',
  'avg_points_for',
  'clincher',
  'differential',
  'division_win_percent',
  'games_behind',
  'league_win_percent',
  'losses',
  'playoff_seed',
  'point_differential',
  'points',
  'points_against',
  'points_for',
  'streak',
  'win_percent',
  'wins',
  'games_ahead',
] as const;

const STANDINGS = [
  g('character', [
    'group_name',
    'group_abbreviation',
    'team_id',
    'team_name',
    'team_abbreviation',
    'team_display_name',
    'team_location',
    'team_logo',
    ...STANDINGS_RECORD_COLUMNS,
  ]),
  g('double', [...STANDINGS_VALUE_COLUMNS]),
] as const;

/**
 * Every declared table, by name: the named tables, then those of the other operations. Roster has one list per league: the two leagues' rosters differ.
 */
export const SCHEMA = {
  scoreboard: SCOREBOARD,
  boxscore_player: BOXSCORE_PLAYER,
  boxscore_team: BOXSCORE_TEAM,
  plays: PLAYS,
  winprobability: WINPROBABILITY,
  leaders: LEADERS,
  game_info: GAME_INFO,
  officials: OFFICIALS,
  header: HEADER,
  season_series: SEASON_SERIES,
  summary_standings: SUMMARY_STANDINGS,
  format: FORMAT,
  article: ARTICLE,
  summary_injuries: SUMMARY_INJURIES,
  summary_news: SUMMARY_NEWS,
  news: NEWS,
  injuries: INJURIES,
  teams: TEAMS,
  roster_mens: ROSTER_MENS,
  roster_womens: ROSTER_WOMENS,
  schedule: SCHEDULE,
  standings: STANDINGS,
  ...OPERATION_TABLES,
} as const satisfies Record<string, readonly ColumnGroup[]>;

export type TableName = keyof typeof SCHEMA;

/** The 14 tables of the summary, by their public names, with the schema table each one uses. */
export const SUMMARY_TABLES = {
  boxscore_player: 'boxscore_player',
  boxscore_team: 'boxscore_team',
  plays: 'plays',
  winprobability: 'winprobability',
  leaders: 'leaders',
  game_info: 'game_info',
  officials: 'officials',
  header: 'header',
  season_series: 'season_series',
  standings: 'summary_standings',
  format: 'format',
  article: 'article',
  injuries: 'summary_injuries',
  news: 'summary_news',
} as const satisfies Record<string, TableName>;

export type SummaryTableName = keyof typeof SUMMARY_TABLES;
export const SUMMARY_TABLE_NAMES = Object.keys(SUMMARY_TABLES) as SummaryTableName[];

export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  /** Present only when some row has a value (scoreboard `<side>_rank`). */
  readonly optional: boolean;
}

const resolved = new Map<string, readonly Column[]>();

/** The columns of a declared table for one league, in order (optional columns included). */
export function tableColumns(table: TableName, league: League): readonly Column[] {
  const key = `${table}:${league}`;
  let columns = resolved.get(key);
  if (!columns) {
    const out: Column[] = [];
    for (const group of SCHEMA[table] as readonly ColumnGroup[]) {
      if (group.only === 'mens' || group.only === 'womens') {
        if (group.only !== league) continue;
      }
      for (const name of group.names)
        out.push({ name, type: group.type, optional: group.only === 'optional' });
    }
    columns = Object.freeze(out);
    resolved.set(key, columns);
  }
  return columns;
}

export type ScoreboardRow = RowOf<typeof SCOREBOARD>;
export type BoxscorePlayerRow = RowOf<typeof BOXSCORE_PLAYER>;
export type BoxscoreTeamRow = RowOf<typeof BOXSCORE_TEAM>;
export type PlaysRow = RowOf<typeof PLAYS>;
export type WinprobabilityRow = RowOf<typeof WINPROBABILITY>;
export type LeadersRow = RowOf<typeof LEADERS>;
export type GameInfoRow = RowOf<typeof GAME_INFO>;
export type OfficialsRow = RowOf<typeof OFFICIALS>;
export type HeaderRow = RowOf<typeof HEADER>;
export type SeasonSeriesRow = RowOf<typeof SEASON_SERIES>;
export type SummaryStandingsRow = RowOf<typeof SUMMARY_STANDINGS>;
export type FormatRow = RowOf<typeof FORMAT>;
export type ArticleRow = RowOf<typeof ARTICLE>;
export type SummaryInjuriesRow = RowOf<typeof SUMMARY_INJURIES>;
export type SummaryNewsRow = RowOf<typeof SUMMARY_NEWS>;
export type NewsRow = RowOf<typeof NEWS>;
export type InjuriesRow = RowOf<typeof INJURIES>;
export type TeamsRow = RowOf<typeof TEAMS>;
export type MensRosterRow = RowOf<typeof ROSTER_MENS>;
export type WomensRosterRow = RowOf<typeof ROSTER_WOMENS>;
export type RosterRow = MensRosterRow | WomensRosterRow;
export type ScheduleRow = RowOf<typeof SCHEDULE>;
export type StandingsRow = RowOf<typeof STANDINGS>;

/** A typed cell, and a row of any table. */
export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell | undefined>;
