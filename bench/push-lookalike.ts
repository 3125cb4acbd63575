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
import { fileURLToPath } from 'node:url';
import { LEAGUE_SEGMENT, type League } from '../src/core/leagues.js';
import { startUpstream } from '../src/simulator/index.js';
import {
  startLookalike,
  type LookalikeGameStats,
  type LookalikeStats,
} from '../test/support/fastcast-lookalike.js';
import { finishedSummaries } from '../test/support/fixtures.js';
import { CHILD_FLAG, followWithViewer, latencies, serveChild, spawnUpstreamChild } from './push-support.js';

const SPEED = Number(process.env.BENCH_SPEED ?? 10);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 180_000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 15_000);
const CDN_LAG_MS = Number(process.env.BENCH_CDN_LAG_MS ?? 3_000);
const FAULT_EVERY = Number(process.env.BENCH_FAULT_EVERY ?? 40);

interface ChildInfo {
  game: string;
  league: League;
  discoveryUrl: string;
  siteUrls: Record<string, string>;
}
interface ChildStats {
  stats: LookalikeStats & LookalikeGameStats;
  publishedAt: Record<string, number>;
}

if (process.argv.includes(CHILD_FLAG)) {
  const files = finishedSummaries();
  const file =
    files.find((f) => f.qualifier === process.env.BENCH_GAME) ?? files.find((f) => f.league === 'mens');
  if (!file) throw new Error('no recorded final found (../shared/fixtures/espn)');
  const sim = await startUpstream({ replay: [file.file], speed: SPEED, push: false });
  const game = sim.games[0]!;
  const every = (offset: number): number[] => Array.from({ length: 200 }, (_, i) => offset + FAULT_EVERY * i);
  const look = await startLookalike({
    upstream: sim.url,
    league: LEAGUE_SEGMENT[game.league],
    games: [
      {
        gameId: game.id,
        lostFrameAt: every(FAULT_EVERY),
        badPatchAt: every(FAULT_EVERY + Math.floor(FAULT_EVERY / 2)),
      },
    ],
    sites: ['push', 'poll'],
    cdnLagMs: CDN_LAG_MS,
    variant: { announceCheckpoints: true },
  });
  const info: ChildInfo = {
    game: game.id,
    league: game.league,
    discoveryUrl: look.discoveryUrl,
    siteUrls: { ...look.siteUrls },
  };
  serveChild(
    info,
    (): ChildStats => {
      const followed = look.games[game.id]!;
      return {
        stats: { ...look.stats, ...followed.stats },
        publishedAt: Object.fromEntries(followed.publishedAt),
      };
    },
    () => Promise.all([look.close(), sim.close()]),
  );
} else {
  const upstream = await spawnUpstreamChild<ChildInfo>(fileURLToPath(import.meta.url));
  const { info } = upstream;
  const started = Date.now();
  const [push, poll] = await Promise.all([
    followWithViewer(info.siteUrls.push!, info.league, info.discoveryUrl),
    followWithViewer(info.siteUrls.poll!, info.league, null),
  ]);
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const minutes = (Date.now() - started) / 60_000;
  const { stats, publishedAt } = await upstream.stats<ChildStats>();
  await Promise.all([push.close(), poll.close()]);
  upstream.end();

  const from = started + WARMUP_MS;
  const figures = (received: ReadonlyMap<string, number>, requests: number) => ({
    ...latencies(received, (id) => publishedAt[id], from),
    summaryRequests: requests,
    summaryRequestsPerGameMinute: Number((requests / minutes).toFixed(2)),
  });
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
