/**
 * `npm run bench:push`: prints one JSON line.
 *
 * A push daemon (FastCast, reconciliation poll every 15 s) and a poll-only daemon (summary every
 * 1 s) follow the same synthetic games side by side, each against its own simulator (a child
 * process each, so the simulators' work is not the daemons'), with the site summary lagging the
 * push document by BENCH_CDN_LAG_MS (default 3000). For each daemon:
 * - play published → WebSocket viewer, p50 and p95 (ms): a viewer subscribed to everything
 *   receives `play.added`; "published" is the moment the simulator reveals the play, which push
 *   carries within one publication tick (5 ms here) and polling shows once the CDN's copy has it.
 *   `withoutCdnLag` takes the lag out of polling's figures;
 * - summary requests and bytes (uncompressed JSON) per game per minute of play.
 * Plays revealed in the first BENCH_WARMUP_MS are left out: they reach the daemons with the
 * first poll or checkpoint, not as they happen.
 */
import { fileURLToPath } from 'node:url';
import { startUpstream } from '../src/simulator/index.js';
import {
  CHILD_FLAG,
  followWithViewer,
  latencies,
  serveChild,
  spawnUpstreamChild,
  type Follower,
  type UpstreamChild,
} from './push-support.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const GAMES = 3;
const SPEED = 6;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 15_000);
const CDN_LAG_MS = Number(process.env.BENCH_CDN_LAG_MS ?? 3_000);

interface ChildInfo {
  url: string;
  fastcastUrl: string;
  /** Reveal time (ms, wall clock) of every play, by play id. */
  reveal: Record<string, number>;
}

if (process.argv.includes(CHILD_FLAG)) {
  const sim = await startUpstream({
    simulate: { games: GAMES, seed: 11, staggerMs: 0, leagues: ['mens'] },
    speed: SPEED,
    faults: `cdnlag=${CDN_LAG_MS}`,
    fastcast: { tickMs: 5 },
  });
  const reveal: Record<string, number> = {};
  for (const game of sim.games) {
    const plays = (game.final.plays as any[]) ?? [];
    const wall = plays.map((p) => Date.parse(p.wallclock));
    const t0 = Math.min(...wall.filter(Number.isFinite));
    let previous = 0;
    plays.forEach((p, i) => {
      const w = wall[i] ?? NaN;
      previous = Number.isFinite(w) ? w - t0 : previous;
      reveal[String(p.id)] = game.startAt + previous / SPEED;
    });
  }
  serveChild(
    { url: sim.url, fastcastUrl: sim.fastcastUrl as string, reveal } satisfies ChildInfo,
    () => {
      let bytes = 0;
      let requests = 0;
      for (const r of sim.requests.entries) {
        if (!r.path.endsWith('/summary')) continue;
        const game = sim.games.find((g) => g.id === r.query.event);
        requests++;
        bytes += game ? Buffer.byteLength(game.summaryText(r.at - CDN_LAG_MS)) : 0;
      }
      return { requests, bytes };
    },
    () => sim.close(),
  );
} else {
  // A simulator each, so that one daemon's requests are not the other's.
  const script = fileURLToPath(import.meta.url);
  const sims = await Promise.all([
    spawnUpstreamChild<ChildInfo>(script),
    spawnUpstreamChild<ChildInfo>(script),
  ]);
  const [pushSim, pollSim] = sims;
  const push = await followWithViewer(pushSim.info.url, 'mens', pushSim.info.fastcastUrl);
  const poll = await followWithViewer(pollSim.info.url, 'mens', null);
  const started = Date.now();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const minutes = (Date.now() - started) / 60_000;
  const finish = async (sim: UpstreamChild<ChildInfo>, follower: Follower) => {
    const { requests, bytes } = await sim.stats<{ requests: number; bytes: number }>();
    await follower.close();
    sim.end();
    return {
      ...latencies(follower.received, (id) => sim.info.reveal[id], started + WARMUP_MS),
      summaryRequestsPerGameMinute: Number((requests / GAMES / minutes).toFixed(2)),
      summaryBytesPerGameMinute: Math.round(bytes / GAMES / minutes),
    };
  };
  const [p, q] = await Promise.all([finish(pushSim, push), finish(pollSim, poll)]);
  const ratio = p.summaryRequestsPerGameMinute / q.summaryRequestsPerGameMinute;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'push',
      games: GAMES,
      speed: SPEED,
      windowMs: WINDOW_MS,
      cdnLagMs: CDN_LAG_MS,
      push: p,
      poll: { ...q, withoutCdnLag: { p50Ms: q.p50Ms - CDN_LAG_MS, p95Ms: q.p95Ms - CDN_LAG_MS } },
      pushShareOfPollRequests: Number(ratio.toFixed(3)),
    })}\n`,
  );
  process.exit(0);
}
