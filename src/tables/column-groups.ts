import type { League } from '../core/leagues.js';

/**
 * The building blocks of a declared table: column types, groups of columns of one type, and the
 * row type a list of groups describes. `schema.ts` (the named tables: scoreboard, summary,
 * reference) and `schema-operations.ts` (the tables of the other operations) are written with them.
 */

export type ColumnType = 'character' | 'integer' | 'double' | 'logical';
export const COLUMN_TYPES: readonly ColumnType[] = ['character', 'integer', 'double', 'logical'];

/** Restricts a group to one league, or makes it `optional` (present only when some row has it). */
export type GroupTag = League | 'optional';

export interface ColumnGroup {
  readonly type: ColumnType;
  readonly names: readonly string[];
  readonly only: GroupTag | undefined;
}

/** A group of columns of one type, in order; `only` restricts it to a league or makes it optional. */
export function g<
  const T extends ColumnType,
  const N extends readonly string[],
  const O extends GroupTag | undefined = undefined,
>(type: T, names: N, only?: O): { readonly type: T; readonly names: N; readonly only: O } {
  return { type, names, only: only as O };
}

/** The TypeScript value of a column type; every column is nullable. */
export type ValueOf<T extends ColumnType> = T extends 'character'
  ? string
  : T extends 'logical'
    ? boolean
    : number;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The row type of a list of groups: tagged (league-only or optional) columns are optional keys. */
export type RowOf<Gs extends readonly ColumnGroup[]> = Simplify<
  {
    -readonly [G in Gs[number] as G['only'] extends GroupTag ? never : G['names'][number]]: ValueOf<
      G['type']
    > | null;
  } & {
    -readonly [G in Gs[number] as G['only'] extends GroupTag ? G['names'][number] : never]?: ValueOf<
      G['type']
    > | null;
  }
>;

/** The JSON column that holds an item's keys beyond its table's declared columns. */
export const EXTRA_COLUMN = 'extra';
