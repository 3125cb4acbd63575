/**
 * `npm run bench:push:memory`: prints one JSON line.
 *
 * The heap a live pushed game's document holds: BENCH_GAMES (default 40) synthetic finished games
 * from the simulator's generator, parsed from their JSON as a checkpoint is, then 100 patch batches
 * each (a play added, a score replaced) through `applyBatch`, keeping only the newest version as a
 * topic does. Heap in use after forced collections (run with `--expose-gc`, as the npm script
 * does), per game: after the checkpoints, and after the batches (what structural sharing keeps
 * beyond the plays added). The recorded `mens/summary__401705066_live.json` is measured the same
 * way when recorded fixtures are beside the repository (`recorded: null` otherwise).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyBatch } from '../src/espn/fastcast-patch.js';
import { generateFinishedSummary } from '../src/simulator/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const GAMES = Number(process.env.BENCH_GAMES ?? 40);
const BATCHES = 100;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('bench/push-memory.ts: run with node --expose-gc (npm run bench:push:memory)');
const collect = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

function measure(texts: readonly string[]) {
  const h0 = collect();
  const docs: any[] = texts.map((t) => JSON.parse(t));
  const h1 = collect();
  for (let i = 0; i < docs.length; i++)
    for (let n = 0; n < BATCHES; n++) {
      const last = docs[i].plays.at(-1);
      const result = applyBatch(docs[i], [
        { op: 'add', path: '/plays/-', value: { ...last, id: `bench${n}` } },
        { op: 'replace', path: '/header/competitions/0/competitors/0/score', value: String(n) },
      ]);
      if (!result.ok) throw new Error(result.error);
      docs[i] = result.doc;
    }
  const h2 = collect();
  const kb = (bytes: number): number => Math.round(bytes / docs.length / 1024);
  return {
    games: docs.length,
    jsonKbPerGame: kb(texts.reduce((sum, t) => sum + t.length, 0)),
    playsAtCheckpoint: JSON.parse(texts[0] as string).plays.length,
    heapKbPerGame: kb(h1 - h0),
    heapKbPerGameAfterBatches: kb(h2 - h0),
  };
}

const synthetic = Array.from({ length: GAMES }, (_, i) =>
  JSON.stringify(generateFinishedSummary('mens', `4019${String(i).padStart(5, '0')}`, { seed: 2 })),
);
const fixtures = resolve(
  process.env.COURTSIDE_FIXTURES ??
    join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'shared', 'fixtures', 'espn'),
);
const recordedPath = join(fixtures, 'mens', 'summary__401705066_live.json');
const recorded = existsSync(recordedPath) ? readFileSync(recordedPath, 'utf8') : null;

console.log(
  JSON.stringify({
    bench: 'push-memory',
    batches: BATCHES,
    synthetic: measure(synthetic),
    recorded: recorded === null ? null : measure(Array.from({ length: GAMES }, () => recorded)),
  }),
);
