import type { League } from '../espn/leagues.js';
import { convert, isObject, toLogoList } from './cells.js';
import { tableColumns, type Row, type TableName } from './schema.js';

/** Reads one column's raw value out of an item. */
export type Getter = (item: Record<string, unknown>) => unknown;

/** A getter for a dotted path of keys, e.g. `links.api.self.href`. */
export function at(path: string): Getter {
  const keys = path.split('.');
  if (keys.length === 1) {
    const key = keys[0] as string;
    return (item) => item[key];
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

interface Compiled {
  readonly names: readonly string[];
  readonly types: readonly ReturnType<typeof tableColumns>[number]['type'][];
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
      types: columns.map((col) => col.type),
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

/** Rows of a fixed table, one per object item, every column converted to its schema type. */
export function extractRows(
  table: TableName,
  league: League,
  extractors: Extractors,
  items: Iterable<unknown>,
): Row[] {
  const { names, types, getters } = compile(table, league, extractors);
  const out: Row[] = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const row: Row = {};
    for (let i = 0; i < names.length; i++) {
      row[names[i] as string] = convert(types[i] as 'character', (getters[i] as Getter)(item));
    }
    out.push(row);
  }
  return out;
}
