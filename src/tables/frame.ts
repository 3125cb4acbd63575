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

/** A table before it takes a flavour: its columns (name and type, in order) and its rows. */
export interface Frame {
  readonly columns: readonly FrameColumn[];
  readonly rows: readonly Row[];
  /** The rows already hold exactly `columns`, in order (the fixed parsers build them so). */
  readonly exact?: boolean;
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
  const n = frame.rows.length;
  const columns = frame.exact ? transpose(frame.rows, frame.columns.length) : undefined;
  const children = frame.columns.map((c, j) =>
    columnData(c.type, columns ? (columns[j] as Cell[]) : frame.rows.map((r) => r[c.name] ?? null), n),
  );
  const data = new Data(struct, 0, n, 0, undefined, children);
  return new Table(schema, [new RecordBatch(schema, data)]);
}

// Schemas are immutable and the fixed tables reuse the same few column lists: build each once.
const schemaCache = new Map<string, { schema: Schema; struct: Struct }>();
// Why bounded: generic tables take their columns from payloads, so keys are not a fixed set.
const SCHEMA_CACHE_LIMIT = 256;

function cachedSchema(columns: readonly FrameColumn[]): { schema: Schema; struct: Struct } {
  const key = columns.map((c) => `${c.type[0]}${c.name}`).join('\u0000');
  let hit = schemaCache.get(key);
  if (!hit) {
    const schema = arrowSchema(columns);
    hit = { schema, struct: new Struct(schema.fields) };
    if (schemaCache.size < SCHEMA_CACHE_LIMIT) schemaCache.set(key, hit);
  }
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
  for (let j = 0; j < width; j++) columns.push(new Array<Cell>(n));
  for (let i = 0; i < n; i++) {
    const values = Object.values(rows[i] as Row);
    for (let j = 0; j < width; j++) (columns[j] as Cell[])[i] = values[j] ?? null;
  }
  return columns;
}

// A bitmap holds one bit per row, in bytes.
const bitmapBytes = (n: number): number => (n + 7) >> 3;

function columnData(type: ColumnType, values: readonly Cell[], n: number): Data {
  const validity = new Uint8Array(bitmapBytes(n));
  let nulls = 0;
  switch (type) {
    case 'integer':
    case 'double': {
      const out = type === 'integer' ? new Int32Array(n) : new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (typeof v === 'number') {
          out[i] = v;
          validity[i >> 3]! |= 1 << (i & 7);
        } else nulls++;
      }
      const arrow: DataType = type === 'integer' ? INT32 : FLOAT64;
      return new Data(arrow, 0, n, nulls, [undefined, out, nulls ? validity : undefined] as never);
    }
    case 'logical': {
      const out = new Uint8Array(bitmapBytes(n));
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (typeof v === 'boolean') {
          if (v) out[i >> 3]! |= 1 << (i & 7);
          validity[i >> 3]! |= 1 << (i & 7);
        } else nulls++;
      }
      return new Data(BOOL, 0, n, nulls, [undefined, out, nulls ? validity : undefined] as never);
    }
    case 'character': {
      const offsets = new Int32Array(n + 1);
      const parts: string[] = [];
      let chars = 0;
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (typeof v === 'string') {
          parts.push(v);
          chars += v.length;
          validity[i >> 3]! |= 1 << (i & 7);
        } else nulls++;
        offsets[i + 1] = chars;
      }
      // One native UTF-8 encode per column; when every character is ASCII, byte offsets equal
      // character offsets, otherwise they are recomputed string by string.
      const joined = parts.join('');
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
      // Buffers in Arrow's order: offsets, values, validity.
      return new Data(UTF8, 0, n, nulls, [offsets, data, nulls ? validity : undefined] as never);
    }
  }
}

/** The schema of an empty Arrow table with these columns (for callers that need it up front). */
export function arrowSchema(columns: readonly FrameColumn[]): Schema {
  return new Schema(columns.map((c) => new Field(c.name, arrowType(c.type), true)));
}

/** The rows flavour: plain objects with exactly the frame's columns, in order, null for missing. */
export function frameToRows(frame: Frame): Row[] {
  if (frame.exact) return frame.rows as Row[];
  const names = frame.columns.map((c) => c.name);
  const out = new Array<Row>(frame.rows.length);
  for (let i = 0; i < frame.rows.length; i++) {
    const source = frame.rows[i] as Row;
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
