import type { League } from '../core/leagues.js';
import { arr, isObject, obj, toColour, valueOrDisplay } from './cells.js';
import { byPath, extract, logosAt, type Extractors } from './extract.js';
import { withExtra } from './extra.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';
import type { TableName } from './schema.js';

/**
 * The list operations beyond the named tables: transactions, groups, league statistics and
 * team leaders, the draft, the team record, depth charts and team history. Each reads one
 * declared list of its payload, one row per item; keys beyond the table's columns go to `extra`.
 */

function frameOf(
  table: TableName,
  extractors: Extractors,
  items: readonly unknown[],
  league: League,
  layout: Layout,
): Frame {
  return fixedFrame(table, league, extract(table, league, extractors, items, layout));
}

/** A team object nested in an item under `under`, as the `team_*` columns. */
function nestedTeam(under: string): { extractors: Extractors; reads: string[] } {
  const at = (i: Record<string, unknown>): Record<string, unknown> => obj(i[under]);
  return {
    extractors: {
      ...byPath(['id', 'uid', 'abbreviation', 'displayName', 'location', 'name', 'links'], {
        under,
        prefix: 'team',
      }),
      team_color: (i) => toColour(at(i).color),
      team_alternate_color: (i) => toColour(at(i).alternateColor),
      team_logos: logosAt(`${under}.logos`),
    },
    reads: [`${under}.color`, `${under}.alternateColor`, `${under}.logos`],
  };
}

const TEAM = nestedTeam('team');
const TRANSACTIONS = withExtra({ ...byPath(['date', 'description']), ...TEAM.extractors }, TEAM.reads);

export function transactionsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('transactions', TRANSACTIONS, arr(obj(raw).transactions), league, layout);
}

export function teamTransactionsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('team_transactions', TRANSACTIONS, arr(obj(raw).transactions), league, layout);
}

const CONFERENCES = withExtra(byPath(['name', 'abbreviation', 'children']));

export function conferencesFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('conferences', CONFERENCES, arr(obj(raw).groups), league, layout);
}

const LEADER_CATEGORIES = withExtra(
  byPath(['name', 'displayName', 'shortDisplayName', 'abbreviation', 'leaders']),
);

/** The stat categories: `stats.categories`, `categories` or `leaders.categories` (the first present). */
function categories(raw: unknown): readonly unknown[] {
  const top = obj(raw);
  for (const list of [obj(top.stats).categories, top.categories, obj(top.leaders).categories]) {
    if (Array.isArray(list)) return list;
  }
  return [];
}

export function statisticsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('statistics_league', LEADER_CATEGORIES, categories(raw), league, layout);
}

export function teamLeadersFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('team_leaders', LEADER_CATEGORIES, categories(raw), league, layout);
}

const DRAFT = withExtra(
  byPath([
    'status',
    'teamId',
    'tradeNote',
    'athlete.id',
    'athlete.uid',
    'athlete.guid',
    'athlete.alternativeId',
    'athlete.displayName',
    'athlete.displayHeight',
    'athlete.displayWeight',
    'athlete.position.id',
    'athlete.team.abbreviation',
    'athlete.team.location',
    'athlete.team.name',
    'athlete.team.shortDisplayName',
    'athlete.headshot.href',
    'athlete.link',
    'athlete.proLink',
    'athlete.leagueAffiliation',
    'athlete.attributes',
    'pick',
    'overall',
    'round',
    'traded',
  ]),
);

export function draftFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('draft', DRAFT, arr(obj(raw).picks), league, layout);
}

/** A stat of a record item by name, its value or the number its display value shows. */
function recordStat(name: string) {
  return (item: Record<string, unknown>): unknown => {
    for (const stat of arr(item.stats)) {
      const s = obj(stat);
      if (s.name === name) return valueOrDisplay(s.value, s.displayValue);
    }
    return null;
  };
}

const TEAM_RECORD = withExtra({
  ...byPath(['description', 'type', 'summary', 'stats']),
  wins: recordStat('wins'),
  losses: recordStat('losses'),
});

/** The record's items: `items`, or those of `team.record` / `record` when the payload wraps them. */
function recordItems(raw: unknown): readonly unknown[] {
  const top = obj(raw);
  for (const list of [top.items, obj(obj(top.team).record).items, obj(top.record).items]) {
    if (Array.isArray(list)) return list;
  }
  return [];
}

export function teamRecordFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('team_record', TEAM_RECORD, recordItems(raw), league, layout);
}

const DEPTHCHARTS = withExtra({
  ...byPath(['depthchart_id', 'depthchart_name', 'position_key', 'depth']),
  ...byPath(
    [
      'id',
      'name',
      'displayName',
      'abbreviation',
      'leaf',
      'parent.id',
      'parent.name',
      'parent.displayName',
      'parent.abbreviation',
      'parent.leaf',
    ],
    { under: 'position', prefix: 'position' },
  ),
  ...byPath(['id', 'uid', 'guid', 'displayName', 'shortName', 'links', 'injuries'], {
    under: 'athlete',
    prefix: 'athlete',
  }),
});

/** One item per athlete per position per chart, with the chart, the position key and the depth. */
function depthchartItems(raw: unknown): unknown[] {
  const items: unknown[] = [];
  for (const chart of arr(obj(raw).depthchart)) {
    const c = obj(chart);
    for (const [key, slot] of Object.entries(obj(c.positions))) {
      const s = obj(slot);
      arr(s.athletes).forEach((athlete, i) => {
        if (!isObject(athlete)) return;
        items.push({
          depthchart_id: c.id,
          depthchart_name: c.name,
          position_key: key,
          position: s.position,
          // Why +1: the depth order is 1-based (1 = starter), as depth charts are read.
          depth: i + 1,
          athlete,
        });
      });
    }
  }
  return items;
}

export function depthchartsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('team_depthcharts', DEPTHCHARTS, depthchartItems(raw), league, layout);
}

const TEAM_HISTORY = withExtra(byPath(['season', 'record', 'result']));

function historyItems(raw: unknown): readonly unknown[] {
  const top = obj(raw);
  for (const list of [top.items, top.seasons, top.history]) if (Array.isArray(list)) return list;
  return [];
}

export function teamHistoryFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return frameOf('team_history', TEAM_HISTORY, historyItems(raw), league, layout);
}
