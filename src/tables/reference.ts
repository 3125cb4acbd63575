import type { League } from '../core/leagues.js';
import { arr, isObject, obj, snakeCase, toColour, toLogoList, toSeasonYear } from './cells.js';
import { extract, logosAt, type Extractors } from './extract.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';
import { STANDINGS_VALUE_COLUMNS } from './schema.js';

/** Injuries, team list, roster, team schedule and standings: the fixed reference tables. */

// The athlete id appears in the playercard link (`.../player/_/id/4585618/...`) when the entry has no `athlete.id`.
const LINK_ID = /\/id\/(\d+)/;

function athleteId(athlete: Record<string, unknown>): unknown {
  if (athlete.id !== undefined && athlete.id !== null) return athlete.id;
  for (const link of arr(athlete.links)) {
    const href = obj(link).href;
    const m = typeof href === 'string' ? LINK_ID.exec(href) : null;
    if (m) return m[1];
  }
  return null;
}

/**
 * One item per athlete: the entries of `injuries` are either injury entries (with `athlete`) or
 * team wrappers holding their own `injuries`; entries are grouped by athlete, in first-seen order.
 */
function injuredAthletes(raw: unknown): unknown[] {
  const byKey = new Map<string, { id: unknown; display_name: unknown; injuries: unknown[] }>();
  const items: { id: unknown; display_name: unknown; injuries: unknown[] }[] = [];
  const add = (entry: Record<string, unknown>): void => {
    const athlete = obj(entry.athlete);
    const id = athleteId(athlete);
    const key = id === null ? `#${items.length}` : String(id);
    let item = byKey.get(key);
    if (!item) {
      item = { id, display_name: athlete.displayName, injuries: [] };
      byKey.set(key, item);
      items.push(item);
    }
    item.injuries.push(entry);
  };
  for (const top of arr(obj(raw).injuries)) {
    if (!isObject(top)) continue;
    if (Array.isArray(top.injuries)) {
      for (const entry of top.injuries) if (isObject(entry)) add(entry);
    } else if (isObject(top.athlete)) add(top);
  }
  return items;
}

const INJURIES: Extractors = { id: 'id', display_name: 'display_name', injuries: 'injuries' };

export function injuriesFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('injuries', league, extract('injuries', league, INJURIES, injuredAthletes(raw), layout));
}

const TEAMS: Extractors = {
  team_abbreviation: 'abbreviation',
  team_alternate_color: (t) => toColour(t.alternateColor),
  team_color: (t) => toColour(t.color),
  team_display_name: 'displayName',
  team_id: 'id',
  team_location: 'location',
  team_logos: logosAt('logos'),
  team_name: 'name',
  team_nickname: 'nickname',
  team_short_display_name: 'shortDisplayName',
  team_slug: 'slug',
  team_uid: 'uid',
  team_is_active: 'isActive',
  team_is_all_star: 'isAllStar',
};

/** Teams list: `sports[].leagues[].teams[].team`, one row per team. */
function teamItems(raw: unknown): unknown[] {
  const items: unknown[] = [];
  for (const sport of arr(obj(raw).sports)) {
    for (const league of arr(obj(sport).leagues)) {
      for (const entry of arr(obj(league).teams)) {
        const team = obj(entry).team;
        if (isObject(team)) items.push(team);
      }
    }
  }
  return items;
}

export function teamsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('teams', league, extract('teams', league, TEAMS, teamItems(raw), layout));
}

const ROSTER: Extractors = {
  id: 'id',
  uid: 'uid',
  guid: 'guid',
  first_name: 'firstName',
  last_name: 'lastName',
  full_name: 'fullName',
  display_name: 'displayName',
  short_name: 'shortName',
  display_weight: 'displayWeight',
  display_height: 'displayHeight',
  date_of_birth: 'dateOfBirth',
  links: 'links',
  slug: 'slug',
  jersey: 'jersey',
  injuries: 'injuries',
  teams: 'teams',
  contracts: 'contracts',
  alternate_ids_sdr: 'alternateIds.sdr',
  birth_place_city: 'birthPlace.city',
  birth_place_state: 'birthPlace.state',
  birth_place_country: 'birthPlace.country',
  college_id: 'college.id',
  college_guid: 'college.guid',
  college_mascot: 'college.mascot',
  college_name: 'college.name',
  college_short_name: 'college.shortName',
  college_abbrev: 'college.abbrev',
  college_logos: 'college.logos',
  headshot_href: 'headshot.href',
  headshot_alt: 'headshot.alt',
  position_id: 'position.id',
  position_name: 'position.name',
  position_display_name: 'position.displayName',
  position_abbreviation: 'position.abbreviation',
  contract_season_start_date: 'contract.season.startDate',
  contract_season_end_date: 'contract.season.endDate',
  status_id: 'status.id',
  status_name: 'status.name',
  status_type: 'status.type',
  status_abbreviation: 'status.abbreviation',
  citizenship: 'citizenship',
  hand_type: 'hand.type',
  hand_abbreviation: 'hand.abbreviation',
  hand_display_value: 'hand.displayValue',
  weight: 'weight',
  height: 'height',
  debut_year: 'debutYear',
  contract_trade_kicker_percentage: 'contract.tradeKicker.percentage',
  age: 'age',
  experience_years: 'experience.years',
  contract_bird_status: 'contract.birdStatus',
  contract_incoming_trade_value: 'contract.incomingTradeValue',
  contract_outgoing_trade_value: 'contract.outgoingTradeValue',
  contract_option_type: 'contract.optionType',
  contract_salary: 'contract.salary',
  contract_salary_remaining: 'contract.salaryRemaining',
  contract_years_remaining: 'contract.yearsRemaining',
  contract_season_year: (a) => toSeasonYear(obj(obj(a.contract).season).year),
  contract_trade_kicker_value: 'contract.tradeKicker.value',
  contract_trade_kicker_trade_value: 'contract.tradeKicker.tradeValue',
  position_leaf: 'position.leaf',
  contract_base_year_compensation_active: 'contract.baseYearCompensation.active',
  contract_poison_pill_provision_active: 'contract.poisonPillProvision.active',
  contract_minimum_salary_exception: 'contract.minimumSalaryException',
  contract_trade_kicker_active: 'contract.tradeKicker.active',
  contract_trade_restriction: 'contract.tradeRestriction',
  contract_unsigned_foreign_pick: 'contract.unsignedForeignPick',
  contract_active: 'contract.active',
};

