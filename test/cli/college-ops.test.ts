import { execFile } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATIONS, type OperationSpec } from '../../src/espn/operations.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, describeRecorded } from '../support/fixtures.js';
import { paramsFor, query, startApi, type ApiHarness } from '../server/routes/helpers.js';
import { ROOT } from './harness.js';

/**
 * Every college operation answers through both doors a user has, against the simulator standing
 * in for ESPN: `courtside op <name>` (a child process, as a user runs it) and
 * `GET /v1/ops/<name>`. Both give the same rows; the raw form is the upstream JSON.
 */

const COLLEGE = [...OPERATIONS.values()].filter(
  (op) => op.league === 'mens-college' || op.league === 'womens-college',
);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function op(args: string[], upstream: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'op', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, COURTSIDE_UPSTREAM: upstream },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The operation's parameters as `courtside op` flags (`team_id` → `--team-id`). */
function flags(params: Record<string, string>): string[] {
  return Object.entries(params).flatMap(([name, value]) => [`--${name.replace(/_/g, '-')}`, value]);
}

/** The college scoreboards have recorded days of their own; the summaries are recorded games. */
function collegeParams(operation: OperationSpec): Record<string, string> {
  const params = paramsFor(operation);
  if (operation.suffix === 'scoreboard') params.dates = '20241201';
  return params;
}

describeRecorded(!HAVE_FIXTURES)(
  `every college operation, from the CLI and the HTTP API (${HAVE_FIXTURES ? 'simulator' : NO_FIXTURES_REASON})`,
  () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApi();
    });
    afterAll(async () => {
      await api?.close();
    });

    it('lists the college operations of both leagues, the same suffixes in each', () => {
      const suffixes = (league: string) =>
        COLLEGE.filter((o) => o.league === league)
          .map((o) => o.suffix)
          .sort();
      expect(suffixes('mens-college')).toEqual([
        'calendar',
        'conferences',
        'injuries',
        'news',
        'rankings',
        'scoreboard',
        'standings',
        'summary',
        'team',
        'team_news',
        'team_roster',
        'team_schedule',
        'teams_site',
      ]);
      expect(suffixes('womens-college')).toEqual(suffixes('mens-college'));
    });

    it('answers each one with rows from `courtside op` and `GET /v1/ops`, and the same raw JSON', async () => {
      // Four CLI processes at a time: a cold tsx start takes seconds on a loaded machine.
      const queue = [...COLLEGE];
      const failures: string[] = [];
      const worker = async (): Promise<void> => {
        for (let operation = queue.shift(); operation; operation = queue.shift()) {
          const params = collegeParams(operation);
          const table = operation.suffix === 'summary' ? ['--table', 'plays'] : [];
          const [rows, raw] = await Promise.all([
            op([operation.name, ...flags(params), ...table, '--format', 'json'], api.upstream.url),
            op([operation.name, ...flags(params), '--format', 'raw'], api.upstream.url),
          ]);
          if (rows.code !== 0 || raw.code !== 0) {
            failures.push(`${operation.name}: exit ${rows.code}/${raw.code} ${rows.stderr}${raw.stderr}`);
            continue;
          }
          const httpParams = { ...params, ...(operation.suffix === 'summary' ? { table: 'plays' } : {}) };
          const res = await fetch(
            `${api.url}/v1/ops/${operation.name}${query({ ...httpParams, format: 'json' })}`,
          );
          expect(res.status, operation.name).toBe(200);
          const httpRows = (await res.json()) as unknown[];
          expect(JSON.parse(rows.stdout), operation.name).toEqual(httpRows);
          const httpRaw = await fetch(
            `${api.url}/v1/ops/${operation.name}${query({ ...params, format: 'raw' })}`,
          );
          expect(httpRaw.status, operation.name).toBe(200);
          expect(JSON.parse(raw.stdout), operation.name).toEqual(await httpRaw.json());
          // Every operation with items answers some here: the simulator's payloads are not empty.
          if (!['injuries', 'calendar'].includes(operation.suffix))
            expect(httpRows.length, operation.name).toBeGreaterThan(0);
        }
      };
      await Promise.all([worker(), worker()]);
      expect(failures).toEqual([]);
    });

    it("runs the README's college commands as written", async () => {
      const csv = await op(['mens_college_rankings', '--format', 'csv'], api.upstream.url);
      expect(csv.code, csv.stderr).toBe(0);
      const [header, ...lines] = csv.stdout.trimEnd().split('\n');
      expect(header?.split(',').slice(0, 3)).toEqual(['id', 'name', 'short_name']);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines[0]).toMatch(/^1,AP Top 25,AP Poll,/);
      api.upstream.requests.clear();
      const board = await op(
        ['womens_college_scoreboard', '--dates', '20250112', '--groups', '50', '--format', 'json'],
        api.upstream.url,
      );
      expect(board.code, board.stderr).toBe(0);
      expect(Array.isArray(JSON.parse(board.stdout))).toBe(true);
      expect(api.upstream.requests.entries.map((r) => [r.path, r.query])).toEqual([
        [
          '/apis/site/v2/sports/basketball/womens-college-basketball/scoreboard',
          { dates: '20250112', groups: '50' },
        ],
      ]);
    });

    it('refuses an operation ESPN does not serve for a college league, naming where it exists', async () => {
      const res = await fetch(`${api.url}/v1/ops/mens_college_draft`);
      expect(res.status).toBe(404);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('UNKNOWN_OPERATION');
      expect(body.error.message).toBe(
        'unknown operation "mens_college_draft"; ESPN does not serve it for this league, only as mens_draft, womens_draft',
      );
      const run = await op(['womens_college_player_info', '--athlete-id', '1'], api.upstream.url);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('only as mens_player_info');
    });
  },
  600_000,
);
