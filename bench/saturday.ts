/**
 * `npm run bench:saturday`: prints one JSON line.
 *
 * A Saturday slate (BENCH_SLATE, default `mens-college=75,womens-college=75,mens=10,womens=5`,
 * the form of `courtside upstream --simulate`) on the project's simulator, in a child process of
 * its own, at BENCH_SPEED (default 1: real time). Every game is live at once: the simulator's own
 * Saturday tips off in waves over ten hours, so the bench adds the games league by league with no
 * stagger, all tipped off BENCH_INTO_GAME_MS (default 5 minutes, game time) before the start.
 * The built daemon (`dist/`, `courtside serve`, default intervals and live budget) follows all
 * four leagues in a child process, twice, each time against a fresh simulator: push on (the
 * simulator's FastCast) and push off (`--push off`: polling only, under `--live-budget`).
 *
 * After BENCH_WARMUP_MS (default 15 s) a window of BENCH_WINDOW_MS (default 60 s) is sampled:
 * - play published (the simulator reveals it) → WebSocket viewer `play.added`: p50 and p95 over
 *   all games' plays, and each game's p95 and the p95 of those, over plays revealed in the window;
 * - the daemon's CPU as a share of one core (utime + stime from /proc/<pid>/stat over the window)
 *   and its peak resident set (VmHWM);
 * - upstream requests per second by kind, counted at the simulator, and events per second at the
 *   viewer; with push off, the summary rate as a share of the live budget.
 * Jobs (BullMQ) are not measured here: `npm run bench:jobs` does.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startUpstream } from '../src/simulator/index.js';
import { parseSimulateSpec } from '../src/simulator/slate.js';
import { startDaemonProcess } from '../test/support/daemon-process.js';
import { watch } from '../test/support/play-viewer.js';
import { percentile } from './percentile.js';
import { CHILD_FLAG, serveChild, spawnUpstreamChild } from './push-support.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const SLATE = process.env.BENCH_SLATE ?? 'mens-college=75,womens-college=75,mens=10,womens=5';
const SPEED = Number(process.env.BENCH_SPEED ?? 1);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 15_000);
const INTO_GAME_MS = Number(process.env.BENCH_INTO_GAME_MS ?? 5 * 60_000);
const LIVE_BUDGET = Number(process.env.BENCH_LIVE_BUDGET ?? 30);
const LEAGUES = 'mens,womens,mens-college,womens-college';
// Linux reports utime and stime in clock ticks of 1/100 s on every platform Node runs on here.
const TICKS_PER_SECOND = 100;

interface ChildInfo {
  url: string;
  fastcastUrl: string | null;
  games: number;
  /** Reveal time (ms, wall clock) of every play, by game id then play id. */
  reveal: Record<string, Record<string, number>>;
}

/** Requests by kind since the last `stats`, which starts the count afresh. */
type ChildStats = Record<string, number>;

function requestKind(path: string): string {
  if (path.endsWith('/summary')) return 'summary';
  if (path.endsWith('/scoreboard')) return 'scoreboard';
  if (path.includes('websockethost')) return 'fastcastDiscovery';
  return path.split('/').filter(Boolean).at(-1) ?? 'other';
}

async function runChild(push: boolean): Promise<void> {
  const counts = parseSimulateSpec(SLATE);
  if (typeof counts === 'number')
    throw new Error(`BENCH_SLATE: "${SLATE}" is a count; expected league=count,… e.g. mens=10`);
  const sim = await startUpstream({ speed: SPEED, push });
  const tipOff = Date.now() - INTO_GAME_MS / SPEED;
  // One slate a league, each with a seed of its own so that their game ids differ.
  counts.forEach(([league, games], k) => {
    sim.addSlate({ games, seed: 101 + k, leagues: [league], staggerMs: 0 }, tipOff);
  });
  const reveal: ChildInfo['reveal'] = {};
  for (const game of sim.games) {
    const plays = (game.final.plays as any[]) ?? [];
    const wall = plays.map((p) => Date.parse(p.wallclock));
    const t0 = Math.min(...wall.filter(Number.isFinite));
    const byPlay: Record<string, number> = {};
    let previous = 0;
    plays.forEach((p, i) => {
      const w = wall[i] ?? NaN;
      previous = Number.isFinite(w) ? w - t0 : previous;
      byPlay[String(p.id)] = game.startAt + previous / SPEED;
    });
    reveal[game.id] = byPlay;
  }
  serveChild(
    { url: sim.url, fastcastUrl: sim.fastcastUrl, games: sim.games.length, reveal } satisfies ChildInfo,
    () => {
      const out: ChildStats = {};
      for (const r of sim.requests.entries) {
        const kind = requestKind(r.path);
        out[kind] = (out[kind] ?? 0) + 1;
      }
      sim.requests.clear();
      return out;
    },
    () => sim.close(),
  );
}

