import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/espn/operations.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { FIXTURES_DIR, HAVE_FIXTURES, NO_FIXTURES_REASON, loadFixture } from '../support/fixtures.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `courtside op ...` as a child process, as a user runs it. */
function op(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'op', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...env, COURTSIDE_UPSTREAM: env.COURTSIDE_UPSTREAM ?? upstream.url },
        maxBuffer: 64 * 1024 * 1024,
        // A cold tsx start on a loaded 2-core machine takes seconds.
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let upstream: RunningUpstream;
let workdir: string;

beforeAll(async () => {
  if (!HAVE_FIXTURES) console.warn(`[skip] ${NO_FIXTURES_REASON}`);
  upstream = await startUpstream(HAVE_FIXTURES ? { fixturesDir: FIXTURES_DIR } : {});
  workdir = mkdtempSync(join(tmpdir(), 'courtside-op-'));
});

afterAll(async () => {
  await upstream.close();
  rmSync(workdir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.faults.clear();
  upstream.requests.clear();
});

describe('courtside op', { timeout: 300_000 }, () => {
  it('--list prints the 44 operation names, one per line', async () => {
    const run = await op(['--list']);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toEqual([...OPERATION_NAMES]);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(44);
  });

  it.skipIf(!HAVE_FIXTURES)('--format raw prints the upstream JSON and exits 0', async () => {
    const run = await op(['mens_scoreboard', '--dates', '20241201', '--format', 'raw']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(loadFixture('mens/scoreboard__20241201.json'));
    expect(upstream.requests.entries[0]?.query).toEqual({ dates: '20241201' });
  });

  it('--upstream overrides COURTSIDE_UPSTREAM', async () => {
    const run = await op(['womens_calendar', '--format', 'raw', '--upstream', upstream.url], {
      COURTSIDE_UPSTREAM: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(0);
    expect(upstream.requests.count()).toBe(1);
  });

  it.skipIf(!HAVE_FIXTURES)('--format csv --table plays prints the plays table', async () => {
    const run = await op(['mens_summary', '--event-id', '401585607', '--table', 'plays', '--format', 'csv']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]?.startsWith('id,sequence_number,text,')).toBe(true);
    const summary = loadFixture<{ plays: unknown[] }>('mens/summary__401585607_final.json');
    // Quoted cells may hold newlines (type text can), so count rows by the id column's shape.
    expect(lines.filter((l) => /^\d{9,},/.test(l)).length).toBe(summary.plays.length);
  });

  it.skipIf(!HAVE_FIXTURES)(
    '--format json prints rows; --format arrow writes an IPC stream to --out',
    async () => {
      const json = await op(['mens_scoreboard', '--dates', '20241201', '--format', 'json']);
      expect(json.code).toBe(0);
      const rows = JSON.parse(json.stdout) as { game_id: string }[];
      expect(rows).toHaveLength(10);
      expect(rows[0]?.game_id).toBeTypeOf('string');

      const file = join(workdir, 'box.arrow');
      const arrow = await op([
        'mens_summary',
        '--event-id',
        '401585607',
        '--table',
        'boxscore_player',
        '--format',
        'arrow',
        '--out',
        file,
      ]);
      expect(arrow.code).toBe(0);
      const table = tableFromIPC(readFileSync(file));
      expect(table.numRows).toBeGreaterThan(10);
      expect(table.schema.fields.map((f) => f.name)).toContain('athlete_id');
    },
  );

  it('exits 2 on an invalid call, without any upstream request', async () => {
    const cases: [string[], RegExp][] = [
      [['mens_scoreboard', '--dates', '20240230', '--format', 'raw'], /"dates".*20240230/],
      [['womens_standings', '--format', 'raw'], /unknown operation/],
      [['mens_calendar', '--limit', '5', '--format', 'raw'], /"limit"/],
      [['mens_team', '--format', 'raw'], /"team_id".*required/],
      [['mens_summary', '--bogus', '1'], /unknown option/],
      [['mens_summary', '--event-id', '1', '--format', 'xml'], /xml/],
      [['mens_summary', '--event-id', '1', '--format', 'csv'], /needs --table/],
      [['mens_summary', '--event-id', '1', '--table', 'nope', '--format', 'csv'], /unknown table/],
      [['mens_news', '--table', 'plays'], /only to summary/],
      [[], /missing <operation>/],
    ];
    // Three at a time: each child loads the whole CLI, and the machine has two cores.
    const runs: Run[] = [];
    for (let i = 0; i < cases.length; i += 3) {
      runs.push(...(await Promise.all(cases.slice(i, i + 3).map(([args]) => op(args)))));
    }
    runs.forEach((run, i) => {
      const [args, message] = cases[i] as [string[], RegExp];
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stdout).toBe('');
    });
    expect(upstream.requests.count()).toBe(0);
  });

  it('exits 1 on an upstream failure', async () => {
    upstream.faults.failNext(5, { status: 503 });
    const run = await op(['mens_calendar', '--format', 'raw', '--retries', '1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/503/);
    expect(upstream.requests.count()).toBe(2);
  });

  it('--help lists the parameter flags and examples', async () => {
    const run = await op(['--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--event-id',
      '--season-type',
      '--team-id',
      '--athlete-id',
      '--standings-type',
      '--dates',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain('Examples:');
  });
});
