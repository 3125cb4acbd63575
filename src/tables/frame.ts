import { Data, Field, RecordBatch, Schema, Struct, Table, tableToIPC } from 'apache-arrow';
import { arrowColumns, arrowType, type ColumnCell } from './arrow-columns.js';
import { toCharacter } from './cells.js';
import type { Cell, ColumnType, Row } from './schema.js';

export type { ColumnCell } from './arrow-columns.js';

/**
 * A table before it takes a flavour: its columns (name and type, in order) and its cells, either
 * as row objects (`rows`) or column by column (`data[j][i]`, what the Arrow flavour is built from;
 * there a list cell of a text column may be the list itself, see `toTextCell`).
 */
export interface Frame {
  readonly columns: readonly FrameColumn[];
  readonly length: number;
  readonly rows?: readonly Row[];
  readonly data?: readonly (readonly ColumnCell[])[];
  /** The rows already hold exactly `columns`, in order (the fixed parsers build them so). */
  readonly exact?: boolean;
}

/** How a parser lays out its cells: row objects for the rows flavour, columns for Arrow. */
export type Layout = 'rows' | 'columns';

/** Cells as a parser produced them, before the frame's columns are settled. */
export type Cells =
  | { readonly rows: readonly Row[] }
  | { readonly data: readonly (readonly ColumnCell[])[]; readonly length: number };

export function cellsLength(cells: Cells): number {
  return 'rows' in cells ? cells.rows.length : cells.length;
}

export interface FrameColumn {
  readonly name: string;
  readonly type: ColumnType;
}

/**
 * The Arrow flavour: character → Utf8, integer → Int32, double → Float64, logical → Bool, all
 * nullable. The columns are written from the frame's column vectors into Arrow buffers directly
 * (`arrow-columns.ts`); rows are transposed to columns first.
 */
export function frameToArrow(frame: Frame): Table {
  const { schema, struct, types } = cachedSchema(frame.columns);
  const n = frame.length;
  const children = arrowColumns(types, frame.data ?? columnsOfRows(frame), n);
  const data = new Data(struct, 0, n, 0, undefined, children);
  return table(schema, recordBatch(schema, data), n);
}

/** The column vectors of a frame given as rows. */
function columnsOfRows(frame: Frame): ColumnCell[][] {
  const rows = frame.rows ?? [];
  if (frame.exact) return transpose(rows, frame.columns.length);
  return frame.columns.map((c) => rows.map((r) => r[c.name] ?? null));
}

/**
 * A record batch of columns that all have the batch's length. Arrow's constructor re-checks the
 * lengths and clones every field of the schema (`ensureSameLengthData`), about a tenth of the
 * Arrow flavour's cost for a summary; these columns are built with equal lengths, so the batch
 * is assembled directly. test/tables/frame.test.ts checks it behaves like a constructed one.
 */
function recordBatch(schema: Schema, data: Data<Struct>): RecordBatch {
  const batch = Object.create(RecordBatch.prototype) as RecordBatch;
  return Object.assign(batch, { schema, data, _metadata: new Map<string, string>() });
}

/**
 * A table of one batch. Arrow's constructor unwraps its arguments through closures, compares the
 * batch's schema with its own and sums the batch lengths, about 1 µs a table (a summary has 14);
 * here all three are known, so the table is assembled directly, as `recordBatch` is.
 * test/tables/frame.test.ts checks it behaves like a constructed one.
 */
function table(schema: Schema, batch: RecordBatch, n: number): Table {
  const out = Object.create(Table.prototype) as Table;
  return Object.assign(out, { schema, batches: [batch], _offsets: new Uint32Array([0, n]) });
}

interface ArrowLayout {
  readonly schema: Schema;
  readonly struct: Struct;
  readonly types: readonly ColumnType[];
}

// Schemas are immutable and the fixed tables reuse the same few column lists: build each once.
const schemaCache = new Map<string, ArrowLayout>();
// Why bounded: generic tables take their columns from payloads, so keys are not a fixed set.
const SCHEMA_CACHE_LIMIT = 256;

const byColumns = new WeakMap<readonly FrameColumn[], ArrowLayout>();

function cachedSchema(columns: readonly FrameColumn[]): ArrowLayout {
  const known = byColumns.get(columns);
  if (known) return known;
  const key = columns.map((c) => `${c.type[0]}${c.name}`).join('\u0000');
  let hit = schemaCache.get(key);
  if (!hit) {
    const schema = arrowSchema(columns);
    hit = { schema, struct: new Struct(schema.fields), types: columns.map((c) => c.type) };
    if (schemaCache.size < SCHEMA_CACHE_LIMIT) schemaCache.set(key, hit);
  }
  byColumns.set(columns, hit);
  return hit;
}

/** Column arrays of rows that hold exactly the columns in order (reading by position, not by name). */
function transpose(rows: readonly Row[], width: number): Cell[][] {
  const n = rows.length;
  const columns: Cell[][] = [];
  for (let j = 0; j < width; j++) columns.push([]);
  for (let i = 0; i < n; i++) {
    const row = rows[i] as Row;
    let j = 0;
    for (const key in row) (columns[j++] as Cell[]).push(row[key] ?? null);
  }
  return columns;
}

/** The schema of an empty Arrow table with these columns (for callers that need it up front). */
export function arrowSchema(columns: readonly FrameColumn[]): Schema {
  return new Schema(columns.map((c) => new Field(c.name, arrowType(c.type), true)));
}

/** The rows flavour: plain objects with exactly the frame's columns, in order, null for missing. */
export function frameToRows(frame: Frame): Row[] {
  const names = frame.columns.map((c) => c.name);
  const out = new Array<Row>(frame.length);
  if (frame.data) {
    const data = frame.data;
    for (let i = 0; i < frame.length; i++) {
      const row: Row = {};
      for (let j = 0; j < names.length; j++) row[names[j] as string] = rowCell((data[j] as ColumnCell[])[i]);
      out[i] = row;
    }
    return out;
  }
  const rows = frame.rows ?? [];
  if (frame.exact) return rows as Row[];
  for (let i = 0; i < frame.length; i++) {
    const source = rows[i] as Row;
    const row: Row = {};
    for (const name of names) row[name] = source[name] ?? null;
    out[i] = row;
  }
  return out;
}

/** A column vector's cell as a row's: a list kept for its JSON text becomes that text. */
function rowCell(cell: ColumnCell | undefined): Cell {
  return typeof cell === 'object' && cell !== null ? toCharacter(cell) : (cell ?? null);
}

/** Arrow IPC stream format (schema message, record batches, end-of-stream marker). */
export function tableToIpc(table: Table): Uint8Array {
  return tableToIPC(table, 'stream');
}
