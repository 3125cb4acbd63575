import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordAll } from '../../src/cli/record.js';
import { createEspnClient } from '../../src/espn-client/client.js';
import { OPERATIONS } from '../../src/espn/operations.js';

const PRO_OPERATIONS = [...OPERATIONS.values()].filter(
  (op) => op.league === 'mens' || op.league === 'womens',
);
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { FIXTURES_DIR, HAVE_FIXTURES, describeRecorded } from '../support/fixtures.js';
import { runCli, runProcess } from './harness.js';

const SCRIPT = '/usr/bin/script';

/**
 * `courtside record` against the simulator serving the recorded ESPN payloads: one file per
 * operation in the simulator's layout, which a second simulator then serves back unchanged.
 */
interface Recorded {
  league: 'mens' | 'womens';
  suffix: string;
  qualifier: string;
  file: string;
}

function listRecorded(dir: string): Recorded[] {
  const out: Recorded[] = [];
  for (const league of ['mens', 'womens'] as const) {
    let names: string[] = [];
    try {
      names = readdirSync(join(dir, league));
    } catch {
      continue;
    }
    for (const name of names) {
      const m = /^([a-z_]+?)(?:__(.+))?\.json$/.exec(name);
      if (!m?.[1]) throw new Error(`unexpected file name ${league}/${name}`);
      out.push({ league, suffix: m[1], qualifier: m[2] ?? '', file: join(dir, league, name) });
    }
  }
  return out;
}

describeRecorded(!HAVE_FIXTURES)(`courtside record`, () => {
  let source: RunningUpstream;
  let out: string;

  beforeAll(async () => {
    // Synthetic games for the scoreboards: the recorded ones list real games whose summaries were
    // never recorded, and the simulator answers those as ESPN answers an unknown event (404).
    source = await startUpstream({
      fixturesDir: FIXTURES_DIR,
      simulate: { games: 4, seed: 1 },
      // Every operation answering is the ESPN of before (since 2026 /athletes/{id} answers 404).
      espnRules: 'legacy',
      logger: silentLogger,
    });
    out = mkdtempSync(join(tmpdir(), 'courtside-record-'));
  });
  afterAll(async () => {
    await source?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('writes a payload for every operation, laid out as the simulator serves them', async () => {
    const run = runCli(['record', '--out', out, '--upstream', source.url, '--games', '2']);
    const exit = await run.exited;
    expect(exit.code, run.stderr()).toBe(0);
    // Piped stderr: no progress bar drawn, no failures reported.
    expect(run.stderr()).not.toMatch(/\r|█/);
    expect(run.stderr()).toBe('');
    const files = listRecorded(out);
    expect(run.stdout()).toContain(`recorded ${files.length} payloads into ${out}`);

    // Without --leagues it records the two leagues a daemon polls by default.
    for (const op of PRO_OPERATIONS) {
      const mine = files.filter((f) => f.league === op.league && f.suffix === op.suffix);
      expect(mine.length, `${op.name} was recorded`).toBeGreaterThan(0);
    }
    // Summaries of two games of the scoreboard, keyed by event id; per-team and per-athlete by id.
    for (const league of ['mens', 'womens'] as const) {
      expect(
        files.filter((f) => f.league === league && f.suffix === 'summary').map((f) => f.qualifier),
      ).toHaveLength(2);
    }
    for (const f of files) {
      if (
        f.suffix === 'summary' ||
        f.suffix.startsWith('team_') ||
        f.suffix === 'team' ||
        f.suffix.startsWith('player_')
      )
        expect(f.qualifier, f.file).toMatch(/^[A-Za-z0-9-]+$/);
      else expect(f.qualifier, f.file).toBe('');
    }
    // What was written is the upstream's raw JSON.
    const scoreboard = JSON.parse(readFileSync(join(out, 'mens', 'scoreboard.json'), 'utf8')) as {
      events?: unknown[];
    };
    expect(Array.isArray(scoreboard.events)).toBe(true);
  }, 120_000);

  it('a second simulator started on the recorded folder serves the same payloads back', async () => {
    const replayed = await startUpstream({ fixturesDir: out, espnRules: 'legacy', logger: silentLogger });
    const client = createEspnClient({ upstream: replayed.url, retries: 0, cache: false });
    try {
      const files = listRecorded(out);
      expect(files.length).toBeGreaterThanOrEqual(PRO_OPERATIONS.length);
      for (const f of files) {
        const op = [...OPERATIONS.values()].find((o) => o.league === f.league && o.suffix === f.suffix);
        if (!op) throw new Error(`no operation for ${f.file}`);
        const key = op.suffix === 'summary' ? 'event_id' : op.pathParams[0];
        const params = f.qualifier && key ? { [key]: f.qualifier } : {};
        const body = await client.call(op.name, params, { returnParsed: false });
        expect(body, `${op.name} ${JSON.stringify(params)}`).toEqual(
          JSON.parse(readFileSync(f.file, 'utf8')),
        );
      }
      // Served from the recordings, not generated.
      expect(replayed.requests.count()).toBe(files.length);
    } finally {
      await client.close();
      await replayed.close();
    }
  }, 60_000);

  it('recordAll reports the operations that failed and keeps going', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courtside-record-fail-'));
    const failing = await startUpstream({ fixturesDir: FIXTURES_DIR, logger: silentLogger });
    // Every request fails with a 500: nothing is written, every failure is named.
    failing.faults.set('error=1');
    const client = createEspnClient({ upstream: failing.url, retries: 0 });
    const steps: string[] = [];
    try {
      const result = await recordAll({
        client,
        out: dir,
        leagues: ['womens'],
        games: 1,
        onStep: (s) => steps.push(s),
      });
      expect(result.files).toEqual([]);
      expect(result.failures.length).toBeGreaterThan(0);
      expect(result.failures.every((f) => f.operation.startsWith('womens_'))).toBe(true);
      expect(steps).toContain('womens_scoreboard');
    } finally {
      await client.close();
      await failing.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!existsSync(SCRIPT))(
    `shows a progress bar on a terminal${existsSync(SCRIPT) ? '' : ` (skipped: no ${SCRIPT})`}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'courtside-record-tty-'));
      try {
        // util-linux `script` gives the command a pseudo-terminal, as a user's shell would.
        const cli = `${process.execPath} --import tsx src/cli.ts record --out ${dir} --upstream ${source.url} --leagues womens --games 1`;
        const run = runProcess(SCRIPT, ['-qec', cli, '/dev/null']);
        expect((await run.exited).code, run.stdout()).toBe(0);
        const screen = run.stdout();
        // Redrawn in place (\r) with a filled bar, the count of the whole run, and a final newline.
        expect(screen).toMatch(/\r█+░* \d+\/(\d+) womens_scoreboard/);
        expect(screen).toMatch(/\r█{28} (\d+)\/\1 done[^\n]*\n/);
        expect(screen).toMatch(/recorded \d+ payloads into/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    90_000,
  );

  it('refuses an unknown league before any request', async () => {
    const before = source.requests.count();
    const run = runCli(['record', '--out', out, '--upstream', source.url, '--leagues', 'nhl']);
    expect((await run.exited).code).toBe(2);
    expect(run.stderr()).toMatch(/--leagues: unknown league "nhl"/);
    expect(source.requests.count()).toBe(before);
  });
});
