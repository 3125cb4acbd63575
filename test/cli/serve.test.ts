import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { finishedSummaries, HAVE_FIXTURES, itRecorded } from '../support/fixtures.js';
import { getTestRedis } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Resolved once per file; the Redis test is skipped, with the reason printed, when none answers.
const REDIS = await getTestRedis();
await REDIS?.cleanup();
const GAME = finishedSummaries().find((f) => f.league === 'mens' && !f.qualifier.includes('roundtrip'));

interface Serve {
  child: ChildProcess;
  url: Promise<string>;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/** `courtside serve` as a child process, the way a user or a supervisor runs it. */
function serve(args: string[], nodeOptions?: string, extraEnv: NodeJS.ProcessEnv = {}): Serve {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  if (nodeOptions !== undefined) env.NODE_OPTIONS = nodeOptions;
  // The test chooses the bus: never inherit a Redis from the environment.
  delete env.REDIS_URL;
  delete env.COURTSIDE_TOKENS;
  delete env.COURTSIDE_RULES;
  Object.assign(env, extraEnv);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--host', '127.0.0.1', ...args],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /courtside listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${err}`)));
  });
  // Handled here so a serve that exits early does not leave an unhandled rejection behind.
  url.catch(() => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, url, stderr: () => err, exited };
}

