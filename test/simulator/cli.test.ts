import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { upstreamOptionsFromFlags } from '../../src/cli/upstream.js';
import { NBA, getJson } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Run {
  child: ChildProcess;
  /** Resolves with stdout's line `n` (0 = first), or rejects when the process exits before it. */
  line(n: number): Promise<string>;
  firstLine: Promise<string>;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `entry` (a script under this folder or the repository) run from source, output collected. */
function spawnScript(entry: string, args: string[]): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: join(here, '..', '..'),
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  const waiting: { n: number; resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    lines.push(text);
    for (const w of waiting.filter((w) => w.n < lines.length)) w.resolve(lines[w.n] ?? '');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then((code) => {
    for (const w of waiting) w.reject(new Error(`exited with ${code} before printing line ${w.n + 1}`));
  });
  const line = (n: number): Promise<string> => {
    const pending = new Promise<string>((resolve, reject) => {
      if (n < lines.length) resolve(lines[n] ?? '');
      else waiting.push({ n, resolve, reject });
    });
    // A test that never awaits a line (an expected failure) must not leave its rejection unhandled.
    pending.catch(() => undefined);
    return pending;
  };
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    child,
    line,
    firstLine: line(0),
    stdout: () => lines.join('\n'),
    stderr: () => stderr,
    exited,
  };
}

/** `courtside upstream <args>`. */
const run = (args: string[]): Run => spawnScript(join(here, 'cli-entry.ts'), ['upstream', ...args]);

/** The whole `courtside` command, for calling the upstream as a user would. */
const courtside = (args: string[]): Run => spawnScript(join(here, '..', '..', 'src', 'cli.ts'), args);

describe('courtside upstream', () => {
  it('prints its URL and that its games are synthetic, serves them, and exits 0 on SIGTERM', async () => {
    const { child, firstLine, line } = run(['--simulate', '2', '--seed', '5', '--speed', '60']);
    const first = await firstLine;
    expect(first).toMatch(/^upstream listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(await line(1)).toBe(
      "note: 2 synthetic game(s): made up by the simulator, not real ESPN games; their event ids start with 9, which ESPN's never do",
    );
    const url = first.split(' ').pop() ?? '';
    const { status, body } = await getJson(`${url}${NBA}/scoreboard`);
    expect(status).toBe(200);
    expect(body.events).toHaveLength(1);
    expect(body.events[0].id).toBe('900005000');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 60_000);

  it('says nothing of synthetic games when it serves none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courtside-upstream-cli-'));
    try {
      mkdirSync(join(dir, 'mens'));
      writeFileSync(join(dir, 'mens', 'news.json'), JSON.stringify({ articles: [] }));
      const upstream = run(['--fixtures', dir]);
      const url = (await upstream.firstLine).split(' ').pop() ?? '';
      expect((await getJson(`${url}${NBA}/news`)).body).toEqual({ articles: [] });
      upstream.child.kill('SIGTERM');
      expect(await upstream.exited).toBe(0);
      expect(upstream.stdout()).toBe(`upstream listening on ${url}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('exits 2 with one line when --fixtures is missing or holds no recordings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courtside-upstream-cli-'));
    try {
      const cases: [string, RegExp][] = [
        [join(dir, 'nope'), /--fixtures: ".*nope" does not exist; expected a folder of recorded payloads/],
        [dir, /--fixtures: ".*" holds no recordings; expected .*<league>\/<suffix>\[__qualifier\]\.json/],
      ];
      for (const [folder, message] of cases) {
        const started = run(['--fixtures', folder]);
        expect(await started.exited, folder).toBe(2);
        expect(started.stderr()).toMatch(message);
        expect(started.stderr().trimEnd().split('\n'), started.stderr()).toHaveLength(1);
        expect(started.stdout()).toBe('');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers `courtside op` for its own games only: a real event id fails as on ESPN', async () => {
    const { firstLine } = run(['--simulate', '2', '--seed', '5', '--speed', '60']);
    const url = (await firstLine).split(' ').pop() ?? '';
    const op = (eventId: string): Run =>
      courtside([
        'op',
        'mens_summary',
        '--event-id',
        eventId,
        '--format',
        'raw',
        '--upstream',
        url,
        '--retries',
        '0',
      ]);
    const real = op('401585607');
    expect(await real.exited).toBe(1);
    expect(real.stderr()).toMatch(/404/);
    expect(real.stdout()).toBe('');
    const synthetic = op('900005000');
    expect(await synthetic.exited, synthetic.stderr()).toBe(0);
    expect(JSON.parse(synthetic.stdout()).header.id).toBe('900005000');
  }, 90_000);

  it('exits 2 on an invalid flag value', async () => {
    const { exited, stderr } = run(['--faults', 'explode=1']);
    expect(await exited).toBe(2);
    expect(stderr()).toMatch(/unknown fault "explode"/);
  }, 60_000);

  it('maps flags to options', () => {
    expect(
      upstreamOptionsFromFlags({
        port: '0',
        host: '127.0.0.1',
        replay: ['a.json'],
        simulate: '3',
        seed: '9',
        speed: '2',
        leagues: 'womens',
        faults: 'error=0.1',
      }),
    ).toEqual({
      port: 0,
      host: '127.0.0.1',
      replay: ['a.json'],
      speed: 2,
      seed: 9,
      faults: 'error=0.1',
      simulate: { games: 3, seed: 9, leagues: ['womens'] },
    });
    expect(() =>
      upstreamOptionsFromFlags({ port: 'x', host: 'h', replay: [], seed: '1', speed: '1' }),
    ).toThrow(/--port/);
    expect(() =>
      upstreamOptionsFromFlags({
        port: '0',
        host: 'h',
        replay: [],
        seed: '1',
        speed: '1',
        simulate: '2',
        leagues: 'nfl',
      }),
    ).toThrow(/--leagues/);
  });
});
