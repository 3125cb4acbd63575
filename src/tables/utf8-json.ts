/**
 * JSON text written straight to UTF-8 bytes, for the list cells of the Arrow flavour: the bytes
 * are exactly those of `JSON.stringify(value)` encoded as UTF-8, without making the string.
 *
 * Why: in the rows flavour a list cell must be a string, and `JSON.stringify` costs several
 * hundred nanoseconds a call for the small lists a summary is full of (a play's `participants`),
 * about half of all parsing. The Arrow flavour only needs the bytes, and writing them here costs
 * half as much for such lists (for whole documents, JSON.stringify is faster: see
 * `WRITER_MIN_ROWS` in `arrow-columns.ts`).
 *
 * Only plain JSON data is written here (what `JSON.parse` makes: strings, finite numbers,
 * booleans, null, arrays, objects with `Object.prototype` or no prototype). Anything else (a
 * `Date`, a boxed value, a `toJSON` method, a bigint, nesting deeper than `MAX_DEPTH`, which is
 * how a cycle shows) makes `json` return false, and the caller falls back to `JSON.stringify`.
 */

// Deeper than any ESPN payload (about 10 levels); past it, JSON.stringify decides (a cycle throws).
const MAX_DEPTH = 100;

// Why: a native write costs about as much as copying 30 characters in a loop.
const NATIVE_MIN_LENGTH = 32;
// What a JSON string literal must escape or encode on more than one byte.
const NOT_PLAIN_ASCII = /[^\x20-\x21\x23-\x5b\x5d-\x7f]/;

const encoder = new TextEncoder();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX = '0123456789abcdef';
// The two-character escapes JSON.stringify uses, by code unit; the other controls get \u00XX.
const SHORT_ESCAPE: Readonly<Record<number, number>> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };

export class Utf8JsonWriter {
  /** The bytes written so far are `bytes[0..pos)`; `bytes` is replaced by a larger copy as needed. */
  bytes: Uint8Array;
  pos = 0;

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Room for `more` bytes after `pos`. */
  reserve(more: number): void {
    const need = this.pos + more;
    if (need <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(need, 2 * this.bytes.length));
    bigger.set(this.bytes.subarray(0, this.pos));
    this.bytes = bigger;
  }

  /** Writes `JSON.stringify(value)` as UTF-8; false (with `pos` back where it was) if not plain data. */
  json(value: unknown): boolean {
    // A toJSON or an enumerable key on Object.prototype would change every object's JSON (or
    // the keys `for...in` walks): leave it all to JSON.stringify.
    if (hasToJson(Object.prototype) || hasToJson(Array.prototype) || hasEnumerable(Object.prototype)) {
      return false;
    }
    const start = this.pos;
    if (this.value(value, 0)) return true;
    this.pos = start;
    return false;
  }

