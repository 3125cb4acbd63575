/**
 * `npm run bench:bus`: prints one JSON line. How many events a second one Redis node takes through
 * the bus's commit script (the fenced, atomic append the pollers use), from 15 games committing at
 * once, each commit carrying 3 events as a busy poll does. One node is what a Redis Cluster gives
 * the log, whose keys share one hash tag (docs/decisions.md, "Redis Cluster"): this is the ceiling
 * on the log's rate however many nodes the Cluster has.
 *
 * REDIS_URL (default redis://127.0.0.1:6379); keys under a fresh prefix, deleted afterwards.
 */
import { randomUUID } from 'node:crypto';
import { createRedisBus } from '../src/bus/redis.js';
import type { GameKey } from '../src/bus/types.js';
import { deleteKeys } from '../test/support/redis.js';
import { makeEvents } from '../test/support/events.js';

const URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GAMES = 15;
const COMMITS_PER_GAME = Number(process.env.BENCH_COMMITS ?? 400);
const EVENTS_PER_COMMIT = 3;

const prefix = `courtside-bench:${randomUUID().slice(0, 8)}:`;
const bus = createRedisBus({ url: URL, prefix, retention: 1_000_000 });
try {
  const games: GameKey[] = Array.from({ length: GAMES }, (_, i) => ({ league: 'mens', gameId: `9${i}` }));
  const started = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    games.map(async (game) => {
      for (let c = 0; c < COMMITS_PER_GAME; c++) {
        const events = makeEvents(game, c * EVENTS_PER_COMMIT + 1, EVENTS_PER_COMMIT);
        const t0 = performance.now();
        await bus.commit(game, events, { meta: { seq: events.at(-1)?.seq ?? 0 } });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const events = GAMES * COMMITS_PER_GAME * EVENTS_PER_COMMIT;
  console.log(
    JSON.stringify({
      bench: 'bus-commit',
      games: GAMES,
      commits: GAMES * COMMITS_PER_GAME,
      eventsPerCommit: EVENTS_PER_COMMIT,
      eventsPerSecond: Math.round(events / seconds),
      commitsPerSecond: Math.round((GAMES * COMMITS_PER_GAME) / seconds),
      commitP50Ms: Math.round(latencies[Math.floor(latencies.length * 0.5)]! * 100) / 100,
      commitP99Ms: Math.round(latencies[Math.floor(latencies.length * 0.99)]! * 100) / 100,
      node: process.version,
    }),
  );
} finally {
  await bus.close();
  await deleteKeys(URL, prefix);
}
