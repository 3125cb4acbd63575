/**
 * `npm run bench:push:lookalike`: prints one JSON line.
 *
 * Push against a FastCast that is not courtside's simulator: the look-alike of
 * test/support/fastcast-lookalike.ts (written from the protocol facts alone, its own patch styles,
 * mids, checkpoints on another host), following a recorded final that a simulator with push off
 * replays at BENCH_SPEED (default 10). Both run in a child process, so their work is not the
 * daemons'. The site summary lags the push document by BENCH_CDN_LAG_MS (3000). A push daemon
 * (reconciliation every 15 s) and a poll-only daemon (summary every 1 s) follow it side by side,
 * one WebSocket viewer each, for BENCH_WINDOW_MS (180000). The look-alike loses one frame in
 * every BENCH_FAULT_EVERY (40) publications and sends a patch that cannot apply in as many
 * (offset by half), and announces each new checkpoint.
 *
 * For each daemon: play published (the look-alike's frame carrying it) → `play.added` at the
 * viewer, p50 and p95 (ms), polling's also with the lag taken out; summary requests per minute of
 * the game followed. Plays published in the first BENCH_WARMUP_MS (15000) are left out: they reach
 * the daemons with the first checkpoint or poll, not as they happen.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { silentLogger } from '../src/core/log.js';
import { loadConfig } from '../src/daemon/config.js';
import { createDaemon } from '../src/daemon/daemon.js';
import { loadPushConfig } from '../src/daemon/push-config.js';
import type { GameEvent } from '../src/model/events.js';
import { startUpstream } from '../src/simulator/index.js';
import { startLookalike, type LookalikeStats } from '../test/support/fastcast-lookalike.js';
import { finishedSummaries } from '../test/support/fixtures.js';

const SPEED = Number(process.env.BENCH_SPEED ?? 10);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 180_000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 15_000);
const CDN_LAG_MS = Number(process.env.BENCH_CDN_LAG_MS ?? 3_000);
const FAULT_EVERY = Number(process.env.BENCH_FAULT_EVERY ?? 40);

interface ChildInfo {
  game: string;
  league: 'mens' | 'womens';
  discoveryUrl: string;
  siteUrls: Record<string, string>;
}
interface ChildStats {
  stats: LookalikeStats;
  publishedAt: Record<string, number>;
}

if (process.argv.includes('--upstream-child')) {
  const files = finishedSummaries();
  const file =
    files.find((f) => f.qualifier === process.env.BENCH_GAME) ?? files.find((f) => f.league === 'mens');
  if (!file) throw new Error('no recorded final found (../shared/fixtures/espn)');
  const sim = await startUpstream({ replay: [file.file], speed: SPEED, push: false });
  const game = sim.games[0]!;
  const every = (offset: number): number[] => Array.from({ length: 200 }, (_, i) => offset + FAULT_EVERY * i);
  const look = await startLookalike({
    upstream: sim.url,
    league: game.league === 'mens' ? 'nba' : 'wnba',
    gameId: game.id,
    sites: ['push', 'poll'],
    cdnLagMs: CDN_LAG_MS,
    lostFrameAt: every(FAULT_EVERY),
    badPatchAt: every(FAULT_EVERY + Math.floor(FAULT_EVERY / 2)),
    variant: { announceCheckpoints: true },
  });
  const info: ChildInfo = {
    game: game.id,
    league: game.league,
    discoveryUrl: look.discoveryUrl,
    siteUrls: { ...look.siteUrls },
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  createInterface({ input: process.stdin }).on('line', () => {
    const answer: ChildStats = { stats: look.stats, publishedAt: Object.fromEntries(look.publishedAt) };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
  process.stdin.on('end', () => void Promise.all([look.close(), sim.close()]).then(() => process.exit(0)));
} else {
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

  const follow = async (site: string, withPush: boolean) => {
    const config = loadConfig({
      env: {},
      flags: {
        port: 0,
        host: '127.0.0.1',
        upstream: site,
        leagues: info.league,
        summaryInterval: 1000,
        logLevel: 'silent',
      },
    });
    const push = withPush ? loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: info.discoveryUrl } }) : null;
    const daemon = createDaemon(config, { logger: silentLogger, push });
    await daemon.start();
    const received = new Map<string, number>();
    const ws = new WebSocket(`${daemon.url.replace(/^http/, 'ws')}/v1/stream`);
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
    ws.on('message', (data) => {
      const at = Date.now();
      const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
      const e = frame.event;
      if (frame.type === 'event' && e?.type === 'play.added' && e.data.play.id !== null)
        received.set(e.data.play.id, at);
    });
    return { daemon, ws, received };
  };
  const started = Date.now();
  const [push, poll] = await Promise.all([
    follow(info.siteUrls.push!, true),
    follow(info.siteUrls.poll!, false),
  ]);
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const minutes = (Date.now() - started) / 60_000;
  const answer = next();
  child.stdin.write('stats\n');
  const { stats, publishedAt } = JSON.parse(await answer) as ChildStats;
  for (const d of [push, poll]) {
    d.ws.close();
    await d.daemon.close();
  }
  child.stdin.end();

  const from = started + WARMUP_MS;
  const figures = (received: Map<string, number>, requests: number) => {
    const lags: number[] = [];
    for (const [id, at] of received) {
      const published = publishedAt[id];
      if (published !== undefined && published >= from) lags.push(at - published);
    }
    lags.sort((a, b) => a - b);
    const q = (p: number): number =>
      Math.round(lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN);
    return {
      plays: lags.length,
      p50Ms: q(0.5),
      p95Ms: q(0.95),
      summaryRequests: requests,
      summaryRequestsPerGameMinute: Number((requests / minutes).toFixed(2)),
    };
  };
  const p = figures(push.received, stats.summaryRequests.push ?? 0);
  const q = figures(poll.received, stats.summaryRequests.poll ?? 0);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'push-lookalike',
      game: info.game,
      speed: SPEED,
      windowMs: WINDOW_MS,
      cdnLagMs: CDN_LAG_MS,
      lookalike: {
        publications: stats.publications,
        lostFrames: stats.lostFrames,
        badPatches: stats.badPatches,
        resubscribes: stats.resubscribes,
        announcedCheckpoints: stats.announcedCheckpoints,
        refusedUpgrades: stats.refusedUpgrades,
        connections: stats.connections,
      },
      push: p,
      poll: { ...q, withoutCdnLag: { p50Ms: q.p50Ms - CDN_LAG_MS, p95Ms: q.p95Ms - CDN_LAG_MS } },
      pushShareOfPollRequests: Number((p.summaryRequests / q.summaryRequests).toFixed(3)),
      pushSpeedupWithoutCdnLag: Number(((q.p50Ms - CDN_LAG_MS) / p.p50Ms).toFixed(1)),
    })}\n`,
  );
  process.exit(0);
}
