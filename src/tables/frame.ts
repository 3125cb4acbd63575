import {
  Bool,
  Field,
  Float64,
  Int32,
  Data,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  tableToIPC,
  type DataType,
} from 'apache-arrow';
import { Buffer } from 'node:buffer';
import type { Cell, ColumnType, Row } from './schema.js';

/**
 * A table before it takes a flavour: its columns (name and type, in order) and its cells, either
 * as row objects (`rows`) or column by column (`data[j][i]`, what the Arrow flavour is built from).
 */
export interface Frame {
  readonly columns: readonly FrameColumn[];
  readonly length: number;
  readonly rows?: readonly Row[];
  readonly data?: readonly (readonly Cell[])[];
  /** The rows already hold exactly `columns`, in order (the fixed parsers build them so). */
  readonly exact?: boolean;
}

/** How a parser lays out its cells: row objects for the rows flavour, columns for Arrow. */
export type Layout = 'rows' | 'columns';

/** Cells as a parser produced them, before the frame's columns are settled. */
export type Cells =
  | { readonly rows: readonly Row[] }
  | { readonly data: readonly (readonly Cell[])[]; readonly length: number };

export function cellsLength(cells: Cells): number {
  return 'rows' in cells ? cells.rows.length : cells.length;
}

export interface FrameColumn {
  readonly name: string;
  readonly type: ColumnType;
}

function arrowType(type: ColumnType): DataType {
  switch (type) {
    case 'character':
      return new Utf8();
    case 'integer':
      return new Int32();
    case 'double':
      return new Float64();
    case 'logical':
      return new Bool();
  }
}

/**
 * The Arrow flavour: character → Utf8, integer → Int32, double → Float64, logical → Bool, all
 * nullable. Columns are written straight into Arrow buffers (validity bitmap, values, offsets):
 * several times faster than Arrow's generic builders for tables of this size.
 */
export function frameToArrow(frame: Frame): Table {
  const { schema, struct } = cachedSchema(frame.columns);
  const n = frame.length;
  const rows = frame.rows ?? [];
  const columns = frame.data ?? (frame.exact ? transpose(rows, frame.columns.length) : undefined);
  const children = frame.columns.map((c, j) =>
    columnData(c.type, columns ? (columns[j] as Cell[]) : rows.map((r) => r[c.name] ?? null), n),
  );
  const data = new Data(struct, 0, n, 0, undefined, children);
  // The batch's own schema object lets the Table skip a field-by-field schema comparison.
  return new Table([recordBatch(schema, data)]);
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

// Schemas are immutable and the fixed tables reuse the same few column lists: build each once.
const schemaCache = new Map<string, { schema: Schema; struct: Struct }>();
// Why bounded: generic tables take their columns from payloads, so keys are not a fixed set.
const SCHEMA_CACHE_LIMIT = 256;

const byColumns = new WeakMap<readonly FrameColumn[], { schema: Schema; struct: Struct }>();

function cachedSchema(columns: readonly FrameColumn[]): { schema: Schema; struct: Struct } {
  const known = byColumns.get(columns);
  if (known) return known;
  const key = columns.map((c) => `${c.type[0]}${c.name}`).join('\u0000');
  let hit = schemaCache.get(key);
  if (!hit) {
    const schema = arrowSchema(columns);
    hit = { schema, struct: new Struct(schema.fields) };
    if (schemaCache.size < SCHEMA_CACHE_LIMIT) schemaCache.set(key, hit);
  }
  byColumns.set(columns, hit);
  return hit;
}

const UTF8 = new Utf8();
const INT32 = new Int32();
const FLOAT64 = new Float64();
const BOOL = new Bool();

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

// A bitmap holds one bit per row, in bytes.
const bitmapBytes = (n: number): number => (n + 7) >> 3;

/** One column's Arrow data. One function per type keeps each loop monomorphic (it is hot). */
function columnData(type: ColumnType, values: readonly Cell[], n: number): Data {
  switch (type) {
    case 'integer':
      return numberColumn(INT32, new Int32Array(n), values, n);
    case 'double':
      return numberColumn(FLOAT64, new Float64Array(n), values, n);
    case 'logical':
      return boolColumn(values, n);
    case 'character':
      return utf8Column(values, n);
  }
}

function numberColumn(
  type: DataType,
  out: Int32Array | Float64Array,
  values: readonly Cell[],
  n: number,
): Data {
  const validity = new Uint8Array(bitmapBytes(n));
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'number') {
      out[i] = v;
      validity[i >> 3]! |= 1 << (i & 7);
    } else nulls++;
  }
  // Buffers in Arrow's order: offsets, values, validity.
  return new Data(type, 0, n, nulls, [undefined, out, nulls ? validity : undefined] as never);
}

function boolColumn(values: readonly Cell[], n: number): Data {
  const validity = new Uint8Array(bitmapBytes(n));
  const out = new Uint8Array(bitmapBytes(n));
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'boolean') {
      if (v) out[i >> 3]! |= 1 << (i & 7);
      validity[i >> 3]! |= 1 << (i & 7);
    } else nulls++;
  }
  return new Data(BOOL, 0, n, nulls, [undefined, out, nulls ? validity : undefined] as never);
}

function utf8Column(values: readonly Cell[], n: number): Data {
  const validity = new Uint8Array(bitmapBytes(n));
  const offsets = new Int32Array(n + 1);
  let joined = '';
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'string') {
      joined += v;
      validity[i >> 3]! |= 1 << (i & 7);
    } else nulls++;
    offsets[i + 1] = joined.length;
  }
  // One native UTF-8 encode per column; when every character is ASCII, byte offsets equal
  // character offsets, otherwise they are recomputed string by string.
  const bytes = Buffer.from(joined, 'utf8');
  if (bytes.length !== joined.length) {
    let pos = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (typeof v === 'string') pos += Buffer.byteLength(v, 'utf8');
      offsets[i + 1] = pos;
    }
  }
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return new Data(UTF8, 0, n, nulls, [offsets, data, nulls ? validity : undefined] as never);
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
      for (let j = 0; j < names.length; j++) row[names[j] as string] = (data[j] as Cell[])[i] ?? null;
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

/** Arrow IPC stream format (schema message, record batches, end-of-stream marker). */
export function tableToIpc(table: Table): Uint8Array {
  return tableToIPC(table, 'stream');
}
