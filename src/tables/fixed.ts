import type { League } from '../core/leagues.js';
import { cellsLength, type Cells, type Frame } from './frame.js';
import { tableColumns, type Cell, type Row, type TableName } from './schema.js';

/**
 * The frame of a fixed table. Parsers give every schema column (optional ones too), in order;
 * the optional columns (scoreboard `home_rank`, `away_rank`) are kept, together, only when some
 * row has a value in one of them; otherwise the cells are rebuilt without them.
 */
export function fixedFrame(table: TableName, league: League, cells: Cells): Frame {
  const all = tableColumns(table, league);
  const length = cellsLength(cells);
  let keep: boolean[] | undefined;
  if (all.some((c) => c.optional)) {
    const used = all.some((c, j) => {
      if (!c.optional) return false;
      return 'rows' in cells
        ? cells.rows.some((r) => r[c.name] != null)
        : (cells.data[j] ?? []).some((v) => v != null);
    });
    if (!used) keep = all.map((c) => !c.optional);
  }
  if (!keep) return { columns: all, length, ...cells, exact: true };
  const k = keep;
  const columns = all.filter((_, j) => k[j]);
  if ('data' in cells) return { columns, length, data: cells.data.filter((_, j) => k[j]), exact: true };
  const names = columns.map((c) => c.name);
  const rows = cells.rows.map((r) => {
    const out: Row = {};
    for (const name of names) out[name] = (r[name] ?? null) as Cell;
    return out;
  });
  return { columns, length, rows, exact: true };
}
