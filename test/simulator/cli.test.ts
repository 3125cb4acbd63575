import { spawn, type ChildProcess } from 'node:child_process';
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

function run(args: string[]): { child: ChildProcess; firstLine: Promise<string>; stderr: () => string } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'cli-entry.ts'), 'upstream', ...args],
    {
      cwd: join(here, '..', '..'),
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
  // The invalid-flag test never awaits the line: keep its rejection from going unhandled.
  firstLine.catch(() => undefined);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, firstLine, stderr: () => stderr };
}

describe('courtside upstream', () => {
  it('prints its URL, serves simulated games, and exits 0 on SIGTERM', async () => {
    const { child, firstLine } = run(['--simulate', '2', '--seed', '5', '--speed', '60']);
    const line = await firstLine;
    expect(line).toMatch(/^upstream listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.split(' ').pop() ?? '';
    const { status, body } = await getJson(`${url}${NBA}/scoreboard`);
    expect(status).toBe(200);
    expect(body.events).toHaveLength(1);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 60_000);

  it('exits 2 on an invalid flag value', async () => {
    const { child, stderr } = run(['--faults', 'explode=1']);
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
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
