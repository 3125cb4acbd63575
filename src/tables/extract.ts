import type { League } from '../core/leagues.js';
import { toTextCell, type ColumnCell } from './arrow-columns.js';
import { converterFor, isObject, snakeCase, toLogoList, type Converter } from './cells.js';
import type { Cells, Layout } from './frame.js';
import { tableColumns, type Row, type TableName } from './schema.js';

/** Reads one column's raw value out of an item. */
export type Getter = (item: Record<string, unknown>) => unknown;

/** A getter for a dotted path of keys, e.g. `links.api.self.href`. */
export function at(path: string): Getter {
  const keys = path.split('.');
  const [a = '', b = '', c = ''] = keys;
  // Paths of one to three keys (nearly all of them) get a closure without a loop: parsing is hot.
  if (keys.length === 1) return (item) => item[a];
  if (keys.length === 2) {
    return (item) => {
      const x = item[a];
      return typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[b] : undefined;
    };
  }
  if (keys.length === 3) {
    return (item) => {
      const x = item[a];
      if (typeof x !== 'object' || x === null) return undefined;
      const y = (x as Record<string, unknown>)[b];
      return typeof y === 'object' && y !== null ? (y as Record<string, unknown>)[c] : undefined;
    };
  }
  return (item) => {
    let value: unknown = item;
    for (const key of keys) {
      if (!isObject(value)) return undefined;
      value = value[key];
    }
    return value;
  };
}

/** The `|`-joined logo URLs at a path. */
export function logosAt(path: string): Getter {
  const get = at(path);
  return (item) => toLogoList(get(item));
}

/** How to read every column of a fixed table from one item; a string is a dotted path. */
export type Extractors = Readonly<Record<string, Getter | string>>;

/**
 * Extractors of columns named after the path they read, as the generic tables name theirs: each
 * key snake_cased, joined by `_` (`birthPlace.city` → `birth_place_city`). `under` is a path read
 * but left out of the names (`entry`: `athlete.id` reads `entry.athlete.id` into `athlete_id`);
 * `prefix` leads every name (`team`: `displayName` into `team_display_name`).
 */
export function byPath(
  paths: readonly string[],
  { under, prefix }: { under?: string; prefix?: string } = {},
): Record<string, string> {
  return Object.fromEntries(
    paths.map((path) => {
      const keys = path.split('.').map(snakeCase);
      const name = (prefix === undefined ? keys : [prefix, ...keys]).join('_');
      return [name, under === undefined ? path : `${under}.${path}`];
    }),
  );
}

interface Compiled {
  readonly names: readonly string[];
  readonly converters: readonly Converter[];
  /** As `converters`, but text columns keep lists for the Arrow builder to write (`toTextCell`). */
  readonly columnConverters: readonly ((value: unknown) => ColumnCell)[];
  readonly getters: readonly Getter[];
}

const compiled = new WeakMap<Extractors, Map<string, Compiled>>();

function compile(table: TableName, league: League, extractors: Extractors): Compiled {
  let byKey = compiled.get(extractors);
  if (!byKey) compiled.set(extractors, (byKey = new Map()));
  const key = `${table}:${league}`;
  let c = byKey.get(key);
  if (!c) {
    const columns = tableColumns(table, league);
    c = {
      names: columns.map((col) => col.name),
      converters: columns.map((col) => converterFor(col.type)),
      columnConverters: columns.map((col) =>
        col.type === 'character' ? toTextCell : converterFor(col.type),
      ),
      getters: columns.map((col) => {
        const e = extractors[col.name];
        // A column with no extractor is a programming error caught by the conformance tests.
        if (e === undefined) throw new Error(`tables: no extractor for ${table}.${col.name}`);
        return typeof e === 'string' ? at(e) : e;
      }),
    };
    byKey.set(key, c);
  }
  return c;
}

/** Cells of a fixed table, one row per object item, in the layout asked for. */
export function extract(
  table: TableName,
  league: League,
  extractors: Extractors,
  items: Iterable<unknown>,
  layout: Layout,
): Cells {
  return layout === 'rows'
    ? { rows: extractRows(table, league, extractors, items) }
    : extractColumns(table, league, extractors, items);
}

/**
 * Column-major cells: one array per column, every cell converted to its schema type, except that
 * a list in a text column stays a list (its JSON is written with the Arrow column).
 */
export function extractColumns(
  table: TableName,
  league: League,
  extractors: Extractors,
  items: Iterable<unknown>,
): { data: ColumnCell[][]; length: number } {
  const { names, columnConverters: converters, getters } = compile(table, league, extractors);
  const data: ColumnCell[][] = names.map(() => []);
  let length = 0;
  for (const item of items) {
    if (!isObject(item)) continue;
    for (let j = 0; j < names.length; j++) {
      const convert = converters[j] as (value: unknown) => ColumnCell;
      (data[j] as ColumnCell[]).push(convert((getters[j] as Getter)(item)));
    }
    length++;
  }
  return { data, length };
}

/** Rows of a fixed table, one per object item, every column converted to its schema type. */
export function extractRows(
  table: TableName,
  league: League,
  extractors: Extractors,
  items: Iterable<unknown>,
): Row[] {
  const { names, converters, getters } = compile(table, league, extractors);
  const out: Row[] = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const row: Row = {};
    for (let i = 0; i < names.length; i++) {
      row[names[i] as string] = (converters[i] as Converter)((getters[i] as Getter)(item));
    }
    out.push(row);
  }
  return out;
}
