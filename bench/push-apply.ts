/**
 * `npm run bench:push:apply`: prints one JSON line.
 *
 * The cost of applying one FastCast patch batch to a game's document, as a live game sends them
 * (a play added, the status detail, where the clock shows, and both scores replaced), to a 600-play summary:
 * - `before`: the batch applied to a whole `structuredClone` of the document (the way
 *   fastcast-patch.ts applied batches until it shared structure; kept here for comparison only);
 * - `after`: `applyBatch` as it is, copying only the paths from the root to what the batch touches.
 * For each: µs per batch, the mean over the run (garbage collection included, as a daemon pays
 * it). Allocation is left out: Node 20 has no allocated-bytes counter, and heap growth with the
 * collector running measures nothing. Documents: a synthetic game from the simulator's generator, played to
 * the end and cut or padded to 600 plays, and the recorded `mens/summary__401705066_live.json`
 * when recorded fixtures are beside the repository (`recorded: null` otherwise).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fjp from 'fast-json-patch';
import type { PatchOperation } from '../src/espn/fastcast-wire.js';
import { applyBatch } from '../src/espn/fastcast-patch.js';
import { generateFinishedSummary } from '../src/simulator/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const PLAYS = 600;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 2_000);
// The document is set back to its 600 plays this often, so it stays the size the figures name.
const RESET_EVERY = 100;

/** The batch applied on a whole copy: fastcast-patch.ts's apply before it shared structure. */
function applyOnCopy(doc: unknown, ops: readonly PatchOperation[]): unknown {
  let next: unknown = structuredClone(doc);
  for (let i = 0; i < ops.length; i++) {
    try {
      next = fjp.applyOperation(next, ops[i] as fjp.Operation, true, true, true, i).newDocument;
    } catch {
      // The lenient skip; the bench's batches all apply.
    }
  }
  return next;
}

function withPlays(doc: any, count: number): any {
  const plays: any[] = [...doc.plays];
  for (let i = 0; plays.length < count; i++)
    plays.push({ ...(doc.plays[i % doc.plays.length] as object), id: `pad${i}` });
  return { ...doc, plays: plays.slice(0, count) };
}

/** A live game's typical batch: one play added, the status detail and both scores replaced. */
function batch(doc: any, n: number): PatchOperation[] {
  const last = doc.plays[doc.plays.length - 1];
  const c = '/header/competitions/0';
  return [
    { op: 'add', path: '/plays/-', value: { ...last, id: `bench${n}`, text: `play ${n}` } },
    { op: 'replace', path: `${c}/status/type/detail`, value: `${n % 12}:00` },
    { op: 'replace', path: `${c}/competitors/0/score`, value: String(n) },
    { op: 'replace', path: `${c}/competitors/1/score`, value: String(n + 1) },
  ];
}

function run(
  base: unknown,
  apply: (doc: unknown, ops: readonly PatchOperation[]) => unknown,
  batches: number,
) {
  const batchesOps = Array.from({ length: RESET_EVERY }, (_, n) => batch(base, n));
  let doc = base;
  // Warm-up, so the figures are the optimised code's.
  for (let n = 0; n < Math.min(200, batches); n++)
    doc = apply(n % RESET_EVERY === 0 ? base : doc, batchesOps[n % RESET_EVERY]!);
  const t0 = process.hrtime.bigint();
  for (let n = 0; n < batches; n++)
    doc = apply(n % RESET_EVERY === 0 ? base : doc, batchesOps[n % RESET_EVERY]!);
  const elapsed = Number(process.hrtime.bigint() - t0) / 1e3;
  return { batches, usPerBatch: Math.round((elapsed / batches) * 10) / 10 };
}

function compare(doc: unknown) {
  const after = (d: unknown, ops: readonly PatchOperation[]): unknown => {
    const result = applyBatch(d, ops);
    if (!result.ok) throw new Error(result.error);
    return result.doc;
  };
  // The copy costs milliseconds: fewer batches keep the run short.
  const before = run(doc, applyOnCopy, Math.max(50, Math.round(BATCHES / 10)));
  const now = run(doc, after, BATCHES);
  return {
    bytes: Buffer.byteLength(JSON.stringify(doc)),
    plays: (doc as any).plays.length,
    before,
    after: now,
    speedup: Math.round(before.usPerBatch / now.usPerBatch),
  };
}

const synthetic = withPlays(generateFinishedSummary('mens', '401999001', { seed: 1 }), PLAYS);
const fixtures = resolve(
  process.env.COURTSIDE_FIXTURES ??
    join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'shared', 'fixtures', 'espn'),
);
const recordedPath = join(fixtures, 'mens', 'summary__401705066_live.json');
const recorded = existsSync(recordedPath)
  ? withPlays(JSON.parse(readFileSync(recordedPath, 'utf8')), PLAYS)
  : null;

console.log(
  JSON.stringify({
    bench: 'push-apply',
    batch: 'play added, status detail and 2 scores replaced',
    synthetic: compare(synthetic),
    recorded: recorded === null ? null : compare(recorded),
  }),
);
