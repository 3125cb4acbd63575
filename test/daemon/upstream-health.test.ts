import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/daemon/config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import type { UpstreamHealth } from '../../src/server/routes/index.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { waitFor } from '../support/wait-for.js';

/**
 * A newcomer's first minutes: the daemon against an upstream nobody answers on (nothing listens
 * on port 1, as on a machine that cannot reach ESPN) and against the simulator. Real daemons,
 * real polls, real requests.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UNREACHABLE = 'http://127.0.0.1:1';
const NOTICE = /^cannot reach the upstream at http:\/\/127\.0\.0\.1:1: connect ECONNREFUSED 127\.0\.0\.1:1\b/;

interface LogRecord {
  level: number;
  msg: string;
  code?: string;
}

/** A logger whose JSON records the test reads back. */
function recordingLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) records.push(JSON.parse(line) as LogRecord);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), records };
}

function configFor(upstream: string) {
  return loadConfig({
    env: {},
    flags: { port: 0, host: '127.0.0.1', upstream, summaryInterval: 1000, logLevel: 'info' },
  });
}

async function liveOf(url: string): Promise<{ games: Array<{ gameId: string }>; upstream: UpstreamHealth }> {
  const res = await fetch(`${url}/v1/games/live`);
  expect(res.status).toBe(200);
  return (await res.json()) as { games: Array<{ gameId: string }>; upstream: UpstreamHealth };
}

describe('the daemon and its upstream', () => {
  let daemon: Daemon | undefined;
  let upstream: RunningUpstream | undefined;
  afterEach(async () => {
    await daemon?.close();
    await upstream?.close();
    daemon = undefined;
    upstream = undefined;
  });

  it('says once that it cannot reach the upstream, and shows it in /v1/games/live and /', async () => {
    const { logger, records } = recordingLogger();
    daemon = createDaemon(configFor(UNREACHABLE), { logger, client: { retries: 0, timeoutMs: 1_000 } });
    await daemon.start();
    const pollFailures = () => records.filter((r) => r.msg.startsWith('poll failed')).length;
    // Both leagues' scoreboards fail, then fail again after their backoff.
    await waitFor(() => pollFailures() >= 4, 15_000, 'four failed polls');

    const notices = records.filter((r) => NOTICE.test(r.msg));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: 40, code: 'UPSTREAM_NETWORK' });
    expect(notices[0]?.msg).toContain('`npm run demo`');
    expect(notices[0]?.msg).toContain('`--upstream <url>`');
    // The later failures stay the per-poll warnings.
    expect(records.filter((r) => r.msg.startsWith('poll failed')).every((r) => r.level === 40)).toBe(true);

    const live = await liveOf(daemon.url);
    expect(live.games).toEqual([]);
    expect(live.upstream.ok).toBe(false);
    expect(live.upstream.lastError).toMatchObject({ code: 'UPSTREAM_NETWORK' });
    expect(Date.parse(live.upstream.since ?? '')).toBeLessThanOrEqual(Date.now());

    const home = await fetch(`${daemon.url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain(`Cannot get live data from the upstream (<code>${UNREACHABLE}</code>)`);
    expect(html).toContain('<code>npm run demo</code>');
  });

  it('against the simulator: no notice, the upstream ok, the live games linked from /', async () => {
    upstream = await startUpstream({ simulate: { games: 2, seed: 3, staggerMs: 0 }, logger: silentLogger });
    const { logger, records } = recordingLogger();
    daemon = createDaemon(configFor(upstream.url), { logger, client: { retries: 0 } });
    await daemon.start();
    const url = daemon.url;
    await waitFor(async () => (await liveOf(url)).games.length === 2, 20_000, 'two live games');

    const live = await liveOf(url);
    expect(live.upstream).toMatchObject({ ok: true, lastError: null });
    const html = await (await fetch(`${url}/`)).text();
    for (const game of upstream.games) expect(html).toContain(`href="/overlay/${game.league}/${game.id}"`);
    expect(html).toContain('answering since');
    expect(records.some((r) => r.msg.startsWith('cannot reach'))).toBe(false);
  });

  it('`courtside serve` offline prints the one line among its JSON logs', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
    delete env.REDIS_URL;
    delete env.COURTSIDE_TOKENS;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli.ts',
        'serve',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
        '--upstream',
        UNREACHABLE,
      ],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // Whole lines only: a read may end in the middle of one.
      const records = (): LogRecord[] =>
        stderr
          .split('\n')
          .slice(0, -1)
          .map((line) => JSON.parse(line) as LogRecord);
      const failures = () => records().filter((r) => r.msg.startsWith('poll failed')).length;
      // The two leagues' first polls (each after its three retries): one line for both.
      await waitFor(
        () => failures() >= 2,
        30_000,
        () => `two failed polls; stderr so far:\n${stderr}`,
      );
      expect(records().filter((r) => NOTICE.test(r.msg))).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 45_000);
});
