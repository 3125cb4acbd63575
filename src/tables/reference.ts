import type { League } from '../core/leagues.js';
import {
  arr,
  isObject,
  obj,
  snakeCase,
  toColour,
  toLogoList,
  toSeasonYear,
  valueOrDisplay,
} from './cells.js';
import { byPath, extract, logosAt, type Extractors } from './extract.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';
import { STANDINGS_RECORD_COLUMNS, STANDINGS_VALUE_COLUMNS } from './schema.js';

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
  ...byPath(
    [
      'abbreviation',
      'displayName',
      'id',
      'location',
      'name',
      'nickname',
      'shortDisplayName',
      'slug',
      'uid',
      'isActive',
      'isAllStar',
    ],
    { prefix: 'team' },
  ),
  team_alternate_color: (t) => toColour(t.alternateColor),
  team_color: (t) => toColour(t.color),
  team_logos: logosAt('logos'),
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
  ...byPath([
    'id',
    'uid',
    'guid',
    'firstName',
    'lastName',
    'fullName',
    'displayName',
    'shortName',
    'displayWeight',
    'displayHeight',
    'weight',
    'height',
    'age',
    'dateOfBirth',
    'links',
    'slug',
    'jersey',
    'injuries',
    'teams',
    'contracts',
    'alternateIds.sdr',
    'birthPlace.city',
    'birthPlace.state',
    'birthPlace.country',
    'citizenship',
    'debutYear',
    'experience.years',
    'headshot.href',
    'headshot.alt',
    'hand.type',
    'hand.abbreviation',
    'hand.displayValue',
    'status.id',
    'status.name',
    'status.type',
    'status.abbreviation',
    'college.id',
    'college.guid',
    'college.mascot',
    'college.name',
    'college.shortName',
    'college.abbrev',
    'position.id',
    'position.name',
    'position.displayName',
    'position.abbreviation',
    'position.leaf',
  ]),
  ...byPath(
    [
      'season.startDate',
      'season.endDate',
      'birdStatus',
      'incomingTradeValue',
      'outgoingTradeValue',
      'optionType',
      'salary',
      'salaryRemaining',
      'yearsRemaining',
      'tradeKicker.percentage',
      'tradeKicker.value',
      'tradeKicker.tradeValue',
      'tradeKicker.active',
      'baseYearCompensation.active',
      'poisonPillProvision.active',
      'minimumSalaryException',
      'tradeRestriction',
      'unsignedForeignPick',
      'active',
    ],
    { prefix: 'contract', under: 'contract' },
  ),
  college_logos: logosAt('college.logos'),
  contract_season_year: (a) => toSeasonYear(obj(obj(a.contract).season).year),
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

/** The roster table of a league: the two leagues' rosters have different columns. */
export function rosterTable(league: League): 'roster_mens' | 'roster_womens' {
  return league === 'mens' || league === 'mens-college' ? 'roster_mens' : 'roster_womens';
}

export function rosterFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  const table = rosterTable(league);
  return fixedFrame(table, league, extract(table, league, ROSTER, rosterItems(raw), layout));
}

const SCHEDULE: Extractors = {
  ...byPath([
    'id',
    'date',
    'name',
    'shortName',
    'competitions',
    'links',
    'timeValid',
    'season.displayName',
    'seasonType.id',
    'seasonType.name',
    'seasonType.abbreviation',
    'seasonType.type',
  ]),
  season_year: (e) => toSeasonYear(obj(e.season).year),
};

export function scheduleFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('schedule', league, extract('schedule', league, SCHEDULE, arr(obj(raw).events), layout));
}

// The record summaries are read by their lower-cased upstream names.
const RECORD_NAMES: ReadonlySet<string> = new Set(STANDINGS_RECORD_COLUMNS);

const STANDINGS: Extractors = {
  ...byPath([
    'group.name',
    'group.abbreviation',
    'team.id',
    'team.name',
    'team.abbreviation',
    'team.displayName',
    'team.location',
  ]),
  team_logo: (i) => {
    const team = obj(i.team);
    return team.logo ?? toLogoList(arr(team.logos).slice(0, 1));
  },
  // Getters, not paths: the record names hold dots (`vs. div.`).
  ...Object.fromEntries(
    STANDINGS_RECORD_COLUMNS.map((n) => [n, (i: Record<string, unknown>) => obj(i.records)[n]]),
  ),
  ...byPath(STANDINGS_VALUE_COLUMNS, { under: 'values' }),
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
        if (RECORD_NAMES.has(lower)) records[lower] = s.summary ?? s.displayValue;
        else values[snakeCase(s.name)] = valueOrDisplay(s.value, s.displayValue);
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
