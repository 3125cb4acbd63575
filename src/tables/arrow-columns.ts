import { Buffer } from 'node:buffer';
import { Bool, Data, Float64, Int32, Utf8, type DataType } from 'apache-arrow';
import { toCharacter } from './cells.js';
import type { Cell, ColumnType } from './schema.js';
import { Utf8JsonWriter } from './utf8-json.js';

/**
 * Arrow column data written straight from a table's column vectors (`columns[j][i]`, cells
 * already converted to their column's type), without row objects.
 *
 * Why one buffer per table: a typed array of its own costs about a microsecond to allocate off
 * the V8 heap (more than filling it, for most of these columns) and a summary has some 170
 * columns. Every column's validity bitmap, values and offsets are views into the table's one
 * buffer, each at an 8-byte boundary (as Arrow recommends, and as a `Float64Array` view
 * requires), followed by the UTF-8 bytes of all its text columns.
 *
 * Why the short strings of a table are encoded together: per string, a call into the encoder
 * costs far more than the copy (a summary has some 6,600 strings, most under 20 characters).
 */

/**
 * A cell of a column vector: a cell of its column's type or, in a text column, a list (an array
 * or object) standing for its JSON text, written when the Arrow column is built.
 */
export type ColumnCell = Cell | object;

/**
 * A text column's cell in the column layout: as `toCharacter`, except that a list stays as it is,
 * its JSON written straight to UTF-8 with the rest of the column (`utf8-json.ts`) instead of made
 * a string first.
 */
export function toTextCell(value: unknown): ColumnCell {
  return typeof value === 'object' && value !== null ? value : toCharacter(value);
}

const UTF8 = new Utf8();
const INT32 = new Int32();
const FLOAT64 = new Float64();
const BOOL = new Bool();

/** The Arrow type of a column type: character → Utf8, integer → Int32, double → Float64, logical → Bool. */
export function arrowType(type: ColumnType): DataType {
  switch (type) {
    case 'character':
      return UTF8;
    case 'integer':
      return INT32;
    case 'double':
      return FLOAT64;
    case 'logical':
      return BOOL;
  }
}

// Buffers start at multiples of 8 bytes.
const align8 = (bytes: number): number => (bytes + 7) & ~7;
// A bitmap holds one bit per row.
const bitmapBytes = (n: number): number => (n + 7) >> 3;

/** Bytes of a column's validity bitmap and values (or offsets) in the table's buffer. */
function fixedBytes(type: ColumnType, n: number): number {
  const validity = align8(bitmapBytes(n));
  switch (type) {
    case 'integer':
      return validity + align8(4 * n);
    case 'double':
      return validity + 8 * n;
    case 'logical':
      return validity + align8(bitmapBytes(n));
    case 'character':
      return validity + align8(4 * (n + 1));
  }
}

/** Where a column's buffers sit in the table's fixed part: byte offsets, each a multiple of 8. */
interface Placed {
  readonly type: ColumnType;
  /** Its validity bitmap. */
  readonly validityAt: number;
  /** Its values (integer, double, logical) or offsets (character). */
  readonly valuesAt: number;
  nulls: number;
}

/** A text column waiting for the table's bytes: its offsets are filled, its bytes not yet placed. */
interface TextColumn extends Placed {
  readonly cells: readonly ColumnCell[];
  /** Its joined text (joined columns only). */
  text: string;
  /** Where its bytes start in the writer, once placed. */
  start: number;
}

// A table's fixed part (bitmaps, values, offsets) is written here first, through one view of each
// width over all of it, then copied with the text bytes into the table's one buffer. Why: a
// typed-array view costs some 0.2 µs to make, more than filling most of these columns; written
// this way a column needs only the views its Arrow data keeps (no bitmap when nothing is null).
// It grows to the largest table seen; building is synchronous, so two tables never share it.
let scratch = new ArrayBuffer(1 << 16);
let bytes8 = new Uint8Array(scratch);
let ints32 = new Int32Array(scratch);
let floats64 = new Float64Array(scratch);

function reserveScratch(size: number): void {
  if (size <= scratch.byteLength) return;
  scratch = new ArrayBuffer(Math.max(size, 2 * scratch.byteLength));
  bytes8 = new Uint8Array(scratch);
  ints32 = new Int32Array(scratch);
  floats64 = new Float64Array(scratch);
}

// The table's text bytes are written here, then copied into the table's buffer; it grows to
// the largest table seen (some 70 KB for a 450-play summary's plays).
const writer = new Utf8JsonWriter();
const encoder = new TextEncoder();

