import type { League } from '../espn/leagues.js';
import type { Frame } from './frame.js';
import { tableColumns, type Row, type TableName } from './schema.js';

/**
 * The frame of a fixed table. Parsers build each row with every schema column (optional ones
 * too), in order; the optional columns (scoreboard `home_rank`, `away_rank`) are kept, together,
 * only when some row has a value in one of them, and then the rows are rebuilt without the dropped columns.
 */
export function fixedFrame(table: TableName, league: League, rows: readonly Row[]): Frame {
  const all = tableColumns(table, league);
  let columns = all;
  const optional = all.filter((c) => c.optional);
  if (optional.length && !rows.some((r) => optional.some((c) => r[c.name] != null))) {
    columns = all.filter((c) => !c.optional);
  }
  if (columns.length === all.length) return { columns, rows, exact: true };
  const names = columns.map((c) => c.name);
  const trimmed = rows.map((r) => {
    const out: Row = {};
    for (const name of names) out[name] = r[name] ?? null;
    return out;
  });
  return { columns, rows: trimmed, exact: true };
}
