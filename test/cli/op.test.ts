import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/espn/operations.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { FIXTURES_DIR, HAVE_FIXTURES, loadFixture, itRecorded } from '../support/fixtures.js';
import { runCli } from './harness.js';

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
  it('--list prints every operation name, one per line', async () => {
    const run = await op(['--list']);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toEqual([...OPERATION_NAMES]);
    expect(run.stdout.trimEnd().split('\n')).toContain('mens_college_summary');
  });

  itRecorded(!HAVE_FIXTURES)('--format raw prints the upstream JSON and exits 0', async () => {
    const run = await op(['mens_scoreboard', '--dates', '20241201', '--format', 'raw']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(loadFixture('mens/scoreboard__20241201.json'));
    expect(upstream.requests.entries[0]?.query).toEqual({ dates: '20241201' });
  });

  it('--upstream overrides COURTSIDE_UPSTREAM', async () => {
    const run = await op(['womens_draft', '--format', 'raw', '--upstream', upstream.url], {
      COURTSIDE_UPSTREAM: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(0);
    expect(upstream.requests.count()).toBe(1);
  });

  itRecorded(!HAVE_FIXTURES)('--format csv --table plays prints the plays table', async () => {
    const run = await op(['mens_summary', '--event-id', '401585607', '--table', 'plays', '--format', 'csv']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]?.startsWith('id,sequence_number,text,')).toBe(true);
    const summary = loadFixture<{ plays: unknown[] }>('mens/summary__401585607_final.json');
    // Quoted cells may hold newlines (type text can), so count rows by the id column's shape.
    expect(lines.filter((l) => /^\d{9,},/.test(l)).length).toBe(summary.plays.length);
  });

  itRecorded(!HAVE_FIXTURES)(
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
      [
        ['nba_scoreboard'],
        /unknown operation "nba_scoreboard"; did you mean mens_scoreboard\? \(NBA is mens, WNBA is womens\)/,
      ],
      [['wnba_summary'], /did you mean womens_summary\?/],
      [['mens_scoreboard', '--dates', '20240317-20240301'], /"dates".*the range is reversed/],
      [
        ['mens_scoreboard', '--dates', '20230101-20240301'],
        /"dates".*touches 15 calendar months, more than 12/,
      ],
      [['mens_calendar', '--limit', '5', '--format', 'raw'], /"limit"/],
      [['mens_team', '--format', 'raw'], /"team_id".*required/],
      [['mens_summary', '--bogus', '1'], /unknown option/],
      [['mens_summary', '--event-id', '1', '--format', 'xml'], /xml/],
      [['mens_summary', '--event-id', '1', '--format', 'csv'], /needs --table/],
      [['mens_summary', '--event-id', '1', '--table', 'nope', '--format', 'csv'], /unknown table/],
      [['mens_news', '--table', 'plays'], /only to summary/],
      [['mens_summary', '--format', 'raw'], /"event_id" is missing.*required/],
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

  it('offline, names --upstream and the simulator', async () => {
    // Nothing listens on port 1: the upstream is unreachable, as ESPN is without the network.
    const run = await op([
      'mens_calendar',
      '--format',
      'raw',
      '--retries',
      '0',
      '--upstream',
      'http://127.0.0.1:1',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/could not reach upstream/);
    expect(run.stderr).toMatch(/--upstream <url>/);
    expect(run.stderr).toMatch(/courtside upstream --simulate 4/);
    expect(run.stderr).toMatch(/npm run demo/);
  });

  it('exits 1 on an upstream failure', async () => {
    upstream.faults.failNext(5, { status: 503 });
    const run = await op(['mens_calendar', '--format', 'raw', '--retries', '1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/503/);
    expect(upstream.requests.count()).toBe(2);
  });

  it('--dates 20241201-20241207 prints the games of those seven days exactly once each', async () => {
    // What the simulator (playing 2026 ESPN, which refuses ranges) files under each day.
    const perDay = new Map<string, string>();
    for (let d = 1; d <= 7; d++) {
      const day = `2024120${d}`;
      const res = await fetch(`${upstream.url}/apis/site/v2/sports/basketball/nba/scoreboard?dates=${day}`, {
        headers: { 'user-agent': 'courtside-test/1 (+https://example.org)' },
      });
      const board = (await res.json()) as { events: { id: string }[] };
      for (const e of board.events) perDay.set(e.id, day);
    }
    expect(perDay.size).toBeGreaterThan(10);
    upstream.requests.clear();

    const run = await op(['mens_scoreboard', '--dates', '20241201-20241207', '--format', 'json']);
    expect(run.code).toBe(0);
    const ids = (JSON.parse(run.stdout) as { game_id: string }[]).map((r) => r.game_id);
    expect(ids).toHaveLength(perDay.size);
    expect(new Set(ids)).toEqual(new Set(perDay.keys()));
    expect(run.stderr).toMatch(
      /^courtside op: note: dates=20241201-20241207 answered from 7 scoreboard\(s\)/,
    );
    // No range was sent: ESPN would have answered 400.
    expect(upstream.requests.entries.every((r) => r.status === 200 && !r.query.dates?.includes('-'))).toBe(
      true,
    );
  });

  itRecorded(!HAVE_FIXTURES)(
    'the same against `courtside upstream` as its own process: each game of the seven days once',
    async () => {
      const sim = runCli(['upstream', '--fixtures', FIXTURES_DIR, '--port', '0']);
      try {
        const [, url = ''] = await sim.waitForStdout(/upstream listening on (http:\/\/\S+)/, 60_000);
        const perDay = new Set<string>();
        for (let d = 1; d <= 7; d++) {
          const res = await fetch(`${url}/apis/site/v2/sports/basketball/nba/scoreboard?dates=2024120${d}`);
          for (const e of ((await res.json()) as { events: { id: string }[] }).events) perDay.add(e.id);
        }
        const run = await op(['mens_scoreboard', '--dates', '20241201-20241207', '--format', 'raw'], {
          COURTSIDE_UPSTREAM: url,
        });
        expect(run.code, run.stderr).toBe(0);
        const ids = (JSON.parse(run.stdout) as { events: { id: string }[] }).events.map((e) => e.id);
        expect(ids).toHaveLength(perDay.size);
        expect(new Set(ids)).toEqual(perDay);
        // The recorded first of December is among them, as recorded.
        const recorded = loadFixture<{ events: { id: string }[] }>('mens/scoreboard__20241201.json');
        for (const e of recorded.events) expect(perDay.has(e.id)).toBe(true);
      } finally {
        sim.kill();
        await sim.exited;
      }
    },
  );

  it('says on stderr what it changed: a capped limit, the calendar from the scoreboard, an empty list', async () => {
    const [limit, calendar, injuries] = await Promise.all([
      op(['mens_news', '--limit', '800', '--format', 'raw']),
      op(['womens_calendar', '--format', 'json']),
      op(['mens_team_injuries', '--team-id', '13', '--format', 'json']),
    ]);
    expect(limit.code).toBe(0);
    expect(limit.stderr).toMatch(/note: limit 800 lowered to 500/);
    expect(upstream.requests.entries.find((r) => r.path.endsWith('/nba/news'))?.query).toEqual({
      limit: '500',
    });
    expect(calendar.code).toBe(0);
    expect(calendar.stderr).toMatch(
      /note: ESPN answered 404 for womens_calendar; answered from the scoreboard/,
    );
    expect((JSON.parse(calendar.stdout) as unknown[]).length).toBeGreaterThan(100);
    expect(injuries.code).toBe(0);
    expect(injuries.stderr).toMatch(/note: ESPN answered mens_team_injuries with an empty body/);
    expect(JSON.parse(injuries.stdout)).toEqual([]);
  });

  it('refuses a blocked --user-agent (exit 2, no request) unless forced, then names it in the failure', async () => {
    const [refused, range, forced] = await Promise.all([
      op(['mens_scoreboard', '--user-agent', 'MyApp/1.0']),
      op(['mens_scoreboard', '--dates', '20231201-20241231']),
      op(['mens_scoreboard', '--user-agent', 'MyApp/1.0', '--force-user-agent']),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--user-agent: User-Agent "MyApp\/1.0" is a bare product token/);
    expect(range.code).toBe(2);
    expect(range.stderr).toMatch(/at most 12 calendar months/);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toMatch(
      /blocked the request .* User-Agent "MyApp\/1.0"; it accepts agents of the form/,
    );
    expect(upstream.requests.entries.map((r) => r.status)).toEqual([403]);
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