// Why: `JSON.stringify` costs some 0.3 µs a call before it writes a character, then writes
// faster than the JSON writer. A table of many rows holds small lists in a row (a play's
// `participants`), where the writer is twice as fast; a table of a few rows holds whole
// documents (a game's `competitions`, an article's `images`), where `JSON.stringify` is.
const WRITER_MIN_ROWS = 32;

// Why: a text this long is cheaper to encode on its own than to copy into the joined string first.
const LONG_TEXT = 1024;

/**
 * The Arrow data of every column of a table: `types[j]` is column j's type, `columns[j]` its `n`
 * cells. A cell that is not of its column's type (a parser's bug) is written as null.
 *
 * Text columns are written in one pass each: validity bits and offsets straight into the
 * fixed part, the strings joined into one string per table (a rope, flattened once by the
 * encoder), encoded at the end by one `TextEncoder.encodeInto`. Offsets are first in characters;
 * when every character is ASCII (nearly always) they are the byte offsets already. A column
 * holding lists in a table of many rows is written cell by cell by the JSON writer instead.
 */
export function arrowColumns(
  types: readonly ColumnType[],
  columns: readonly (readonly ColumnCell[])[],
  n: number,
): Data[] {
  let fixed = 0;
  for (const type of types) fixed += fixedBytes(type, n);
  reserveScratch(fixed);
  // The bitmaps need zeros; null slots and padding then hold zeros, not stale bytes.
  bytes8.fill(0, 0, fixed);
  const placed: Placed[] = [];
  const joined: TextColumn[] = [];
  const written: TextColumn[] = [];
  let rope = '';
  let at = 0;
  for (let j = 0; j < types.length; j++) {
    const type = types[j] as ColumnType;
    const cells = columns[j] ?? [];
    const validityAt = at;
    const valuesAt = at + align8(bitmapBytes(n));
    at += fixedBytes(type, n);
    switch (type) {
      case 'integer':
        placed.push({
          type,
          validityAt,
          valuesAt,
          nulls: numbers(cells, n, validityAt, ints32, valuesAt >> 2),
        });
        break;
      case 'double':
        placed.push({
          type,
          validityAt,
          valuesAt,
          nulls: numbers(cells, n, validityAt, floats64, valuesAt >> 3),
        });
        break;
      case 'logical':
        placed.push({ type, validityAt, valuesAt, nulls: booleans(cells, n, validityAt, valuesAt) });
        break;
      case 'character': {
        const column: TextColumn = { type, validityAt, valuesAt, nulls: 0, cells, text: '', start: 0 };
        if (joinColumn(column, n)) {
          joined.push(column);
          rope += column.text;
        } else written.push(column);
        placed.push(column);
        break;
      }
    }
  }
  encodeJoined(joined, rope, n);
  for (const column of written) writeColumn(column, n);
  // One buffer for the table: its fixed part, then its text bytes.
  const size = writer.pos;
  const buffer = Buffer.allocUnsafeSlow(fixed + size).buffer;
  const all = new Uint8Array(buffer);
  all.set(bytes8.subarray(0, fixed));
  all.set(writer.bytes.subarray(0, size), fixed);
  return placed.map((c) => columnData(buffer, c, n, fixed));
}

/** A column's Arrow data over the table's buffer: buffers in Arrow's order (offsets, values, validity). */
function columnData(buffer: ArrayBuffer, c: Placed, n: number, textAt: number): Data {
  // No bitmap when nothing is null.
  const validity = c.nulls ? new Uint8Array(buffer, c.validityAt, bitmapBytes(n)) : undefined;
  switch (c.type) {
    case 'integer':
      return new Data(INT32, 0, n, c.nulls, [
        undefined,
        new Int32Array(buffer, c.valuesAt, n),
        validity,
      ] as never);
    case 'double':
      return new Data(FLOAT64, 0, n, c.nulls, [
        undefined,
        new Float64Array(buffer, c.valuesAt, n),
        validity,
      ] as never);
    case 'logical':
      return new Data(BOOL, 0, n, c.nulls, [
        undefined,
        new Uint8Array(buffer, c.valuesAt, bitmapBytes(n)),
        validity,
      ] as never);
    case 'character': {
      const offsets = new Int32Array(buffer, c.valuesAt, n + 1);
      const values = new Uint8Array(buffer, textAt + (c as TextColumn).start, offsets[n] as number);
      return new Data(UTF8, 0, n, c.nulls, [offsets, values, validity] as never);
    }
  }
}

/**
 * Writes a numeric column's values (into `values`, the scratch seen as Int32 or Float64, from
 * element `base`) and validity bits into the scratch; returns its null count.
 */
