/**
 * The tabular forms: one schema (`schema.ts`), parsers from
 * raw payloads to typed rows, and two flavours (Arrow `Table`, plain rows).
 */
export {
  parseOperation,
  parseFrames,
  columnsFor,
  operationCsv,
  isSummaryTable,
  summaryTableExpected,
  checkSummaryTable,
} from './operation.js';
export type { Flavour, ParseOptions, TabularResult } from './operation.js';
export { parsePlays, parseWinprobability } from './plays.js';
export { parseScoreboard } from './scoreboard.js';
export { toCsv } from './csv.js';
export { tableToIpc, frameToArrow, frameToRows } from './frame.js';
export type { Frame, FrameColumn, Layout } from './frame.js';
export {
  SCHEMA,
  SUMMARY_TABLES,
  SUMMARY_TABLE_NAMES,
  COLUMN_TYPES,
  EXTRA_COLUMN,
  tableColumns,
} from './schema.js';
export type {
  ArticleRow,
  BoxscorePlayerRow,
  BoxscoreTeamRow,
  Cell,
  Column,
  ColumnType,
  FormatRow,
  GameInfoRow,
  HeaderRow,
  InjuriesRow,
  LeadersRow,
  MensRosterRow,
  NewsRow,
  OfficialsRow,
  PlaysRow,
  RosterRow,
  Row,
  ScheduleRow,
  ScoreboardRow,
  SeasonSeriesRow,
  StandingsRow,
  SummaryInjuriesRow,
  SummaryNewsRow,
  SummaryStandingsRow,
  SummaryTableName,
  TableName,
  TeamsRow,
  WinprobabilityRow,
  WomensRosterRow,
} from './schema.js';