/** Roster athletes: `athletes[]`, or, where upstream groups them by position, `athletes[].items[]`. */
function rosterItems(raw: unknown): unknown[] {
  const items: unknown[] = [];
  for (const entry of arr(obj(raw).athletes)) {
    if (!isObject(entry)) continue;
    if (Array.isArray(entry.items) && entry.id === undefined) items.push(...entry.items);
    else items.push(entry);
  }
  return items;
}

export function rosterFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  const table = league === 'mens' ? 'roster_mens' : 'roster_womens';
  return fixedFrame(table, league, extract(table, league, ROSTER, rosterItems(raw), layout));
}

const SCHEDULE: Extractors = {
  id: 'id',
  date: 'date',
  name: 'name',
  short_name: 'shortName',
  competitions: 'competitions',
  links: 'links',
  season_display_name: 'season.displayName',
  season_type_id: 'seasonType.id',
  season_type_name: 'seasonType.name',
  season_type_abbreviation: 'seasonType.abbreviation',
  time_valid: 'timeValid',
  season_year: (e) => toSeasonYear(obj(e.season).year),
  season_type_type: 'seasonType.type',
};

export function scheduleFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('schedule', league, extract('schedule', league, SCHEDULE, arr(obj(raw).events), layout));
}

// The record-summary stats keep their upstream names (with spaces and dots), lower-cased.
const SUMMARY_STATS = new Set(['overall', 'home', 'road', 'vs. div.', 'vs. conf.', 'last ten games']);

const STANDINGS: Extractors = {
  group_name: 'group.name',
  group_abbreviation: 'group.abbreviation',
  team_id: 'team.id',
  team_name: 'team.name',
  team_abbreviation: 'team.abbreviation',
  team_display_name: 'team.displayName',
  team_location: 'team.location',
  team_logo: (i) => {
    const team = obj(i.team);
    return team.logo ?? toLogoList(arr(team.logos).slice(0, 1));
  },
  ...Object.fromEntries(
    ['overall', 'home', 'road', 'vs. div.', 'vs. conf.', 'last ten games'].map((n) => [
      n,
      (i: Record<string, unknown>) => obj(i.records)[n],
    ]),
  ),
  ...Object.fromEntries(
    STANDINGS_VALUE_COLUMNS.map((n) => [n, (i: Record<string, unknown>) => obj(i.values)[n]]),
  ),
};

/**
 * One item per standings entry at any depth of `children` (conferences, divisions), with the
 * group that holds it. Numeric stats are read from `value` (by snake_cased name); the record
 * summaries (`overall`, `vs. div.`, ...) from `summary` / `displayValue`.
 */
function standingsItems(raw: unknown): unknown[] {
  const items: unknown[] = [];
  const visit = (group: Record<string, unknown>, depth: number): void => {
    // Why: standings nest at most league → conference → division; a deeper payload is malformed.
    if (depth > 8) return;
    for (const entry of arr(obj(group.standings).entries)) {
      if (!isObject(entry)) continue;
      const values: Record<string, unknown> = {};
      const records: Record<string, unknown> = {};
      for (const stat of arr(entry.stats)) {
        const s = obj(stat);
        if (typeof s.name !== 'string') continue;
        const lower = s.name.toLowerCase();
        if (SUMMARY_STATS.has(lower)) records[lower] = s.summary ?? s.displayValue;
        else values[snakeCase(s.name)] = s.value;
      }
      items.push({ group, team: entry.team, values, records });
    }
    for (const child of arr(group.children)) if (isObject(child)) visit(child, depth + 1);
  };
  if (isObject(raw)) visit(raw, 0);
  return items;
}

export function standingsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame(
    'standings',
    league,
    extract('standings', league, STANDINGS, standingsItems(raw), layout),
  );
}
