/**
 * `npm run bench:engine`: prints one JSON line.
 *
 * 1. Diff cost per poll (median, p99; JSON.parse excluded: each poll's payload is parsed before
 *    the clock starts) for a 450-play and a 900-play game, each poll adding 1-3 plays. Payloads
 *    are synthetic games from the simulator's generator, grown to the target length.
 * 2. CPU share and peak RSS of this process (engine + client + memory bus) while it follows 15
 *    simulated games at 20× speed with the default intervals. The simulator runs in a child
 *    process so its own work is not counted. The games last ~7 minutes at 20×; the benchmark
 *    samples a fixed 60 s window (BENCH_WINDOW_MS) of it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createMemoryBus } from '../src/bus/memory.js';
import { createEspnClient } from '../src/espn-client/client.js';
import { parsePlays } from '../src/tables/index.js';
import { generateFinishedSummary, startUpstream } from '../src/simulator/index.js';
import { createEngine } from '../streams/engine.js';
import { diffSummary } from '../streams/game-diff.js';
import { newGameState } from '../streams/diff-state.js';
import type { RawPlay } from '../streams/play-fingerprint.js';
import { percentile } from './percentile.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const SIM_GAMES = 15;
const SIM_SPEED = 20;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
// Enough polls for a stable p99 without making the run long.
const POLLS = 300;

if (process.argv.includes('--upstream-child')) {
  const sim = await startUpstream({
    simulate: { games: SIM_GAMES, seed: 1, staggerMs: 0 },
    speed: SIM_SPEED,
  });
  process.stdout.write(`${sim.url}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void sim.close().then(() => process.exit(0)));
} else {
  const diff = { plays450: diffCost(450), plays900: diffCost(900) };
  const live = await liveLoad();
  console.log(JSON.stringify({ bench: 'engine', diffPerPollMs: diff, live, node: process.version }));
}

/** A finished synthetic summary with at least `n` plays (games joined, ids kept unique). */
function template(n: number): Record<string, any> {
  const base = generateFinishedSummary('mens', '401999001', { seed: 1 });
  const plays: any[] = [];
  for (let g = 0; plays.length < n; g++) {
    const more = generateFinishedSummary('mens', `40199900${g + 1}`, { seed: 1 + g }).plays as any[];
    for (const p of more) plays.push({ ...p, id: `${g}${p.id}` });
  }
  return { ...base, plays: plays.slice(0, n) };
}

function diffCost(n: number): Record<string, number> {
  const full = template(n);
  const plays = full.plays as any[];
  const win = plays.map((p, i) => ({
    playId: p.id,
    homeWinPercentage: 0.5 + (i % 10) / 100,
    tiePercentage: 0,
  }));
  const header = JSON.parse(JSON.stringify(full.header));
  header.competitions[0].status = {
    period: 4,
    displayClock: '5:00',
    type: { id: '2', name: 'STATUS_IN_PROGRESS', state: 'in', completed: false, detail: '5:00 - 4th' },
  };
  // Lengths of successive polls: start POLLS×2 plays short of n, add 1-3 each poll.
  const lengths: number[] = [];
  let len = Math.max(1, n - POLLS * 2);
  let seed = 7;
  while (len < n) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    len = Math.min(n, len + 1 + (seed % 3));
    lengths.push(len);
  }
  // Each poll's body is serialised and parsed outside the timed section (fresh objects, like a
  // real response), one at a time so the benchmark does not hold hundreds of payloads.
  const body = (l: number) =>
    JSON.parse(JSON.stringify({ header, plays: plays.slice(0, l), winprobability: win.slice(0, l) }));
  const state = newGameState('mens', '401999001');
  const ctx = {
    toRows: (items: readonly RawPlay[]) => parsePlays({ plays: items }),
    where: 'bench',
  };
  const first = diffSummary(
    state,
    { header, plays: plays.slice(0, Math.max(1, n - POLLS * 2)), winprobability: win },
    { ...ctx, now: Date.now() },
  );
  if (first.kind === 'diff') first.apply();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const l of lengths) {
    const raw = body(l); // parsed before timing: the figure excludes JSON.parse
    const c = process.cpuUsage();
    const t = performance.now();
    const d = diffSummary(state, raw, { ...ctx, now: Date.now() });
    if (d.kind === 'diff') d.apply();
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    median: round(percentile(wall, 0.5)),
    p99: round(percentile(wall, 0.99)),
    // CPU time of the process during the diff: less inflated than wall time on a loaded machine.
    cpuMedian: round(percentile(cpu, 0.5)),
    cpuP99: round(percentile(cpu, 0.99)),
    polls: wall.length,
  };
}

async function liveLoad(): Promise<Record<string, unknown>> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--upstream-child'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const client = createEspnClient({ upstream: url });
  const bus = createMemoryBus();
  const engine = createEngine({ client, leagues: ['mens', 'womens'], bus });
  let events = 0;
  engine.events$.subscribe(() => events++);
  engine.start();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 500);
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  const polled = engine.status().filter((s) => s.poller === 'summary').length;
  await engine.close();
  await client.close();
  await bus.close();
  child.stdin.end();
  return {
    games: SIM_GAMES,
    speed: SIM_SPEED,
    windowMs: WINDOW_MS,
    gamesPolled: polled,
    events,
    cpuShareOfOneCore: Math.round(((cpu.user + cpu.system) / 1000 / wall) * 10000) / 10000,
    rssMaxMiB: Math.round(rssMax / 1024 / 1024),
  };
}
