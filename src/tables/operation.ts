import type { Table } from 'apache-arrow';
import { InvalidOptionsError } from '../core/errors.js';
import type { League } from '../core/leagues.js';
import { getOperation, OPERATIONS, type OperationSpec, type Suffix } from '../espn/operations.js';
import { calendarFrame } from './calendar.js';
import { toCsv } from './csv.js';
import { fixedFrame } from './fixed.js';
import { frameToArrow, frameToRows, type Frame, type Layout } from './frame.js';
import { playerBioFrame, playerInfoFrame, teamFrame } from './entities.js';
import {
  conferencesFrame,
  depthchartsFrame,
  draftFrame,
  statisticsFrame,
  teamHistoryFrame,
  teamLeadersFrame,
  teamRecordFrame,
  teamTransactionsFrame,
  transactionsFrame,
} from './lists.js';
import { newsFrame } from './news.js';
import {
  injuriesFrame,
  rosterFrame,
  rosterTable,
  scheduleFrame,
  standingsFrame,
  teamsFrame,
} from './reference.js';
import { rankingsFrame } from './rankings.js';
import {
  SUMMARY_TABLE_NAMES,
  SUMMARY_TABLES,
  tableColumns,
  type Row,
  type SummaryTableName,
  type TableName,
} from './schema.js';
import { parseScoreboard } from './scoreboard.js';
import { summaryFrame } from './summary.js';

export type Flavour = 'arrow' | 'rows';

export interface ParseOptions {
  flavour?: Flavour;
  /** Spec alias: true selects the rows flavour. */
  return_as_pandas?: boolean;
  /** For summary: pick one table by name. */
  table?: string;
}

export type TabularResult = Table | Row[] | Record<string, Table | Row[]>;

function flavourOf(options: ParseOptions): Flavour {
  const { flavour, return_as_pandas } = options;
  if (flavour !== undefined && flavour !== 'arrow' && flavour !== 'rows') {
    throw new InvalidOptionsError(`flavour must be "arrow" or "rows", got ${JSON.stringify(flavour)}`);
  }
  if (flavour !== undefined) return flavour;
  return return_as_pandas === true ? 'rows' : 'arrow';
}

/** True when `name` is one of the summary's 14 tables (own names only: `toString` is not a table). */
export function isSummaryTable(name: string): name is SummaryTableName {
  return Object.hasOwn(SUMMARY_TABLES, name);
}

/**
 * The one rule for a `table` choice, wherever one is taken (`parseOperation`, the client's call
 * options, the HTTP API's `table=`, `courtside op --table`): only a summary operation has named
 * tables, and the name must be one of them. Returns the expected form when `table` breaks the
 * rule, undefined when it is absent or fits; each caller raises it as its own kind of error.
 */
export function summaryTableExpected(
  operation: Pick<OperationSpec, 'name' | 'result'>,
  table: string | undefined,
): string | undefined {
  if (table === undefined) return undefined;
  if (operation.result !== 'summary') {
    return `no value: ${operation.name} has one table; only the summary operations have named tables`;
  }
  return isSummaryTable(table) ? undefined : `one of ${SUMMARY_TABLE_NAMES.join(', ')}`;
}

/** The summary table `table` names, if any; `InvalidOptionsError` naming `table` when it breaks the rule. */
export function checkSummaryTable(
  operation: Pick<OperationSpec, 'name' | 'result'>,
  table: string | undefined,
): SummaryTableName | undefined {
  const expected = summaryTableExpected(operation, table);
  if (expected !== undefined) {
    throw new InvalidOptionsError(
      `${operation.name}: option "table" has invalid value ${JSON.stringify(table)}; expected ${expected}`,
    );
  }
  return table as SummaryTableName | undefined;
}

interface DeclaredParser {
  table(league: League): TableName;
  frame(raw: unknown, league: League, layout: Layout): Frame;
}

const one = (table: TableName, frame: DeclaredParser['frame']): DeclaredParser => ({
  table: () => table,
  frame,
});

