import { isObject, stringify } from './cells.js';
import type { Extractors, Getter } from './extract.js';

/**
 * The `extra` column of the operation tables: the JSON of an item's keys beyond its table's
 * columns, so a payload with keys the schema does not know keeps them without adding a column.
 * A key whose value is null (or absent) is left out; an item with nothing beyond the columns has
 * a null `extra`.
 */

type Tree = Map<string, Tree | true>;

function treeOf(paths: readonly string[]): Tree {
  const root: Tree = new Map();
  for (const path of paths) {
    const keys = path.split('.');
    let node = root;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        node.set(key, true);
        return;
      }
      let next = node.get(key);
      if (next === true) return;
      if (!next) node.set(key, (next = new Map()));
      node = next;
    });
  }
  return root;
}

function remainder(value: Record<string, unknown>, tree: Tree): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === null || v === undefined) continue;
    const t = tree.get(key);
    if (t === true) continue;
    if (t !== undefined && isObject(v)) {
      const rest = remainder(v, t);
      if (rest) (out ??= {})[key] = rest;
      continue;
    }
    (out ??= {})[key] = v;
  }
  return out;
}

/** A getter of the JSON of an item's keys outside `paths` (dotted), or null when there are none. */
export function extraOutside(paths: readonly string[]): Getter {
  const tree = treeOf(paths);
  return (item) => {
    const rest = remainder(item, tree);
    return rest ? stringify(rest) : null;
  };
}

/** The dotted paths an extractor map reads by path (getters read what their `reads` list says). */
export function pathsOf(extractors: Extractors, reads: readonly string[] = []): string[] {
  return [...Object.values(extractors).filter((e): e is string => typeof e === 'string'), ...reads];
}

/** Extractors with `extra` added: the item's keys outside the paths they read (and `reads`). */
export function withExtra(extractors: Extractors, reads: readonly string[] = []): Extractors {
  return { ...extractors, extra: extraOutside(pathsOf(extractors, reads)) };
}
