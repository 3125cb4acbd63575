import { EXTRA_COLUMN, g } from './column-groups.js';

/**
 * The declared tables of the operations that have no fixed table of their own
 * (calendar, transactions, groups, league statistics, draft, team entity, team record, depth
 * charts, team history, team leaders, athlete, athlete bio). Each column was chosen from what the
 * recorded payloads hold, or, for an operation with no recording, from the fields the
 * simulator's payload and ESPN's documented shape share (docs/tables.md says which). Every table
 * ends with `extra`: the JSON of an item's keys beyond these columns, so a payload with new keys
 * never adds a column.
 */

const EXTRA = g('character', [EXTRA_COLUMN]);

/** One row per date of a date-list calendar, or per entry of a sectioned one. */
const CALENDAR = [
  g('character', ['date', 'label', 'detail', 'value', 'start_date', 'end_date', 'season_label']),
  g('integer', ['season_type']),
  EXTRA,
] as const;

/** The columns of a team object as ESPN nests it in lists (transactions), `team_` first. */
const NESTED_TEAM = [
  'team_id',
  'team_uid',
  'team_abbreviation',
  'team_display_name',
  'team_location',
  'team_name',
  'team_color',
  'team_alternate_color',
  'team_logos',
  'team_links',
] as const;

/** League and team transactions: one row per transaction. */
const TRANSACTIONS = [g('character', ['date', 'description', ...NESTED_TEAM]), EXTRA] as const;

/** Groups: one row per conference; its divisions (with their teams) stay one JSON list. */
const CONFERENCES = [g('character', ['name', 'abbreviation', 'children']), EXTRA] as const;

/** League statistics and team leaders: one row per stat category, its leaders one JSON list. */
const LEADER_CATEGORIES = [
  g('character', ['name', 'display_name', 'short_display_name', 'abbreviation', 'leaders']),
  EXTRA,
] as const;

/** The draft: one row per pick. */
const DRAFT = [
  g('character', [
    'status',
    'team_id',
    'trade_note',
    'athlete_id',
    'athlete_uid',
    'athlete_guid',
    'athlete_alternative_id',
    'athlete_display_name',
    'athlete_display_height',
    'athlete_display_weight',
    'athlete_position_id',
    'athlete_team_abbreviation',
    'athlete_team_location',
    'athlete_team_name',
    'athlete_team_short_display_name',
    'athlete_headshot_href',
    'athlete_link',
    'athlete_pro_link',
    'athlete_league_affiliation',
    'athlete_attributes',
  ]),
  g('integer', ['pick', 'overall', 'round']),
  g('logical', ['traded']),
  EXTRA,
] as const;

/** The team entity: one row. */
const TEAM = [
  g('character', [
    'id',
    'uid',
    'slug',
    'location',
    'name',
    'nickname',
    'abbreviation',
    'display_name',
    'short_display_name',
    'color',
    'alternate_color',
    'logos',
    'links',
    'record_items',
    'groups_id',
    'groups_parent_id',
    'franchise_id',
    'standing_summary',
    'next_event',
  ]),
  g('logical', ['is_active', 'is_all_star', 'groups_is_conference']),
  EXTRA,
] as const;

/** The team record: one row per split (overall, home, road, ...). */
const TEAM_RECORD = [
  g('character', ['description', 'type', 'summary', 'stats']),
  g('integer', ['wins', 'losses']),
  EXTRA,
] as const;

/** Depth charts: one row per athlete per position per chart. */
const TEAM_DEPTHCHARTS = [
  g('character', [
    'depthchart_id',
    'depthchart_name',
    'position_key',
    'position_id',
    'position_name',
    'position_display_name',
    'position_abbreviation',
    'position_parent_id',
    'position_parent_name',
    'position_parent_display_name',
    'position_parent_abbreviation',
    'athlete_id',
    'athlete_uid',
    'athlete_guid',
    'athlete_display_name',
    'athlete_short_name',
    'athlete_links',
    'athlete_injuries',
  ]),
  g('integer', ['depth']),
  g('logical', ['position_leaf', 'position_parent_leaf']),
  EXTRA,
] as const;

/** Team history: one row per season. */
const TEAM_HISTORY = [g('integer', ['season']), g('character', ['record', 'result']), EXTRA] as const;

/** The athlete entity: one row; measures typed as in the men's roster (weight, height as doubles). */
const PLAYER_INFO = [
  g('character', [
    'id',
    'uid',
    'guid',
    'first_name',
    'last_name',
    'full_name',
    'display_name',
    'short_name',
    'display_weight',
    'display_height',
    'date_of_birth',
    'slug',
    'jersey',
    'links',
    'injuries',
    'alternate_ids_sdr',
    'birth_place_city',
    'birth_place_state',
    'birth_place_country',
    'headshot_href',
    'headshot_alt',
    'position_id',
    'position_name',
    'position_display_name',
    'position_abbreviation',
    'status_id',
    'status_name',
    'status_type',
    'status_abbreviation',
    'hand_type',
    'hand_abbreviation',
    'hand_display_value',
    'team_id',
  ]),
  g('double', ['weight', 'height', 'debut_year']),
  g('integer', ['age', 'experience_years']),
  g('logical', ['position_leaf', 'active']),
  EXTRA,
] as const;

/** The athlete bio: one row; its team history and awards are JSON lists. */
const PLAYER_BIO = [
  g('character', ['athlete_id', 'athlete_display_name', 'team_history', 'awards']),
  EXTRA,
] as const;

/**
 * The college polls: one row per ranked team of each poll (AP, coaches'), the poll's fields
 * first, with the columns of the seed's `espn_mbb_rankings` that the payload carries.
 */
const RANKINGS = [
  g('character', [
    'id',
    'name',
    'short_name',
    'type',
    'headline',
    'short_headline',
    'trend',
    'date',
    'last_updated',
    'record_summary',
    'team_id',
    'team_uid',
    'team_location',
    'team_name',
    'team_nickname',
    'team_abbreviation',
    'team_color',
    'team_logo',
    'occurrence_type',
    'occurrence_value',
    'occurrence_display_value',
  ]),
  g('integer', ['current', 'previous', 'first_place_votes', 'occurrence_number']),
  g('double', ['points']),
  g('logical', ['occurrence_last']),
  EXTRA,
] as const;

/** The declared tables of these operations, by table name (the operation suffix). */
export const OPERATION_TABLES = {
  calendar: CALENDAR,
  transactions: TRANSACTIONS,
  team_transactions: TRANSACTIONS,
  conferences: CONFERENCES,
  statistics_league: LEADER_CATEGORIES,
  team_leaders: LEADER_CATEGORIES,
  draft: DRAFT,
  team: TEAM,
  team_record: TEAM_RECORD,
  team_depthcharts: TEAM_DEPTHCHARTS,
  team_history: TEAM_HISTORY,
  player_info: PLAYER_INFO,
  player_bio: PLAYER_BIO,
  rankings: RANKINGS,
} as const;

export type OperationTableName = keyof typeof OPERATION_TABLES;
