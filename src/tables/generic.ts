import { arr, isObject, obj, snakeCase, stringify } from './cells.js';
import type { Frame, FrameColumn } from './frame.js';
import type { Cell, ColumnType, Row } from './schema.js';

/**
 * Generic parsers, for the operations whose payloads have no fixed table. Each item is
 * flattened: nested objects join their keys with `_`, names are snake_cased, lists become JSON
 * text. Each column gets one type for all rows: only booleans → logical, only integers →
 * integer, numbers → double, anything else (strings, or a mix) → character.
 */

// Why: beyond this nesting depth an object is kept whole as JSON rather than flattened further.
const MAX_DEPTH = 16;
// Arrow Int32 range, as for the fixed integer columns.
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function flattenInto(
  out: Record<string, unknown>,
  prefix: string,
  value: Record<string, unknown>,
  depth: number,
): void {
  for (const key of Object.keys(value)) {
    const name = prefix === '' ? snakeCase(key) : `${prefix}_${snakeCase(key)}`;
    const v = value[key];
    if (isObject(v) && depth < MAX_DEPTH) flattenInto(out, name, v, depth + 1);
    else if (v !== undefined) out[name] = v;
  }
}

export function flatten(item: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  flattenInto(out, '', item, 0);
  return out;
}

// Kinds of value seen in a column, as bit flags.
const Kind = { None: 0, Bool: 1, Int: 2, Double: 4, Text: 8 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case 'boolean':
      return Kind.Bool;
    case 'number':
      if (!Number.isFinite(v)) return Kind.None;
      return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? Kind.Int : Kind.Double;
    case 'string':
      return v === '' ? Kind.None : Kind.Text;
    case 'object':
      return v === null ? Kind.None : Kind.Text;
    default:
      return Kind.None;
  }
}

function typeOf(kinds: number): ColumnType {
  if (kinds === Kind.Bool) return 'logical';
  if (kinds === Kind.Int) return 'integer';
  if (kinds === Kind.Double || kinds === (Kind.Int | Kind.Double)) return 'double';
  return 'character';
}

function cell(type: ColumnType, v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (type === 'character') {
    if (typeof v === 'string') return v === '' ? null : v;
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    return stringify(v);
  }
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v;
  return null;
}

/** A frame of flattened items, columns in first-seen order, one inferred type per column. */
export function genericFrame(items: readonly unknown[]): Frame {
  const flat: Record<string, unknown>[] = [];
  const kinds = new Map<string, number>();
  for (const item of items) {
    if (!isObject(item)) continue;
    const f = flatten(item);
    flat.push(f);
    for (const name of Object.keys(f)) kinds.set(name, (kinds.get(name) ?? 0) | kindOf(f[name]));
  }
  const columns: FrameColumn[] = [...kinds].map(([name, k]) => ({ name, type: typeOf(k) }));
  const rows = flat.map((f) => {
    const row: Row = {};
    for (const c of columns) row[c.name] = cell(c.type, f[c.name]);
    return row;
  });
  // Integer-like keys ("2024") are enumerated first by JavaScript objects, so such rows are not
  // in column order: the Arrow builder then reads them by name.
  return { columns, length: rows.length, rows, exact: !columns.some((c) => INDEX_LIKE.test(c.name)) };
}

const INDEX_LIKE = /^(0|[1-9]\d*)$/;

/** The items of a payload at the first of `paths` (dotted) that holds an array. */
function itemsAt(raw: unknown, paths: readonly string[]): readonly unknown[] | undefined {
  for (const path of paths) {
    let v: unknown = raw;
    for (const key of path.split('.')) {
      if (Array.isArray(v) && /^\d+$/.test(key)) v = v[Number(key)];
      else v = isObject(v) ? v[key] : undefined;
    }
    if (Array.isArray(v)) return v;
  }
  return undefined;
}

/** The longest top-level list of objects: for payloads whose item list is not known in advance. */
function largestList(raw: unknown): readonly unknown[] {
  let best: readonly unknown[] = [];
  for (const v of Object.values(obj(raw))) {
    if (Array.isArray(v) && v.length > best.length && v.some(isObject)) best = v;
  }
  return best;
}

/** Depth charts: one item per athlete per position per chart, with the chart and position alongside. */
function depthchartItems(raw: unknown): unknown[] {
  const items: unknown[] = [];
  for (const chart of arr(obj(raw).depthchart)) {
    const c = obj(chart);
    for (const [key, slot] of Object.entries(obj(c.positions))) {
      const s = obj(slot);
      arr(s.athletes).forEach((athlete, i) => {
        if (!isObject(athlete)) return;
        items.push({
          depthchart_id: c.id,
          depthchart_name: c.name,
          position_key: key,
          position: s.position,
          // Why +1: the depth order is 1-based (1 = starter), as depth charts are read.
          depth: i + 1,
          athlete,
        });
      });
    }
  }
  return items;
}

/** Which list of each generic payload is "the items" (see docs/tables.md). */
const ITEM_RULES: Readonly<Record<string, (raw: unknown) => readonly unknown[]>> = {
  calendar: (raw) =>
    itemsAt(raw, ['sections', 'calendar', 'leagues.0.calendar', 'eventDate.dates']) ?? largestList(raw),
  transactions: (raw) => itemsAt(raw, ['transactions']) ?? [],
  team_transactions: (raw) => itemsAt(raw, ['transactions']) ?? [],
  conferences: (raw) => itemsAt(raw, ['groups']) ?? [],
  statistics_league: (raw) =>
    itemsAt(raw, ['stats.categories', 'categories', 'statistics']) ?? largestList(raw),
  draft: (raw) => itemsAt(raw, ['picks']) ?? [],
  team_record: (raw) => itemsAt(raw, ['items', 'team.record.items', 'record.items']) ?? largestList(raw),
  team_depthcharts: depthchartItems,
  team_history: (raw) => itemsAt(raw, ['items', 'seasons', 'history']) ?? largestList(raw),
  team_leaders: (raw) => itemsAt(raw, ['leaders.categories', 'categories', 'leaders']) ?? largestList(raw),
  team: (raw) => {
    const team = obj(raw).team;
    return isObject(team) && Object.keys(team).length ? [team] : [];
  },
  player_info: (raw) => {
    const athlete = obj(raw).athlete;
    if (isObject(athlete) && Object.keys(athlete).length) return [athlete];
    return isObject(raw) && raw.id !== undefined ? [raw] : [];
  },
  player_bio: (raw) => (isObject(raw) && Object.keys(raw).length ? [raw] : []),
};

export const GENERIC_SUFFIXES: readonly string[] = Object.keys(ITEM_RULES);

/** The generic table of an operation suffix. */
export function genericOperationFrame(suffix: string, raw: unknown): Frame {
  const rule = ITEM_RULES[suffix];
  return genericFrame(rule ? rule(raw) : []);
}