function numbers(
  cells: readonly ColumnCell[],
  n: number,
  validityAt: number,
  values: Int32Array | Float64Array,
  base: number,
): number {
  const bits = bytes8;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = cells[i];
    if (typeof v === 'number') {
      values[base + i] = v;
      bits[validityAt + (i >> 3)]! |= 1 << (i & 7);
    } else nulls++;
  }
  return nulls;
}

/** As `numbers`, for a logical column (values as bits too). */
function booleans(cells: readonly ColumnCell[], n: number, validityAt: number, valuesAt: number): number {
  const bits = bytes8;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = cells[i];
    if (typeof v === 'boolean') {
      if (v) bits[valuesAt + (i >> 3)]! |= 1 << (i & 7);
      bits[validityAt + (i >> 3)]! |= 1 << (i & 7);
    } else nulls++;
  }
  return nulls;
}

/**
 * Joins a text column into one string (`c.text`), writing its offsets in characters and its
 * validity bits; false when it holds a list or a long text, which the writer then writes cell by
 * cell (`writeColumn`).
 */
function joinColumn(c: TextColumn, n: number): boolean {
  const bits = bytes8;
  const offsets = ints32;
  const base = c.valuesAt >> 2;
  const cells = c.cells;
  let text = '';
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = cells[i];
    if (typeof v === 'string') {
      if (v.length >= LONG_TEXT) return false;
      // `+=` builds a rope that the encoder flattens once: of the ways measured (an array join,
      // a character loop, a call per string), the cheapest for many short strings.
      text += v;
      bits[c.validityAt + (i >> 3)]! |= 1 << (i & 7);
    } else if (typeof v === 'object' && v !== null) return false;
    else nulls++;
    offsets[base + i + 1] = text.length;
  }
  c.nulls = nulls;
  c.text = text;
  return true;
}

/**
 * Encodes the joined columns at the start of the writer and places them. When the text is not all
 * ASCII, the character offsets become byte offsets: a column of ASCII only keeps its own, in the
 * others every string is measured.
 */
function encodeJoined(columns: readonly TextColumn[], rope: string, n: number): void {
  // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a pair of them, 4).
  writer.pos = 0;
  writer.reserve(3 * rope.length);
  const size = encoder.encodeInto(rope, writer.bytes).written;
  const offsets = ints32;
  let bytes = 0;
  for (const c of columns) {
    c.start = bytes;
    if (size === rope.length || Buffer.byteLength(c.text, 'utf8') === c.text.length) {
      bytes += c.text.length;
      continue;
    }
    const base = c.valuesAt >> 2;
    let end = 0;
    for (let i = 0; i < n; i++) {
      const v = c.cells[i];
      if (typeof v === 'string') end += Buffer.byteLength(v, 'utf8');
      offsets[base + i + 1] = end;
    }
    bytes += end;
  }
  writer.pos = size;
  if (bytes === size) return;
  // Two cells, one ending in a lone high surrogate and the next starting with a lone low one,
  // joined into a character neither holds alone: write each cell on its own instead.
  writer.pos = 0;
  for (const c of columns) {
    c.start = writer.pos;
    const base = c.valuesAt >> 2;
    for (let i = 0; i < n; i++) {
      const v = c.cells[i];
      if (typeof v === 'string') writer.text(v);
      offsets[base + i + 1] = writer.pos - c.start;
    }
  }
}

/**
 * Writes a column cell by cell at the writer's position: strings as UTF-8, lists as their JSON
 * text, written by the JSON writer in a table of many rows and by `JSON.stringify` (as in the
 * rows flavour) in one of a few (see `WRITER_MIN_ROWS`). A value JSON cannot hold (a cycle) is
 * null, as in the rows flavour.
 */
function writeColumn(c: TextColumn, n: number): void {
  c.start = writer.pos;
  // `joinColumn` may have set bits before it gave the column up.
  bytes8.fill(0, c.validityAt, c.validityAt + bitmapBytes(n));
  const base = c.valuesAt >> 2;
  const useWriter = n >= WRITER_MIN_ROWS;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = c.cells[i];
    let valid = true;
    if (typeof v === 'string') writer.text(v);
    else if (typeof v === 'object' && v !== null) {
      if (!useWriter || !writer.json(v)) {
        const text = toCharacter(v);
        if (text === null) valid = false;
        else writer.text(text);
      }
    } else valid = false;
    if (valid) bytes8[c.validityAt + (i >> 3)]! |= 1 << (i & 7);
    else nulls++;
    ints32[base + i + 1] = writer.pos - c.start;
  }
  c.nulls = nulls;
}