describe('courtside serve', () => {
  let upstream: RunningUpstream | undefined;
  let running: Serve | undefined;
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null)
      running.child.kill('SIGKILL');
    await upstream?.close();
    upstream = undefined;
    running = undefined;
  });

  it('logs the heap limit it runs with (the one `npm start` gives: 512 MB of old space)', async () => {
    upstream = await startUpstream({ simulate: { games: 1, seed: 1 }, logger: silentLogger });
    running = serve(['--upstream', upstream.url], '--max-old-space-size=512');
    await running.url;
    // The log line may reach stderr after the stdout line.
    await waitFor(() => running?.stderr().includes('"courtside listening"') ?? false, 5_000, 'the log line');
    const line = running
      .stderr()
      .split('\n')
      .find((l) => l.includes('"courtside listening"'));
    const { heapLimitMb } = JSON.parse(line ?? '{}') as { heapLimitMb?: number };
    // The old space's 512 MB plus the young generation.
    expect(heapLimitMb).toBeGreaterThanOrEqual(512);
    expect(heapLimitMb).toBeLessThan(1024);
  });

  itRecorded(!HAVE_FIXTURES || !GAME)(
    `exits 0 within 5 s of SIGTERM and closes a WebSocket client with 1001`,
    async () => {
      // Slow enough that the game is still live when the signal arrives.
      upstream = await startUpstream({ replay: [GAME?.file ?? ''], speed: 50, logger: silentLogger });
      running = serve([
        '--upstream',
        upstream.url,
        '--leagues',
        'mens',
        '--summary-interval',
        '1000',
        '--log-level',
        'debug',
      ]);
      const url = await running.url;
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`);
      const events: string[] = [];
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; event?: { type: string } };
        if (frame.type === 'event' && frame.event) events.push(frame.event.type);
      });
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      ws.send(JSON.stringify({ op: 'subscribe', id: 'all' }));
      // Events flow and are logged at debug level.
      await waitFor(() => events.length > 0, 20_000, 'the first event');
      await waitFor(
        () => /play\.added|game\.started/.test(running?.stderr() ?? ''),
        10_000,
        'an event in the debug log',
      );

      // The overlay page is served too.
      const overlay = await fetch(`${url}/overlay/mens/${upstream.games[0]?.id ?? ''}`);
      expect(overlay.status).toBe(200);
      expect(overlay.headers.get('content-type')).toMatch(/^text\/html/);
      await overlay.arrayBuffer();

      const signalled = Date.now();
      running.child.kill('SIGTERM');
      const exit = await running.exited;
      expect(exit.code).toBe(0);
      expect(exit.at - signalled).toBeLessThan(5_000);
      expect(await closed).toBe(1001);
    },
  );

  it.skipIf(!REDIS || !GAME)(
    'on Redis: streams, then exits 0 within 5 s of SIGTERM with the log and queue flushed',
    async () => {
      const redis = await getTestRedis();
      if (!redis) throw new Error('Redis went away since the file started');
      try {
        upstream = await startUpstream({ replay: [GAME?.file ?? ''], speed: 50, logger: silentLogger });
        running = serve([
          '--upstream',
          upstream.url,
          '--leagues',
          'mens',
          '--redis',
          redis.url,
          '--prefix',
          redis.prefix,
        ]);
        const url = await running.url;
        await waitFor(
          async () =>
            ((await (await fetch(`${url}/v1/games/live`)).json()) as { games: unknown[] }).games.length > 0,
          20_000,
          'the game in the shared log',
        );
        const health = (await (await fetch(`${url}/healthz`)).json()) as { redis: { ok: boolean } };
        expect(health.redis.ok).toBe(true);
        const signalled = Date.now();
        running.child.kill('SIGTERM');
        const exit = await running.exited;
        expect(exit.code).toBe(0);
        expect(exit.at - signalled).toBeLessThan(5_000);
        expect(running.stderr()).toContain('courtside stopped');
      } finally {
        await redis.cleanup();
      }
    },
  );

  it('stays up against an unreachable upstream, logging retries, and still shuts down cleanly', async () => {
    // Port 1 on loopback: connections are refused at once, like a machine with no network.
    running = serve(['--upstream', 'http://127.0.0.1:1', '--leagues', 'mens,womens']);
    const url = await running.url;
    await waitFor(
      () => /retr|back(ing)? ?off|unreachable|ECONNREFUSED/i.test(running?.stderr() ?? ''),
      30_000,
      'a retry in the log',
    );
    expect(running.child.exitCode).toBeNull();
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(503);
    const body = (await health.json()) as { upstream: { reachable: boolean } };
    expect(body.upstream.reachable).toBe(false);
    // The HTTP API reports the failure as an upstream error, not a crash.
    const op = await fetch(`${url}/v1/ops/mens_news`);
    expect(op.status).toBe(502);
    expect(running.child.exitCode).toBeNull();
    running.child.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
  });

  it("--rules: the lower thirds follow a rules file's rules, without the worker's secrets", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'courtside-serve-rules-'));
    try {
      const file = join(dir, 'rules.yaml');
      // Only `run` is on; the subscriber's secret is the worker's business, unset here.
      await writeFile(
        file,
        "rules:\n  run: { points: 6 }\nsubscribers:\n  - kind: discord\n    url: '${COURTSIDE_TEST_UNSET}'\n",
      );
      upstream = await startUpstream({ simulate: { games: 1, seed: 1 }, logger: silentLogger });
      running = serve(['--upstream', upstream.url, '--rules', file]);
      const url = await running.url;
      const moments = (query: string) => fetch(`${url}/overlay/mens/900000001/moments?through=0-0&${query}`);
      // A rule the file leaves off takes no setting; without the file every rule is on.
      const off = await moments('lead_change.fromPeriod=1');
      expect(off.status).toBe(400);
      expect(((await off.json()) as { error: { message: string } }).error.message).toContain(
        'add lead_change to rules',
      );
      expect((await moments('run.points=8')).status).toBe(200);
      running.child.kill('SIGTERM');
      expect((await running.exited).code).toBe(0);

      // COURTSIDE_RULES names it too; a file that cannot be read stops serve, naming the flag.
      running = serve([], undefined, { COURTSIDE_RULES: join(dir, 'missing.yaml') });
      expect((await running.exited).code).toBe(2);
      expect(running.stderr()).toContain(`--rules: cannot read ${join(dir, 'missing.yaml')}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('offline against the simulator: finds FastCast on --upstream, says so in one line, and pushes the games', async () => {
    upstream = await startUpstream({
      simulate: { games: 1, seed: 2, leagues: ['mens'] },
      logger: silentLogger,
    });
    running = serve(['--upstream', upstream.url, '--leagues', 'mens']);
    const url = await running.url;
    const notice = `push on: FastCast at ${upstream.url}/public/websockethost, discovered on the upstream ${upstream.url}`;
    expect(running.stderr()).toContain(notice);
    type Health = { pollers: Array<{ poller: string; state: string; feed?: { source: string } }> };
    await waitFor(
      async () => {
        const health = (await (await fetch(`${url}/healthz`)).json()) as Health;
        return health.pollers.some(
          (p) => p.poller === 'summary' && p.state === 'push' && p.feed?.source === 'push',
        );
      },
      30_000,
      'the game fed by push',
    );
    // ESPN's FastCast host was never asked: an offline machine cannot resolve it.
    expect(running.stderr()).not.toMatch(/fastcast\.semfs|ENOTFOUND|FastCast discovery failed/);
    // The home page says it too.
    expect(await (await fetch(`${url}/`)).text()).toContain(`P${notice.slice(1)}`);
  });

  it('against an upstream that serves no FastCast: push off for the run, in one line that names the way out', async () => {
    upstream = await startUpstream({ simulate: { games: 1, seed: 2 }, push: false, logger: silentLogger });
    running = serve(['--upstream', upstream.url]);
    const url = await running.url;
    expect(running.stderr()).toMatch(
      /"msg":"push off: the upstream \S+ serves no FastCast \(HTTP 403 at \S+\/public\/websockethost\); every live game is polled. --fastcast-url <discovery URL> names a FastCast/,
    );
    type Health = { pollers: Array<{ poller: string; state: string; feed?: { reason: string } }> };
    await waitFor(
      async () => {
        const health = (await (await fetch(`${url}/healthz`)).json()) as Health;
        return health.pollers.some(
          (p) => p.poller === 'summary' && p.state === 'polling' && p.feed?.reason === 'push off',
        );
      },
      30_000,
      'the game polled, push off',
    );
    expect(await (await fetch(`${url}/`)).text()).toMatch(
      /Push off: the upstream \S+ serves no FastCast \(HTTP 403 at \S+\); every live game is polled/,
    );
    // Asked once at start-up, never again.
    expect(upstream.requests.count((r) => r.path === '/public/websockethost')).toBe(1);
  });

  it('refuses a bad flag, naming it, with exit code 2', async () => {
    running = serve(['--summary-interval', '10']);
    const exit = await running.exited;
    expect(exit.code).toBe(2);
    expect(running.stderr()).toContain('--summary-interval');
    expect(running.stderr()).toContain('at least 1000');
  });
});
