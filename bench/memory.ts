/**
 * Memory benchmark (`npm run bench:memory`): where a daemon's resident memory goes under a fixed
 * load, the way `npm start` runs it (the build in dist/, a child process, Redis). The simulator
 * plays 15 games at once at 20x; BENCH_MEMORY_VIEWERS (default 1,000) WebSocket viewers in this
 * process subscribe to everything; the daemon polls each game every second. Sampled every 2 s for
 * BENCH_MEMORY_SECONDS (default 150); medians over the samples after the first 30 s:
 *  - rss: resident set size;
 *  - brk: glibc's main arena (the C heap), the part that stays high once fragmented;
 *  - anon / file: the other anonymous mappings (V8's pages, large blocks) and the mapped binary;
 *  - v8Old: V8's old space, committed and in use; external: memory V8 holds outside its heap;
 *  - how often V8 ran scavenges and mark-compacts, which follows the daemon's allocation rate;
 *  - the daemon's CPU time over the whole run, and the frames the viewers received.
 * One JSON line at the end. Needs REDIS_URL (default redis://127.0.0.1:6379) and `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { startUpstream } from '../src/simulator/index.js';
import { readMemoryMap, readRss } from '../test/reliability/harness/rss.js';
import { startDaemonChild } from '../test/reliability/harness/soak.js';
import { deleteKeys } from '../test/support/redis.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_MEMORY_SECONDS ?? 150);
const VIEWERS = Number(process.env.BENCH_MEMORY_VIEWERS ?? 1_000);
const GAMES = 15;
// The first half-minute: viewers connect, code is compiled, the replay window starts filling.
const WARMUP_SECONDS = 30;

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * From the daemon's /metrics: V8's old space (committed, in use) and external memory in MiB, and
 * how many scavenges (minor) and mark-compacts (major) V8 has run.
 */
async function v8Figures(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (re: RegExp): number => Number(re.exec(text)?.[1] ?? 0);
  return {
    oldCommitted: mb(value(/heap_space_size_total_bytes\{space="old"\} (\d+)/)),
    oldUsed: mb(value(/heap_space_size_used_bytes\{space="old"\} (\d+)/)),
    external: mb(value(/external_memory_bytes (\d+)/)),
    minorGcs: value(/gc_duration_seconds_count\{kind="minor"\} (\d+)/),
    majorGcs: value(/gc_duration_seconds_count\{kind="major"\} (\d+)/),
  };
}

/** User + system CPU seconds of a process, from /proc/<pid>/stat (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function main(): Promise<void> {
  const upstream = await startUpstream({ simulate: { games: GAMES, seed: 2026, staggerMs: 0 }, speed: 20 });
  const prefix = `courtside-bench:${randomUUID().slice(0, 8)}:`;
  const daemon = await startDaemonChild(
    [
      ...['--port', '0', '--host', '127.0.0.1', '--redis', REDIS_URL, '--prefix', prefix],
      ...['--upstream', upstream.url, '--summary-interval', '1000'],
    ],
    'dist',
  );
  let frames = 0;
  const viewers: WebSocket[] = [];
  for (let i = 0; i < VIEWERS; i++) {
    const ws = new WebSocket(`${daemon.url.replace('http', 'ws')}/v1/stream`);
    ws.on('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'v', snapshot: true })));
    ws.on('message', () => frames++);
    ws.on('error', () => undefined);
    viewers.push(ws);
    if (i % 50 === 49) await sleep(20);
  }

  const samples: Array<Record<string, number>> = [];
  const started = Date.now();
  while (Date.now() - started < SECONDS * 1000) {
    await sleep(2_000);
    samples.push({
      t: (Date.now() - started) / 1000,
      rss: mb(readRss(daemon.pid)),
      ...readMemoryMap(daemon.pid),
      ...(await v8Figures(daemon.url)),
    });
  }
  const steady = samples.filter((s) => (s.t ?? 0) >= WARMUP_SECONDS);
  const med = (key: string): number => median(steady.map((s) => s[key] ?? 0));
  // How many times `key` went up per `seconds` over the steady part, to two decimals.
  const rate = (key: string, seconds: number): number => {
    const [first, last] = [steady[0], steady.at(-1)];
    if (!first || !last || last.t === first.t) return 0;
    const perSecond = ((last[key] ?? 0) - (first[key] ?? 0)) / ((last.t ?? 0) - (first.t ?? 0));
    return Math.round(perSecond * seconds * 100) / 100;
  };
  const figures = {
    bench: 'memory',
    games: GAMES,
    viewers: VIEWERS,
    seconds: SECONDS,
    rssMedianMb: med('rss'),
    rssMaxMb: Math.max(...steady.map((s) => s.rss ?? 0)),
    brkMedianMb: med('brk'),
    brkEndMb: samples.at(-1)?.brk ?? 0,
    anonMedianMb: med('anon'),
    fileMedianMb: med('file'),
    v8OldCommittedMedianMb: med('oldCommitted'),
    v8OldUsedMedianMb: med('oldUsed'),
    externalMedianMb: med('external'),
    // Over the steady part: how often V8 collected, which follows how fast the daemon allocates.
    minorGcsPerSecond: rate('minorGcs', 1),
    majorGcsPerMinute: rate('majorGcs', 60),
    daemonCpuSeconds: cpuSeconds(daemon.pid),
    framesReceived: frames,
    upstreamRequests: upstream.requests.count(),
    node: process.version,
  };
  for (const ws of viewers) ws.terminate();
  await new Promise<void>((resolve) => {
    daemon.child.once('exit', () => resolve());
    daemon.child.kill('SIGTERM');
  });
  await upstream.close();
  await deleteKeys(REDIS_URL, prefix);
  console.log(JSON.stringify(figures));
}

await main();
