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
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { loadConfig } from '../src/daemon/config.js';
import { createDaemon, type Daemon } from '../src/daemon/daemon.js';
import { loadPushConfig } from '../src/daemon/push-config.js';
import { silentLogger } from '../src/core/log.js';
import type { GameEvent } from '../src/model/events.js';
import { startUpstream } from '../src/simulator/index.js';

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

if (process.argv.includes('--upstream-child')) {
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
  const info: ChildInfo = { url: sim.url, fastcastUrl: sim.fastcastUrl as string, reveal };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  createInterface({ input: process.stdin }).on('line', () => {
    let bytes = 0;
    let requests = 0;
    for (const r of sim.requests.entries) {
      if (!r.path.endsWith('/summary')) continue;
      const game = sim.games.find((g) => g.id === r.query.event);
      requests++;
      bytes += game ? Buffer.byteLength(game.summaryText(r.at - CDN_LAG_MS)) : 0;
    }
    process.stdout.write(`${JSON.stringify({ requests, bytes })}\n`);
  });
  process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
} else {
  const push = await follow(true);
  const poll = await follow(false);
  const started = Date.now();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const minutes = (Date.now() - started) / 60_000;
  const [p, q] = await Promise.all([push.finish(minutes), poll.finish(minutes)]);
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

async function startChild(): Promise<{
  child: ChildProcess & { stdin: NodeJS.WritableStream };
  info: ChildInfo;
  stats(): Promise<any>;
}> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--upstream-child'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const queue: Array<(line: string) => void> = [];
  lines.on('line', (line) => queue.shift()?.(line));
  const next = (): Promise<string> => new Promise((resolve) => queue.push(resolve));
  const info = JSON.parse(await next()) as ChildInfo;
  return {
    child,
    info,
    stats: async () => {
      const answer = next();
      child.stdin.write('stats\n');
      return JSON.parse(await answer);
    },
  };
}

async function follow(withPush: boolean) {
  const sim = await startChild();
  const config = loadConfig({
    env: {},
    flags: {
      port: 0,
      host: '127.0.0.1',
      upstream: sim.info.url,
      leagues: 'mens',
      summaryInterval: 1000,
      logLevel: 'silent',
    },
  });
  const push = withPush ? loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: sim.info.fastcastUrl } }) : null;
  const daemon: Daemon = createDaemon(config, { logger: silentLogger, push });
  await daemon.start();
  const from = Date.now() + WARMUP_MS;
  const lags: number[] = [];
  const ws = new WebSocket(`${daemon.url.replace(/^http/, 'ws')}/v1/stream`);
  ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
  ws.on('message', (data) => {
    const at = Date.now();
    const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
    const e = frame.event;
    if (frame.type !== 'event' || e?.type !== 'play.added') return;
    const revealed = e.data.play.id === null ? undefined : sim.info.reveal[e.data.play.id];
    if (revealed !== undefined && revealed >= from) lags.push(at - revealed);
  });
  return {
    async finish(minutes: number) {
      const { requests, bytes } = await sim.stats();
      ws.close();
      await daemon.close();
      sim.child.stdin.end();
      lags.sort((a, b) => a - b);
      const q = (p: number): number =>
        Math.round(lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN);
      return {
        plays: lags.length,
        p50Ms: q(0.5),
        p95Ms: q(0.95),
        summaryRequestsPerGameMinute: Number((requests / GAMES / minutes).toFixed(2)),
        summaryBytesPerGameMinute: Math.round(bytes / GAMES / minutes),
      };
    },
  };
}
