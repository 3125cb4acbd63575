import { isObject } from '../core/is-object.js';
import type { ColumnType } from './column-groups.js';
import type { Cell } from './schema.js';

/**
 * Converters from raw JSON values to typed cells. Each returns null for a missing value or one
 * that cannot be read as the column's type, and never throws. An empty string counts as missing:
 * the tabular form never uses `""` (or `"undefined"`) to stand for null.
 */

// Arrow Int32 range: an integer column can only hold values inside it.
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

export type Json = unknown;

export { isObject };

/** The object at `value`, or an empty object: lets parsers walk wrongly shaped payloads. */
export function obj(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : EMPTY;
}

/** The array at `value`, or an empty array. */
export function arr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : NONE;
}

const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
const NONE: readonly unknown[] = Object.freeze([]);

export function toCharacter(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return value === '' ? null : value;
    case 'number':
      return Number.isFinite(value) ? String(value) : null;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      if (value === null) return null;
      return stringify(value);
    default:
      return null;
  }
}

/** Lists and objects become JSON text; a value JSON cannot hold (a cycle) becomes null. */
export function stringify(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

export function toDouble(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return null;
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function toInteger(value: unknown): number | null {
  const n = toDouble(value);
  if (n === null || !Number.isInteger(n) || n < INT32_MIN || n > INT32_MAX) return null;
  return n;
}

export function toLogical(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
    return null;
  }
  if (value === 1) return true;
  if (value === 0) return false;
  return null;
}

/** Colours are stored as hex without the leading `#`. */
export function toColour(value: unknown): string | null {
  const text = toCharacter(value);
  if (text === null || typeof value !== 'string') return null;
  const bare = text.startsWith('#') ? text.slice(1) : text;
  return bare === '' ? null : bare;
}

/**
 * A game clock in seconds: a number is taken as seconds; text reads as `m:ss`, `h:mm:ss` or
 * plain seconds (`45.1`, as ESPN shows the last minute).
 */
export function toClockSeconds(value: unknown): number | null {
  if (typeof value === 'string' && value.includes(':')) {
    let total = 0;
    for (const part of value.trim().split(':')) {
      const n = toDouble(part);
      if (n === null || n < 0) return null;
      total = total * 60 + n;
    }
    return total;
  }
  return toDouble(value);
}

const SEASON_LABEL = /^(\d{4})-(\d{2})$/;

/**
 * `season_year` is an integer even where upstream sends a label `YYYY-YY`, so seasons sort and
 * join as numbers. A label is read as ESPN numbers seasons: by the year the season ends (`2024-25` → 2025).
 */
export function toSeasonYear(value: unknown): number | null {
  if (typeof value === 'string') {
    const m = SEASON_LABEL.exec(value.trim());
    if (m) {
      const start = Number(m[1]);
      const end = Number(m[2]);
      const century = Math.floor(start / 100) * 100;
      return end >= start % 100 ? century + end : century + 100 + end;
    }
  }
  return toInteger(value);
}

/**
 * A list of logo images as its URLs joined with `|`: the one encoding of every logo column
 * (`team_logos`, `league_logos`, `college_logos`, `logos`). `team_logos` has always been sent so,
 * analysts' code splits it on `|`, and a URL never holds `|`; every other list is JSON text.
 */
export function toLogoList(value: unknown): string | null {
  if (typeof value === 'string') return toCharacter(value);
  const hrefs: string[] = [];
  for (const logo of arr(value)) {
    const href = typeof logo === 'string' ? logo : obj(logo).href;
    if (typeof href === 'string' && href !== '') hrefs.push(href);
  }
  return hrefs.length ? hrefs.join('|') : null;
}

// A plain decimal number, signed or not: "32", "50.6", ".683", "-4", "+12". Not "45-89", "W2", "1e3".
const STRICT_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The number a display text shows when it is nothing but a plain decimal number, else null. */
export function strictNumber(text: unknown): number | null {
  if (typeof text !== 'string' || !STRICT_NUMBER.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * A stat's number: its `value`, or, when upstream sends none (as it now does for leaders and
 * team box score stats), the strict parse of its `displayValue` ("32" → 32; "45-89" → null).
 */
export function valueOrDisplay(value: unknown, displayValue: unknown): unknown {
  return value === undefined || value === null || value === '' ? strictNumber(displayValue) : value;
}

// ESPN's court coordinates are small (a court is 50 by 94 feet); plays without a location carry
// sentinels near -2^31/10 (-214748340, -214748365). Anything this far out is such a sentinel.
const COORDINATE_LIMIT = 10_000;

/** A shot coordinate: an integer, or null for ESPN's no-location sentinels. */
export function toCoordinate(value: unknown): number | null {
  const n = toInteger(value);
  return n === null || n <= -COORDINATE_LIMIT || n >= COORDINATE_LIMIT ? null : n;
}

export type Converter = (value: unknown) => Cell;

/** The converter function of a column type. */
export function converterFor(type: ColumnType): Converter {
  switch (type) {
    case 'character':
      return toCharacter;
    case 'integer':
      return toInteger;
    case 'double':
      return toDouble;
    case 'logical':
      return toLogical;
  }
}

/** The converter for a column type. */
export function convert(type: ColumnType, value: unknown): Cell {
  switch (type) {
    case 'character':
      return toCharacter(value);
    case 'integer':
      return toInteger(value);
    case 'double':
      return toDouble(value);
    case 'logical':
      return toLogical(value);
  }
}

/** snake_case of an upstream key: `fieldGoalsMade-fieldGoalsAttempted` → `field_goals_made_field_goals_attempted`. */
export function snakeCase(key: string): string {
  const cached = snakeCache.get(key);
  if (cached !== undefined) return cached;
  const out = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  // Why bounded: keys come from upstream payloads; an unbounded cache could grow on hostile input.
  if (snakeCache.size < 10_000) snakeCache.set(key, out);
  return out;
}
const snakeCache = new Map<string, string>();
