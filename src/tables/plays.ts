import type { League } from '../core/leagues.js';
import type { PlayRow } from '../model/events.js';
import { toTextCell, type ColumnCell } from './arrow-columns.js';
import { arr, isObject, obj, toCharacter, toCoordinate, toDouble, toInteger, toLogical } from './cells.js';
import { tableColumns, type PlaysRow, type TableName, type WinprobabilityRow } from './schema.js';

// The schema's row type and the event model's PlayRow must stay the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const playRowMatchesSchema: Same<PlayRow, PlaysRow> = true;
void playRowMatchesSchema;

/**
 * One `plays` row. Plays keep the payload's order (it is not sorted by `sequenceNumber`); the
 * coordinates of plays without a court location are ESPN's sentinels (-214748340, -214748365),
 * read as null so a shot chart needs no filter.
 */
export function playRow(play: Record<string, unknown>): PlayRow {
  const type = obj(play.type);
  const period = obj(play.period);
  const coordinate = obj(play.coordinate);
  return {
    id: toCharacter(play.id),
    sequence_number: toCharacter(play.sequenceNumber),
    text: toCharacter(play.text),
    participants: toCharacter(play.participants),
    wallclock: toCharacter(play.wallclock),
    short_description: toCharacter(play.shortDescription),
    type_id: toCharacter(type.id),
    type_text: toCharacter(type.text),
    period_display_value: toCharacter(period.displayValue),
    clock_display_value: toCharacter(obj(play.clock).displayValue),
    team_id: toCharacter(obj(play.team).id),
    away_score: toInteger(play.awayScore),
    home_score: toInteger(play.homeScore),
    score_value: toInteger(play.scoreValue),
    points_attempted: toInteger(play.pointsAttempted),
    period_number: toInteger(period.number),
    coordinate_x: toCoordinate(coordinate.x),
    coordinate_y: toCoordinate(coordinate.y),
    scoring_play: toLogical(play.scoringPlay),
    shooting_play: toLogical(play.shootingPlay),
  };
}

/** The summary's `plays` table: one row per play object in `plays`, in payload order. */
export function parsePlays(raw: unknown): PlayRow[] {
  const out: PlayRow[] = [];
  for (const play of arr(obj(raw).plays)) if (isObject(play)) out.push(playRow(play));
  return out;
}

/** Column vectors by name, as the schema orders the table's columns. */
function inSchemaOrder(
  table: TableName,
  league: League,
  byName: Readonly<Record<string, ColumnCell[]>>,
  length: number,
): { data: ColumnCell[][]; length: number } {
  const data = tableColumns(table, league).map((c) => {
    const column = byName[c.name];
    // A schema column the column layout does not fill: caught by the flavour agreement test.
    if (!column) throw new Error(`tables: no column vector for ${table}.${c.name}`);
    return column;
  });
  return { data, length };
}

/**
 * The `plays` table column by column, for the Arrow flavour: the cells `playRow` gives, converted
 * the same way (test/tables/arrow-columns.test.ts compares the two on every recorded summary),
 * without a row object per play; `participants` stays a list, its JSON written with the column.
 */
export function playColumns(raw: unknown, league: League): { data: ColumnCell[][]; length: number } {
  const plays = arr(obj(raw).plays);
  // Why sized up front: filled by index, the 20 vectors never grow (and copy) as `push` makes them.
  const size = plays.length;
  const column = (): ColumnCell[] => new Array<ColumnCell>(size);
  const c = {
    id: column(),
    sequence_number: column(),
    text: column(),
    participants: column(),
    wallclock: column(),
    short_description: column(),
    type_id: column(),
    type_text: column(),
    period_display_value: column(),
    clock_display_value: column(),
    team_id: column(),
    away_score: column(),
    home_score: column(),
    score_value: column(),
    points_attempted: column(),
    period_number: column(),
    coordinate_x: column(),
    coordinate_y: column(),
    scoring_play: column(),
    shooting_play: column(),
  } satisfies Record<keyof PlayRow, ColumnCell[]>;
  let i = 0;
  for (const play of plays) {
    if (!isObject(play)) continue;
    const type = obj(play.type);
    const period = obj(play.period);
    const coordinate = obj(play.coordinate);
    c.id[i] = toCharacter(play.id);
    c.sequence_number[i] = toCharacter(play.sequenceNumber);
    c.text[i] = toCharacter(play.text);
    c.participants[i] = toTextCell(play.participants);
    c.wallclock[i] = toCharacter(play.wallclock);
    c.short_description[i] = toCharacter(play.shortDescription);
    c.type_id[i] = toCharacter(type.id);
    c.type_text[i] = toCharacter(type.text);
    c.period_display_value[i] = toCharacter(period.displayValue);
    c.clock_display_value[i] = toCharacter(obj(play.clock).displayValue);
    c.team_id[i] = toCharacter(obj(play.team).id);
    c.away_score[i] = toInteger(play.awayScore);
    c.home_score[i] = toInteger(play.homeScore);
    c.score_value[i] = toInteger(play.scoreValue);
    c.points_attempted[i] = toInteger(play.pointsAttempted);
    c.period_number[i] = toInteger(period.number);
    c.coordinate_x[i] = toCoordinate(coordinate.x);
    c.coordinate_y[i] = toCoordinate(coordinate.y);
    c.scoring_play[i] = toLogical(play.scoringPlay);
    c.shooting_play[i] = toLogical(play.shootingPlay);
    i++;
  }
  // Entries that were not objects left room at the end: drop it.
  if (i < size) for (const v of Object.values(c)) v.length = i;
  return inSchemaOrder('plays', league, c, i);
}

/** The `winprobability` table column by column, for the Arrow flavour (as `parseWinprobability`). */
export function winprobabilityColumns(
  raw: unknown,
  league: League,
): { data: ColumnCell[][]; length: number } {
  const entries = arr(obj(raw).winprobability);
  const size = entries.length;
  const home = new Array<ColumnCell>(size);
  const tie = new Array<ColumnCell>(size);
  const playId = new Array<ColumnCell>(size);
  let i = 0;
  for (const entry of entries) {
    if (!isObject(entry)) continue;
    home[i] = toDouble(entry.homeWinPercentage);
    tie[i] = toDouble(entry.tiePercentage);
    playId[i] = toCharacter(entry.playId);
    i++;
  }
  if (i < size) for (const v of [home, tie, playId]) v.length = i;
  const c = { home_win_percentage: home, tie_percentage: tie, play_id: playId } satisfies Record<
    keyof WinprobabilityRow,
    ColumnCell[]
  >;
  return inSchemaOrder('winprobability', league, c, i);
}

/** The summary's `winprobability` table: one row per entry of `winprobability`. */
export function parseWinprobability(raw: unknown): WinprobabilityRow[] {
  const out: WinprobabilityRow[] = [];
  for (const entry of arr(obj(raw).winprobability)) {
    if (!isObject(entry)) continue;
    out.push({
      home_win_percentage: toDouble(entry.homeWinPercentage),
      tie_percentage: toDouble(entry.tiePercentage),
      play_id: toCharacter(entry.playId),
    });
  }
  return out;
}
