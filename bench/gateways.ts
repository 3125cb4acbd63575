/**
 * Gateway capacity on Redis (`GATEWAYS_REDIS_URL=redis://… npm run bench:gateways`): events per
 * second that `serve --role gateway` processes deliver to 1,000 viewers subscribed to everything,
 * and per CPU-second of those processes; first one gateway with 1,000 viewers, then two gateways
 * on the same Redis with 500 each.
 *
 * Three kinds of process, so each figure is the gateway's alone: the gateways (real `serve`
 * processes, their CPU read from /proc), the viewers (bench/fanout-client.ts, forked) and this
 * process, which commits the events to the log as pollers would: every game of the slate at once,
 * a few events per commit, in a closed loop (at most WINDOW events in flight per viewer). One JSON
 * line at the end. Linux only (/proc); a fresh key prefix, deleted after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisBus } from '../src/bus/redis.js';
import type { Bus } from '../src/bus/types.js';
import { deleteKeys } from '../test/support/redis.js';
import { startClients, type FanoutClients } from './fanout-clients.js';
import { playEvent, SLATE } from './slate.js';

const REDIS_URL = process.env.GATEWAYS_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const VIEWERS = Number(process.env.GATEWAYS_VIEWERS ?? 1_000);
// Long enough to average out GC and a neighbour's load spikes, short enough for a shared machine.
const SECONDS = Number(process.env.GATEWAYS_SECONDS ?? 10);
// Events per commit per game: a poll that finds a few plays, and fewer Redis round trips per event,
// so the committer outpaces the gateways.
const EVENTS_PER_COMMIT = 4;
// Events in flight per viewer: covers the viewers' 50 ms progress reports on a loaded machine.
const WINDOW = 150;
const RETENTION = 20_000;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// Linux reports process CPU in clock ticks of 1/100 s.
const TICKS_PER_SECOND = 100;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Gateway {
  child: ChildProcess;
  url: string;
}

/** One `serve --role gateway` process on the bench's prefix, limits opened for 1,000 loopback viewers. */
async function startGateway(prefix: string): Promise<Gateway> {
  const args = [
    ...['--import', 'tsx', 'src/cli.ts', 'serve', '--role', 'gateway', '--port', '0', '--host', '127.0.0.1'],
    ...['--redis', REDIS_URL, '--prefix', prefix, '--log-level', 'warn'],
    ...['--stream-connections-per-address', String(VIEWERS * 2), '--subscribe-rate-limit', 'off'],
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /courtside listening on (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) =>
      reject(new Error(`gateway exited ${String(code)} before listening:\n${out}`)),
    );
  });
  return { child, url: `${url.replace(/^http/, 'ws')}/v1/stream` };
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

type Viewers = FanoutClients;

/** Every game commits EVENTS_PER_COMMIT events, all games at once, as pollers of a slate would. */
async function round(bus: Bus): Promise<number> {
  await Promise.all(
    SLATE.map((g) =>
      bus.commit(
        { league: g.league, gameId: g.gameId },
        Array.from({ length: EVENTS_PER_COMMIT }, () => playEvent(g)),
        { meta: null },
      ),
    ),
  );
  return SLATE.length * EVENTS_PER_COMMIT;
}

interface Phase {
  gateways: number;
  viewers: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** CPU of every gateway process together, in cores over the phase. */
  gatewayCpu: number;
  eventsPerGatewayCpuSecond: number;
  committerCpu: number;
  p50Ms: number;
  p99Ms: number;
}

/** Commits for `seconds` in a closed loop over the viewers' progress; every event reaches every viewer. */
async function phase(bus: Bus, viewers: Viewers, gateways: Gateway[], seconds: number): Promise<Phase> {
  await viewers.ask({ cmd: 'stats' }, 'stats');
  const base = viewers.total();
  const cpuBefore = await Promise.all(gateways.map((g) => cpuSeconds(g.child.pid as number)));
  const own = process.cpuUsage();
  const started = performance.now();
  let produced = 0;
  while (performance.now() - started < seconds * 1000) {
    while (produced * VIEWERS - (viewers.total() - base) > WINDOW * VIEWERS) await sleep(2);
    produced += await round(bus);
  }
  const deadline = performance.now() + 30_000;
  while (viewers.total() - base < produced * VIEWERS && performance.now() < deadline) await sleep(5);
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = await Promise.all(gateways.map((g) => cpuSeconds(g.child.pid as number)));
  const used = process.cpuUsage(own);
  const stats = await viewers.ask<{ frames: number; p50: number; p99: number }>({ cmd: 'stats' }, 'stats');
  const gatewayCpuSeconds = cpuAfter.reduce((sum, after, i) => sum + after - (cpuBefore[i] as number), 0);
  const delivered = stats.frames / VIEWERS;
  const round2 = (x: number): number => Math.round(x * 100) / 100;
  return {
    gateways: gateways.length,
    viewers: VIEWERS,
    events: produced,
    seconds: round2(elapsed),
    eventsPerSecond: Math.round(delivered / elapsed),
    gatewayCpu: round2(gatewayCpuSeconds / elapsed),
    eventsPerGatewayCpuSecond: Math.round(delivered / gatewayCpuSeconds),
    committerCpu: round2((used.user + used.system) / 1e6 / elapsed),
    p50Ms: stats.p50,
    p99Ms: stats.p99,
  };
}

/** Connects the viewers spread evenly over `gateways`, measures a warm-up and then the phase. */
async function measure(bus: Bus, gateways: Gateway[]): Promise<Phase> {
  const viewers = startClients();
  for (const g of gateways) {
    await viewers.ask({ cmd: 'connect', url: g.url, n: VIEWERS / gateways.length }, 'ready');
  }
  await phase(bus, viewers, gateways, 2); // warm-up (JIT)
  const result = await phase(bus, viewers, gateways, SECONDS);
  await viewers.ask({ cmd: 'close' }, 'closed');
  viewers.child.disconnect();
  return result;
}

async function main(): Promise<void> {
  const prefix = `courtside-bench:${randomUUID().slice(0, 8)}:`;
  const bus = createRedisBus({ url: REDIS_URL, prefix, retention: RETENTION });
  const gateways: Gateway[] = [];
  try {
    gateways.push(await startGateway(prefix));
    const one = await measure(bus, gateways);
    gateways.push(await startGateway(prefix));
    const two = await measure(bus, gateways);
    console.log(
      JSON.stringify({
        bench: 'gateways',
        redis: 'standalone',
        games: SLATE.length,
        eventsPerCommit: EVENTS_PER_COMMIT,
        one,
        two,
        // What the second gateway adds to the events/s delivered to the same 1,000 viewers.
        secondGatewayGain: Math.round((two.eventsPerSecond / one.eventsPerSecond) * 100) / 100,
        node: process.version,
      }),
    );
  } finally {
    for (const g of gateways) g.child.kill('SIGTERM');
    await bus.close();
    await deleteKeys(REDIS_URL, prefix);
  }
}

await main();