  /** Writes a string's UTF-8 bytes (no quotes, no escapes), as `TextEncoder` would. */
  text(s: string): void {
    this.reserve(3 * s.length);
    if (s.length >= NATIVE_MIN_LENGTH) {
      this.pos += encoder.encodeInto(s, this.bytes.subarray(this.pos)).written;
      return;
    }
    const out = this.bytes;
    let pos = this.pos;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        out[pos++] = c;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          pos = writePair(out, pos, c, d);
          i++;
          continue;
        }
        c = 0xfffd; // a lone surrogate, encoded as TextEncoder does
      }
      pos = writeUnit(out, pos, c);
    }
    this.pos = pos;
  }

  private value(v: unknown, depth: number): boolean {
    switch (typeof v) {
      case 'string':
        this.quoted(v);
        return true;
      case 'number':
        this.ascii(Number.isFinite(v) ? String(v) : 'null');
        return true;
      case 'boolean':
        this.ascii(v ? 'true' : 'false');
        return true;
      case 'object':
        if (v === null) {
          this.ascii('null');
          return true;
        }
        if (depth >= MAX_DEPTH) return false;
        return Array.isArray(v) ? this.array(v, depth + 1) : this.object(v, depth + 1);
      default:
        // bigint (JSON.stringify throws) and the top-level undefined, function and symbol.
        return false;
    }
  }

  private array(list: readonly unknown[], depth: number): boolean {
    if (Object.getPrototypeOf(list) !== Array.prototype) return false;
    this.byte(0x5b);
    for (let i = 0; i < list.length; i++) {
      if (i > 0) this.byte(0x2c);
      const x = list[i];
      // As JSON.stringify: what JSON cannot hold is null inside an array.
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') this.ascii('null');
      else if (!this.value(x, depth)) return false;
    }
    this.byte(0x5d);
    return true;
  }

  private object(o: object, depth: number): boolean {
    const proto: unknown = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null) return false;
    const record = o as Record<string, unknown>;
    this.byte(0x7b);
    let first = true;
    // Own enumerable keys in JSON.stringify's order (integer keys ascending, then the others in
    // insertion order): `for...in` walks them so, and walks no others, since the prototype is
    // Object.prototype (checked to have no enumerable key) or none.
    for (const key in record) {
      const x = record[key];
      if (x === undefined || typeof x === 'symbol') continue;
      if (typeof x === 'function') {
        if (key === 'toJSON') return false;
        continue;
      }
      if (!first) this.byte(0x2c);
      first = false;
      this.quoted(key);
      this.byte(0x3a);
      if (!this.value(x, depth)) return false;
    }
    this.byte(0x7d);
    return true;
  }

  private byte(b: number): void {
    this.reserve(1);
    this.bytes[this.pos++] = b;
  }

  private ascii(s: string): void {
    this.reserve(s.length);
    for (let i = 0; i < s.length; i++) this.bytes[this.pos++] = s.charCodeAt(i);
  }

  /** A JSON string literal, escaped as JSON.stringify escapes it. */
  private quoted(s: string): void {
    // At most 6 bytes (\uXXXX) per code unit, plus the quotes.
    this.reserve(6 * s.length + 2);
    const out = this.bytes;
    let pos = this.pos;
    out[pos++] = QUOTE;
    if (s.length >= NATIVE_MIN_LENGTH && !NOT_PLAIN_ASCII.test(s)) {
      // Long plain ASCII (URLs, captions): one native copy beats a character loop.
      pos += encoder.encodeInto(s, out.subarray(pos)).written;
      out[pos++] = QUOTE;
      this.pos = pos;
      return;
    }
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c !== QUOTE && c !== BACKSLASH) out[pos++] = c;
        else pos = writeEscape(out, pos, c);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          pos = writePair(out, pos, c, d);
          i++;
        } else pos = writeHexEscape(out, pos, c); // a lone surrogate: JSON.stringify escapes it
      } else pos = writeUnit(out, pos, c);
    }
    out[pos++] = QUOTE;
    this.pos = pos;
  }
}

function hasToJson(proto: object): boolean {
  return (proto as { toJSON?: unknown }).toJSON !== undefined;
}

function hasEnumerable(proto: object): boolean {
  return Object.keys(proto).length > 0;
}

function writeEscape(out: Uint8Array, pos: number, c: number): number {
  if (c === QUOTE || c === BACKSLASH) {
    out[pos++] = BACKSLASH;
    out[pos++] = c;
    return pos;
  }
  const short = SHORT_ESCAPE[c];
  if (short === undefined) return writeHexEscape(out, pos, c);
  out[pos++] = BACKSLASH;
  out[pos++] = short;
  return pos;
}

function writeHexEscape(out: Uint8Array, pos: number, c: number): number {
  out[pos++] = BACKSLASH;
  out[pos++] = 0x75; // u
  for (let shift = 12; shift >= 0; shift -= 4) out[pos++] = HEX.charCodeAt((c >> shift) & 15);
  return pos;
}

/** One code unit outside ASCII and the surrogates: 2 or 3 bytes. */
function writeUnit(out: Uint8Array, pos: number, c: number): number {
  if (c < 0x800) {
    out[pos++] = 0xc0 | (c >> 6);
  } else {
    out[pos++] = 0xe0 | (c >> 12);
    out[pos++] = 0x80 | ((c >> 6) & 63);
  }
  out[pos++] = 0x80 | (c & 63);
  return pos;
}

/** A surrogate pair: one code point above U+FFFF, 4 bytes. */
function writePair(out: Uint8Array, pos: number, high: number, low: number): number {
  const cp = 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
  out[pos++] = 0xf0 | (cp >> 18);
  out[pos++] = 0x80 | ((cp >> 12) & 63);
  out[pos++] = 0x80 | ((cp >> 6) & 63);
  out[pos++] = 0x80 | (cp & 63);
  return pos;
}
