/**
 * What the two push benchmarks (push.ts, push-lookalike.ts) share: the upstream in a child process
 * of its own (so its work is not the daemons'), spoken to one JSON line at a time, and a daemon
 * with one WebSocket viewer that notes when each play reached it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import type { League } from '../src/core/leagues.js';
import { silentLogger } from '../src/core/log.js';
import { loadConfig } from '../src/daemon/config.js';
import { createDaemon } from '../src/daemon/daemon.js';
import { loadPushConfig } from '../src/daemon/push-config.js';
import type { GameEvent } from '../src/model/events.js';
import { percentile } from './percentile.js';

export const CHILD_FLAG = '--upstream-child';

export interface UpstreamChild<Info> {
  readonly child: ChildProcess;
  /** The first line the child wrote: where its servers listen. */
  readonly info: Info;
  /** Asks the child for its figures (one line in, one line out). */
  stats<Stats>(): Promise<Stats>;
  /** Ends the child: it closes its servers when its stdin ends. */
  end(): void;
}

/** Starts `script` with `--upstream-child` (then `args`) and reads its first line. */
export async function spawnUpstreamChild<Info>(
  script: string,
  args: readonly string[] = [],
): Promise<UpstreamChild<Info>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, CHILD_FLAG, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const queue: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => queue.shift()?.(line));
  const next = (): Promise<string> => new Promise((resolve) => queue.push(resolve));
  const info = JSON.parse(await next()) as Info;
  return {
    child,
    info,
    async stats<Stats>() {
      const answer = next();
      child.stdin!.write('stats\n');
      return JSON.parse(await answer) as Stats;
    },
    end: () => child.stdin!.end(),
  };
}

/** The child's side: answers every line on stdin with `stats()`, and closes when stdin ends. */
export function serveChild(info: unknown, stats: () => unknown, close: () => Promise<unknown>): void {
  process.stdout.write(`${JSON.stringify(info)}\n`);
  createInterface({ input: process.stdin }).on('line', () => {
    process.stdout.write(`${JSON.stringify(stats())}\n`);
  });
  process.stdin.on('end', () => void close().then(() => process.exit(0)));
}

export interface Follower {
  /** When each play's `play.added` reached the viewer (ms, wall clock), by play id. */
  readonly received: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** A daemon on `upstream` (summary every 1 s), pushed from `fastcastUrl` unless null, and its viewer. */
export async function followWithViewer(
  upstream: string,
  league: League,
  fastcastUrl: string | null,
): Promise<Follower> {
  const config = loadConfig({
    env: {},
    flags: {
      port: 0,
      host: '127.0.0.1',
      upstream,
      leagues: league,
      summaryInterval: 1000,
      logLevel: 'silent',
    },
  });
  const push = fastcastUrl === null ? null : loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: fastcastUrl } });
  const daemon = createDaemon(config, { logger: silentLogger, push });
  await daemon.start();
  const received = new Map<string, number>();
  const ws = new WebSocket(`${daemon.url.replace(/^http/, 'ws')}/v1/stream`);
  ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
  ws.on('message', (data) => {
    const at = Date.now();
    const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
    const e = frame.event;
    if (
      frame.type === 'event' &&
      e?.type === 'play.added' &&
      e.data.play.id !== null &&
      !received.has(e.data.play.id)
    )
      received.set(e.data.play.id, at);
  });
  return {
    received,
    async close() {
      ws.close();
      await daemon.close();
    },
  };
}

/**
 * Publication → viewer, p50 and p95 (ms), over the plays published at or after `from`; a play
 * whose publication is unknown is left out.
 */
export function latencies(
  received: ReadonlyMap<string, number>,
  publishedAt: (playId: string) => number | undefined,
  from: number,
): { plays: number; p50Ms: number; p95Ms: number } {
  const lags: number[] = [];
  for (const [id, at] of received) {
    const published = publishedAt(id);
    if (published !== undefined && published >= from) lags.push(at - published);
  }
  lags.sort((a, b) => a - b);
  return {
    plays: lags.length,
    p50Ms: Math.round(percentile(lags, 0.5)),
    p95Ms: Math.round(percentile(lags, 0.95)),
  };
}
