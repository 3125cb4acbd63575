/**
 * `npm run bench:isolation`: prints one JSON line. Live latency under on-demand load.
 *
 * The simulator (this process) answers every request after BENCH_UPSTREAM_LATENCY_MS (300 ms, the
 * order of ESPN's answers) and plays one synthetic game at BENCH_SPEED (20×: about a play a
 * second). The daemon (its own process, `bench/isolation-daemon.ts`) polls the game's summary every
 * second. A WebSocket viewer here measures each play's latency: when the viewer got `play.added`
 * minus when the simulator started serving the play. Then, BENCH_PHASE_MS (40 s) each:
 *  - alone: nothing else;
 *  - 40 and 200 on-demand clients (`bench/isolation-load.ts`, their own process), each with its own
 *    address, asking summaries of games that do not exist in a loop and waiting what a 429's
 *    `Retry-After` says: every one needs ESPN, none is cached;
 *  - a resume storm: BENCH_STORM_CLIENTS (1,000) WebSocket clients resume from the log's start at once.
 * Per phase: the live p50/p95, the on-demand requests the simulator got a second (mean, and the most
 * in one second), and the clients' answers by status.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { startUpstream } from '../src/simulator/index.js';
import { percentile } from './percentile.js';

const LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 300);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 40_000);
const SPEED = Number(process.env.BENCH_SPEED ?? 20);
const STORM_CLIENTS = Number(process.env.BENCH_STORM_CLIENTS ?? 1_000);
const LOADS = [40, 200];
// Ids the load asks for; the simulator's own games start with 9.
const LOAD_IDS = { min: 800_000_000, max: 900_000_000 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const upstream = await startUpstream({
  simulate: { games: 1, seed: 7, leagues: ['mens'], staggerMs: 0 },
  speed: SPEED,
  faults: { latency: LATENCY_MS },
});
if (!upstream.games[0]) throw new Error('the simulator has no game');
const game = upstream.games[0];

/** When the simulator started serving its `k`-th play (1-based): state() is a function of time. */
function revealAt(k: number): number {
  let lo = game.startAt;
  let hi = game.endAt;
  if (game.state(hi).revealed < k) return Infinity;
  if (game.state(lo).revealed >= k) return lo;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (game.state(mid).revealed >= k) hi = mid;
    else lo = mid;
  }
  return hi;
}

function child(file: string, args: string[] = []): ChildProcess {
  return fork(fileURLToPath(new URL(file, import.meta.url)), args, { execArgv: ['--import', 'tsx'] });
}

function reply<T>(process: ChildProcess): Promise<T> {
  return new Promise((resolve) => process.once('message', (m: T) => resolve(m)));
}

const daemonProcess = child('isolation-daemon.ts', [upstream.url]);
const { url } = await reply<{ url: string }>(daemonProcess);
const load = child('isolation-load.ts');

// The viewer: every play of the game from the log's start, so the k-th play.added is the k-th play.
const received: Array<{ k: number; at: number }> = [];
const viewer = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, {
  headers: { 'x-forwarded-for': '10.255.255.254' },
});
viewer.on('message', (data: Buffer) => {
  const frame = JSON.parse(data.toString()) as { type: string };
  if (frame.type === 'event') received.push({ k: received.length + 1, at: Date.now() });
});
await new Promise((resolve) => viewer.once('open', resolve));
viewer.send(JSON.stringify({ op: 'subscribe', id: 'live', types: ['play.added'], since: '0-0' }));
while (received.length === 0) await sleep(100);

/** Live latency of the plays the simulator started serving in [from, to). */
function live(from: number, to: number): { p50: number; p95: number; samples: number } {
  const latencies = received
    .map(({ k, at }) => ({ revealed: revealAt(k), at }))
    .filter(({ revealed }) => revealed >= from && revealed < to)
    .map(({ revealed, at }) => at - revealed)
    .sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), samples: latencies.length };
}

/** On-demand requests the simulator got in [from, to): a second on average, and the most in one second. */
function onDemandUpstream(from: number, to: number): { perSecond: number; maxInOneSecond: number } {
  const seconds = new Map<number, number>();
  let total = 0;
  for (const r of upstream.requests.entries) {
    const id = Number(r.query.event);
    if (r.at < from || r.at >= to || !(id >= LOAD_IDS.min && id < LOAD_IDS.max)) continue;
    total++;
    const s = Math.floor((r.at - from) / 1000);
    seconds.set(s, (seconds.get(s) ?? 0) + 1);
  }
  return {
    perSecond: Math.round((total / ((to - from) / 1000)) * 10) / 10,
    maxInOneSecond: Math.max(0, ...seconds.values()),
  };
}

const figures: Record<string, unknown> = {
  bench: 'isolation',
  upstreamLatencyMs: LATENCY_MS,
  phaseMs: PHASE_MS,
  speed: SPEED,
};

let from = Date.now();
await sleep(PHASE_MS);
figures.alone = { live: live(from, Date.now() - 2_000) };

for (const clients of LOADS) {
  from = Date.now();
  load.send({ cmd: 'ops', url, clients, ms: PHASE_MS });
  const answers = await reply<Record<string, number>>(load);
  const to = Date.now();
  // Plays revealed in the last two seconds may still be on their way: not counted.
  figures[`clients${clients}`] = {
    live: live(from, to - 2_000),
    onDemandUpstream: onDemandUpstream(from, to),
    answers,
  };
}

from = Date.now();
load.send({ cmd: 'storm', url, clients: STORM_CLIENTS });
const storm = await reply<Record<string, number>>(load);
await sleep(Math.max(0, from + PHASE_MS / 2 - Date.now()));
figures.resumeStorm = { live: live(from, Date.now() - 2_000), storm };
figures.node = process.version;

console.log(JSON.stringify(figures));
viewer.terminate();
load.kill();
const exited = new Promise((resolve) => daemonProcess.once('exit', resolve));
daemonProcess.send({ cmd: 'close' });
await exited;
await upstream.close();
process.exit(0);
