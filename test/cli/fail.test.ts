import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PARAM_RULES } from '../../src/espn/params.js';
import { getTestRedis } from '../support/redis.js';
import { runCli, type CliRun } from './harness.js';

/**
 * Every command reports a failure the same way (src/cli/fail.ts): one line on stderr,
 * `courtside <command>: <message>`, exit 2 for a mistake in the call and 1 for a failure while
 * running, and the stack only at LOG_LEVEL=debug. Each case runs the CLI as a real process.
 */
const QUIET = { LOG_LEVEL: 'warn' };
const DEBUG = { LOG_LEVEL: 'debug' };
// A stack frame as Node prints it; the JSON logs keep theirs inside one line.
const STACK_FRAME = /^\s+at /m;
const DEAD_REDIS = 'redis://127.0.0.1:1';
const REFUSED = 'connect ECONNREFUSED 127.0.0.1:1';

const redis = await getTestRedis();
afterAll(async () => redis?.cleanup());

interface Ended {
  code: number | null;
  stderr: string;
}

const runs: CliRun[] = [];
afterEach(() => {
  for (const run of runs.splice(0)) run.kill();
});

async function courtside(args: string[], env: NodeJS.ProcessEnv = QUIET): Promise<Ended> {
  const run = runCli(args, env);
  runs.push(run);
  const { code } = await run.exited;
  return { code, stderr: run.stderr() };
}

/** Runs `cases` three at a time: each child loads the CLI, and the machine has two cores. */
async function inBatches<T>(cases: readonly T[], run: (c: T) => Promise<Ended>): Promise<Ended[]> {
  const ended: Ended[] = [];
  for (let i = 0; i < cases.length; i += 3)
    ended.push(...(await Promise.all(cases.slice(i, i + 3).map(run))));
  return ended;
}

/** Holds a port on 127.0.0.1 the way another program would. */
async function occupyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

const missingFile = join(tmpdir(), `courtside-missing-${randomUUID()}.json`);

describe('a missing --replay file', () => {
  it('is one line in `demo` as in `upstream`, exit 2, the stack only at debug', async () => {
    const [demo, upstream] = await Promise.all([
      courtside(['demo', '--port', '0', '--replay', missingFile]),
      courtside(['upstream', '--replay', missingFile]),
    ]);
    const message = `replay: cannot read a summary from ${missingFile}: ENOENT: no such file or directory, open '${missingFile}'`;
    expect(demo.stderr).toBe(`courtside demo: ${message}\n`);
    expect(demo.code).toBe(2);
    expect(upstream.stderr).toBe(`courtside upstream: ${message}\n`);
    expect(upstream.code).toBe(2);

    const debug = await courtside(['demo', '--port', '0', '--replay', missingFile], DEBUG);
    expect(debug.code).toBe(2);
    expect(debug.stderr.split('\n')[0]).toBe(`courtside demo: ${message}`);
    expect(debug.stderr).toMatch(STACK_FRAME);
    expect(debug.stderr).toContain('InvalidOptionsError');
  }, 60_000);
});

describe('an unreachable Redis', () => {
  it('is one line naming the URL and the reason, exit 1, for every command that needs Redis', async () => {
    const cases: Array<[string[], string]> = [
      [['serve', '--port', '0', '--redis', DEAD_REDIS], 'serve'],
      [['worker', 'alerts', '--redis', DEAD_REDIS], 'worker alerts'],
      [['webhooks', 'failed', '--redis', DEAD_REDIS], 'webhooks failed'],
    ];
    const ended = await inBatches(cases, ([args]) => courtside(args));
    ended.forEach((run, i) => {
      const [args, command] = cases[i] as [string[], string];
      expect(run.stderr, args.join(' ')).toBe(
        `courtside ${command}: cannot reach Redis at ${DEAD_REDIS}: ${REFUSED}\n`,
      );
      expect(run.code, args.join(' ')).toBe(1);
    });
  }, 60_000);

  it('never shows the password of the URL', async () => {
    const run = await courtside(['serve', '--port', '0'], {
      ...QUIET,
      REDIS_URL: 'redis://courtside:s3cret-pw@127.0.0.1:1',
    });
    expect(run.stderr).toBe(
      `courtside serve: cannot reach Redis at redis://courtside:***@127.0.0.1:1: ${REFUSED}\n`,
    );
    expect(run.code).toBe(1);
  }, 60_000);

  it('adds the stack and its cause at LOG_LEVEL=debug', async () => {
    const run = await courtside(['serve', '--port', '0', '--redis', DEAD_REDIS], DEBUG);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      `courtside serve: cannot reach Redis at ${DEAD_REDIS}: ${REFUSED}`,
    );
    expect(run.stderr).toMatch(STACK_FRAME);
    expect(run.stderr).toContain('ECONNREFUSED');
    expect(run.stderr).toContain('[cause]');
  }, 60_000);
});

