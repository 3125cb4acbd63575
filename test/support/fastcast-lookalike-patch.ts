/**
 * The look-alike's own JSON Patch maker (test/support/fastcast-lookalike.ts): styles our simulator
 * never uses, so that a client tuned to the simulator's patches meets others. It shares no code
 * with the simulator nor with courtside's client.
 */

export type Op = { op: string; path: string; from?: string; value?: unknown };
export type Json = Record<string, unknown>;

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
export const idOf = (p: unknown): string | null => (isObj(p) && p.id !== undefined ? String(p.id) : null);

/** Field-by-field patch from `a` to `b` at `path`; arrays that change length are replaced whole. */
function diffValue(a: unknown, b: unknown, path: string, ops: Op[]): void {
  if (a === b) return;
  if (isObj(a) && isObj(b)) {
    for (const k of Object.keys(a)) if (!(k in b)) ops.push({ op: 'remove', path: `${path}/${esc(k)}` });
    for (const k of Object.keys(b)) {
      const p = `${path}/${esc(k)}`;
      if (!(k in a)) ops.push({ op: 'add', path: p, value: b[k] });
      else diffValue(a[k], b[k], p, ops);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffValue(x, b[i], `${path}/${i}`, ops));
    return;
  }
  ops.push({ op: 'replace', path, value: b });
}

/**
 * The plays array by id: kept plays diffed in place (at their old index, before any insertion),
 * then each new play inserted in ascending final index: appended with `-` (or as a `copy` of the
 * previous play patched into the new one), or added at the end and `move`d to its place when it is
 * a late play. Null when plays were removed or reordered: the caller replaces the array.
 */
function diffPlays(a: unknown[], b: unknown[], rnd: () => number): Op[] | null {
  const bIds = b.map(idOf);
  const aIndex = new Map(a.map((p, i) => [idOf(p), i]));
  const kept = bIds.filter((id) => aIndex.has(id));
  if (kept.length !== a.length || kept.some((id, i) => aIndex.get(id) !== i)) return null;
  const ops: Op[] = [];
  b.forEach((p, j) => {
    const i = aIndex.get(bIds[j] ?? null);
    if (i !== undefined) diffValue(a[i], p, `/plays/${i}`, ops);
  });
  let length = a.length;
  b.forEach((p, j) => {
    if (aIndex.has(bIds[j] ?? null)) return;
    if (j === length) {
      if (length > 0 && rnd() < 0.3) {
        // The previous play as a template, then what differs.
        ops.push({ op: 'copy', from: `/plays/${length - 1}`, path: '/plays/-' });
        diffValue(b[j - 1], p, `/plays/${length}`, ops);
      } else ops.push({ op: 'add', path: '/plays/-', value: p });
    } else {
      ops.push({ op: 'add', path: '/plays/-', value: p });
      ops.push({ op: 'move', from: `/plays/${length}`, path: `/plays/${j}` });
    }
    length++;
  });
  return ops;
}

/** The patch of publication `n` from `a` to `b`, in the look-alike's styles. */
export function makePatch(a: Json, b: Json, n: number, rnd: () => number): Op[] {
  // Now and then the whole document, as a publisher resetting its subscribers would.
  if (n % 23 === 0) return [{ op: 'replace', path: '', value: b }];
  const ops: Op[] = [];
  for (const k of Object.keys(a)) if (!(k in b)) ops.push({ op: 'remove', path: `/${esc(k)}` });
  for (const k of Object.keys(b)) {
    if (!(k in a)) ops.push({ op: 'add', path: `/${esc(k)}`, value: b[k] });
    else if (k === 'plays' && Array.isArray(a.plays) && Array.isArray(b.plays)) {
      const plays = n % 7 === 0 ? null : diffPlays(a.plays, b.plays, rnd);
      if (plays === null) {
        if (JSON.stringify(a.plays) !== JSON.stringify(b.plays))
          ops.push({ op: 'replace', path: '/plays', value: b.plays });
      } else ops.push(...plays);
    } else diffValue(a[k], b[k], `/${esc(k)}`, ops);
  }
  // A guard some publishers put last rather than first.
  const header = isObj(b.header) ? b.header : undefined;
  if (header?.id !== undefined && rnd() < 0.25)
    ops.push({ op: 'test', path: '/header/id', value: header.id });
  return ops;
}

// Betting fields as odds providers name them: the look-alike aims its stale operations at the ones
// a document does not hold.
const ODDS_KEYS = [
  'overOdds',
  'underOdds',
  'spreadOdds',
  'moneyline',
  'pointSpread',
  'total',
  'current',
  'open',
];

/** The path of a key neither document holds under `part` (its first entry when a list), or of the part. */
function absentPath(docs: readonly Json[], part: string, salt: number): string {
  const values = docs.map((d) => d[part]);
  const holders = values.map((v) => (Array.isArray(v) ? v[0] : v));
  const first = values[0];
  if (!holders.every(isObj)) {
    if (Array.isArray(first)) return `/${part}/${first.length + 5 + salt}`;
    return first === undefined ? `/${part}` : `/${part}/retired${salt}`;
  }
  const key = ODDS_KEYS.find((k) => holders.every((h) => isObj(h) && !(k in h))) ?? `retired${salt}`;
  return `${Array.isArray(first) ? `/${part}/0` : `/${part}`}/${esc(key)}`;
}

/**
 * What long-running public clients report in steady state: operations on odds and pick data the
 * document no longer has. A `remove` under `odds` and a `replace` under `pickcenter`, both of keys
 * that neither the document before nor the one after holds, so that neither can apply wherever it
 * falls in the batch while every other operation of the batch can.
 */
export function absentKeyOps(before: Json, after: Json, n: number): [Op, Op] {
  const docs = [before, after];
  return [
    { op: 'remove', path: absentPath(docs, 'odds', n) },
    { op: 'replace', path: absentPath(docs, 'pickcenter', n), value: { value: n, american: '-110' } },
  ];
}

/** `extra` mixed into `ops`: the first at the start, the second halfway, before a trailing `test`. */
export function mixIn(ops: readonly Op[], extra: readonly [Op, Op]): Op[] {
  const out = [extra[0], ...ops];
  out.splice(1 + Math.floor(ops.length / 2), 0, extra[1]);
  return out;
}