/** utime + stime of `pid`, seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), counted from field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

const round = (x: number, digits = 0): number => Number(x.toFixed(digits));

async function runOnce(push: boolean) {
  const script = fileURLToPath(import.meta.url);
  const sim = await spawnUpstreamChild<ChildInfo>(script, push ? ['on'] : ['off']);
  const args = [
    ...['--port', '0', '--host', '127.0.0.1', '--log-level', 'silent'],
    ...['--upstream', sim.info.url, '--leagues', LEAGUES, '--live-budget', String(LIVE_BUDGET)],
    ...(push ? ['--fastcast-url', sim.info.fastcastUrl!] : ['--push', 'off']),
  ];
  const daemon = await startDaemonProcess(args, { built: true });
  const pid = daemon.child.pid!;
  const viewer = await watch(daemon.url);
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  await sim.stats<ChildStats>();
  const eventsBefore = viewer.events.length;
  const cpuBefore = cpuSeconds(pid);
  const started = Date.now();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const seconds = (Date.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  const requests = await sim.stats<ChildStats>();
  const events = viewer.events.length - eventsBefore;
  const memory = daemon.memory();
  viewer.close();
  daemon.kill();
  sim.end();

  const all: number[] = [];
  const gameP95s: number[] = [];
  let gamesWithPlays = 0;
  for (const [gameId, plays] of viewer.received) {
    const reveal = sim.info.reveal[gameId] ?? {};
    const lags: number[] = [];
    for (const [playId, at] of plays) {
      const published = reveal[playId];
      if (published !== undefined && published >= started && published < started + seconds * 1000)
        lags.push(at - published);
    }
    if (!lags.length) continue;
    gamesWithPlays++;
    lags.sort((a, b) => a - b);
    all.push(...lags);
    gameP95s.push(percentile(lags, 0.95));
  }
  all.sort((a, b) => a - b);
  gameP95s.sort((a, b) => a - b);
  const perSecond = Object.fromEntries(
    Object.entries(requests)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => [kind, round(n / seconds, 2)]),
  );
  const summaryPerSecond = (requests.summary ?? 0) / seconds;
  return {
    plays: all.length,
    gamesWithPlays,
    p50Ms: Math.round(percentile(all, 0.5)),
    p95Ms: Math.round(percentile(all, 0.95)),
    gameP95P95Ms: Math.round(percentile(gameP95s, 0.95)),
    gameP95MaxMs: gameP95s.length ? Math.round(gameP95s.at(-1)!) : null,
    cpuShareOfCore: round(cpu / seconds, 3),
    peakRssMb: memory.peakMb,
    upstreamRequestsPerSecond: perSecond,
    eventsPerSecond: round(events / seconds, 1),
    ...(push ? {} : { summaryShareOfLiveBudget: round(summaryPerSecond / LIVE_BUDGET, 3) }),
  };
}

if (process.argv.includes(CHILD_FLAG)) {
  await runChild(process.argv.at(-1) !== 'off');
} else {
  const push = await runOnce(true);
  const poll = await runOnce(false);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'saturday',
      slate: SLATE,
      speed: SPEED,
      windowMs: WINDOW_MS,
      warmupMs: WARMUP_MS,
      liveBudget: LIVE_BUDGET,
      jobs: 'not measured (npm run bench:jobs)',
      push,
      poll,
    })}\n`,
  );
  process.exit(0);
}