describe('a port in use', () => {
  let held: { port: number; server: Server };
  beforeAll(async () => {
    held = await occupyPort();
  });
  afterAll(() => new Promise<void>((resolve) => held.server.close(() => resolve())));

  it('names the port and the flag to change, exit 1', async () => {
    const port = String(held.port);
    // HOST: the demo's daemon binds where the held port is, so that the two collide.
    const [serve, demo] = await Promise.all([
      courtside(['serve', '--host', '127.0.0.1', '--port', port, '--upstream', 'http://127.0.0.1:1']),
      courtside(['demo', '--port', port], { ...QUIET, HOST: '127.0.0.1' }),
    ]);
    expect(serve.stderr).toBe(`courtside serve: port ${port} is in use: try --port <other>\n`);
    expect(serve.code).toBe(1);
    expect(demo.stderr).toBe(`courtside demo: port ${port} is in use: try --port <other>\n`);
    expect(demo.code).toBe(1);
  }, 90_000);

  it('puts the reason after the logs of the stop, and the stack at LOG_LEVEL=debug', async () => {
    const port = String(held.port);
    const run = await courtside(
      ['serve', '--host', '127.0.0.1', '--port', port, '--upstream', 'http://127.0.0.1:1'],
      DEBUG,
    );
    expect(run.code).toBe(1);
    const plain = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'));
    expect(plain[0]).toBe(`courtside serve: port ${port} is in use: try --port <other>`);
    expect(run.stderr).toMatch(STACK_FRAME);
    expect(run.stderr).toContain('EADDRINUSE');
    // The JSON logs of the stop come before the reason, not after it.
    const lines = run.stderr.split('\n');
    const reason = lines.indexOf(plain[0] ?? '');
    expect(lines.findIndex((line) => line.includes('courtside stopped'))).toBeLessThan(reason);
  }, 60_000);

  it.skipIf(!redis)(
    'names --metrics-port for the worker',
    async () => {
      const port = String(held.port);
      const run = await courtside([
        'worker',
        'alerts',
        '--redis',
        redis!.url,
        '--prefix',
        redis!.prefix,
        '--metrics-port',
        port,
      ]);
      expect(run.stderr).toBe(
        `courtside worker alerts: port ${port} is in use: try --metrics-port <other>\n`,
      );
      expect(run.code).toBe(1);
    },
    60_000,
  );
});

describe('an upstream that does not answer', () => {
  it('is one line for `record`, not one per operation, exit 1', async () => {
    const out = join(tmpdir(), `courtside-record-${randomUUID()}`);
    const run = await courtside([
      'record',
      '--out',
      out,
      '--upstream',
      'http://127.0.0.1:1',
      '--leagues',
      'womens',
      '--games',
      '0',
    ]);
    expect(run.stderr).toMatch(
      /^courtside record: nothing recorded: all \d+ requests failed, the first with womens_scoreboard: could not reach upstream for http:\/\/127\.0\.0\.1:1\/\S+: connect ECONNREFUSED 127\.0\.0\.1:1\n$/,
    );
    expect(run.code).toBe(1);
  }, 60_000);
});

describe('a mistake in the call', () => {
  it('exits 2 with one line naming it, whichever command it is', async () => {
    const teamId = PARAM_RULES.team_id.expected;
    const cases: Array<[string[], string]> = [
      [['bogus'], `courtside: unknown command 'bogus' (see courtside --help)`],
      [['serve', '--bogus'], `courtside serve: unknown option '--bogus' (see courtside serve --help)`],
      [['serve', '--prot', '80'], `courtside serve: unknown option '--prot' (did you mean --port?)`],
      [
        ['serve', '--summary-interval', '10'],
        'courtside serve: --summary-interval: invalid value "10"; expected an integer number of milliseconds, at least 1000',
      ],
      [
        ['worker', 'alerts', '--bogus'],
        `courtside worker alerts: unknown option '--bogus' (see courtside worker alerts --help)`,
      ],
      [
        ['worker', 'webhooks', '--redis', DEAD_REDIS, '--rules', missingFile],
        `courtside worker webhooks: --rules: cannot read ${missingFile}: ENOENT: no such file or directory`,
      ],
      [['webhooks', 'failed'], 'courtside webhooks failed: --redis or REDIS_URL is required'],
      [['webhooks', 'retry', '--redis', DEAD_REDIS], 'courtside webhooks retry: give job ids or --all'],
      [['watch', '--bogus'], `courtside watch: unknown option '--bogus' (see courtside watch --help)`],
      [
        ['record'],
        `courtside record: required option '--out <path>' not specified (see courtside record --help)`,
      ],
      [
        ['demo', '--games'],
        `courtside demo: option '--games <n>' argument missing (see courtside demo --help)`,
      ],
      [['upstream', '--seed', 'x'], 'courtside upstream: --seed: "x" is not an integer'],
      [
        ['op', 'mens_team', '--format', 'raw'],
        `courtside op: mens_team: parameter "team_id" is missing; expected ${teamId} (required) (see courtside op --help)`,
      ],
    ];
    const ended = await inBatches(cases, ([args]) => courtside(args));
    ended.forEach((run, i) => {
      const [args, line] = cases[i] as [string[], string];
      expect(run.stderr, args.join(' ')).toBe(`${line}\n`);
      expect(run.code, args.join(' ')).toBe(2);
    });
  }, 120_000);

  it('shows a group its commands, exit 2', async () => {
    const run = await courtside(['worker']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Usage: courtside worker/);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  }, 60_000);

  it('adds the stack at LOG_LEVEL=debug', async () => {
    const run = await courtside(['watch', '--bogus'], DEBUG);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      `courtside watch: unknown option '--bogus' (see courtside watch --help)`,
    );
    expect(run.stderr).toMatch(STACK_FRAME);
  }, 60_000);
});