/** Every single-table suffix: its declared table and parser (summary has its own 14 tables). */
const PARSERS: Readonly<Record<Exclude<Suffix, 'summary'>, DeclaredParser>> = {
  scoreboard: one('scoreboard', (raw, league) =>
    fixedFrame('scoreboard', league, { rows: parseScoreboard(raw, league) as unknown as Row[] }),
  ),
  calendar: one('calendar', calendarFrame),
  news: one('news', newsFrame),
  team_news: one('news', newsFrame),
  player_news: one('news', newsFrame),
  injuries: one('injuries', injuriesFrame),
  team_injuries: one('injuries', injuriesFrame),
  transactions: one('transactions', transactionsFrame),
  team_transactions: one('team_transactions', teamTransactionsFrame),
  conferences: one('conferences', conferencesFrame),
  statistics_league: one('statistics_league', statisticsFrame),
  draft: one('draft', draftFrame),
  teams_site: one('teams', teamsFrame),
  team: one('team', teamFrame),
  team_roster: { table: rosterTable, frame: rosterFrame },
  team_schedule: one('schedule', scheduleFrame),
  team_record: one('team_record', teamRecordFrame),
  team_depthcharts: one('team_depthcharts', depthchartsFrame),
  team_history: one('team_history', teamHistoryFrame),
  team_leaders: one('team_leaders', teamLeadersFrame),
  player_info: one('player_info', playerInfoFrame),
  player_bio: one('player_bio', playerBioFrame),
  standings: one('standings', standingsFrame),
  rankings: one('rankings', rankingsFrame),
};

/** The declared parser of a single-table operation. */
function parserOf(operation: OperationSpec): DeclaredParser | undefined {
  return operation.suffix === 'summary' ? undefined : PARSERS[operation.suffix];
}

/** The frame of a single-table operation. */
function operationFrame(operation: OperationSpec, raw: unknown, layout: Layout): Frame {
  const parser = parserOf(operation) as DeclaredParser;
  return parser.frame(raw, operation.league, layout);
}

/**
 * The frames of an operation's tabular form: one for most operations, the 14 named tables for
 * summary (or the one named by `table`). Pure; never throws on the payload, only on options.
 * `layout: 'columns'` builds cells column by column (for Arrow) where the parser can.
 */
export function parseFrames(
  operationName: string,
  raw: unknown,
  table?: string,
  layout: Layout = 'rows',
): Frame | Record<string, Frame> {
  const operation = getOperation(operationName);
  if (operation.result === 'summary') {
    const one = checkSummaryTable(operation, table);
    if (one) return summaryFrame(raw, operation.league, one, layout);
    const out: Record<string, Frame> = {};
    for (const name of SUMMARY_TABLE_NAMES) out[name] = summaryFrame(raw, operation.league, name, layout);
    return out;
  }
  checkSummaryTable(operation, table);
  return operationFrame(operation, raw, layout);
}

function isFrame(value: Frame | Record<string, Frame>): value is Frame {
  return typeof (value as Frame).length === 'number' && Array.isArray((value as Frame).columns);
}

/**
 * The tabular form of a payload the caller already holds (no I/O): an Arrow `Table` by default,
 * plain row objects with `flavour: 'rows'` (or `return_as_pandas: true`); summary gives a record
 * of its 14 tables unless `table` names one. Throws `UnknownOperationError` for an unknown
 * operation and `InvalidOptionsError` for bad options; any payload parses.
 */
export function parseOperation(operation: string, raw: unknown, options: ParseOptions = {}): TabularResult {
  const flavour = flavourOf(options ?? {});
  const frames = parseFrames(operation, raw, options?.table, flavour === 'rows' ? 'rows' : 'columns');
  const finish = flavour === 'rows' ? frameToRows : frameToArrow;
  if (isFrame(frames)) return finish(frames);
  const out: Record<string, Table | Row[]> = {};
  for (const [name, frame] of Object.entries(frames)) out[name] = finish(frame);
  return out;
}

/**
 * The declared columns of an operation's table (summary: of the named table), in order; undefined
 * for unknown operations and for summary without `table`. The scoreboard's optional
 * `home_rank` / `away_rank` are not included (they exist only when a team is ranked).
 */
export function columnsFor(operationName: string, table?: string): readonly string[] | undefined {
  const operation = OPERATIONS.get(operationName);
  if (!operation) return undefined;
  let name: TableName | undefined;
  if (operation.result === 'summary') {
    if (table === undefined || !isSummaryTable(table)) return undefined;
    name = SUMMARY_TABLES[table];
  } else {
    name = parserOf(operation)?.table(operation.league);
  }
  if (!name) return undefined;
  return tableColumns(name, operation.league)
    .filter((c) => !c.optional)
    .map((c) => c.name);
}

/**
 * CSV of one table of an operation's payload, with exactly that table's columns (including the
 * optional ones when present). Summary needs `table`.
 */
export function operationCsv(operation: string, raw: unknown, table?: string): string {
  const frames = parseFrames(operation, raw, table);
  if (!isFrame(frames)) {
    throw new InvalidOptionsError(
      `table: CSV of ${operation} needs one table, one of ${SUMMARY_TABLE_NAMES.join(', ')}`,
    );
  }
  return toCsv(
    frameToRows(frames),
    frames.columns.map((c) => c.name),
  );
}
