import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { League } from '../../src/core/leagues.js';
import { describe, it, type TestFunction, type TestOptions } from 'vitest';

/**
 * Recorded ESPN payloads are third-party data, not part of the repository: tests read them from
 * COURTSIDE_FIXTURES, else from ../shared/fixtures/espn beside the repository, and skip without
 * them. The skips are counted once for the whole run (test/support/skip-summary-reporter.ts).
 */
const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = resolve(
  process.env.COURTSIDE_FIXTURES ?? join(here, '..', '..', '..', 'shared', 'fixtures', 'espn'),
);
export const HAVE_FIXTURES = existsSync(join(FIXTURES_DIR, 'mens'));
export const NO_FIXTURES_REASON = `recorded ESPN payloads not found at ${FIXTURES_DIR}`;
/** How a contributor gets them: said once, under the count of the tests that skipped. */
export const FIXTURES_HINT =
  'record them with `courtside record --out <dir>` (needs the network) and set COURTSIDE_FIXTURES=<dir>; see "Tests" in README.md';

/** The meta a test skipped for want of recorded payloads carries, for the run's summary. */
export const SKIPPED_FOR_RECORDINGS = 'recorded-payloads';

declare module '@vitest/runner' {
  interface TaskMeta {
    /** Why the test was skipped, when a reporter should count it. */
    skippedFor?: string;
  }
}

function recordedOptions(skip: boolean, timeout: number | undefined): TestOptions {
  return {
    // Only a true skip is set: a suite's `skip: false` is inherited by its tests and would run
    // one marked `it.skipIf(true)` inside it (a missing Python module, say) anyway.
    ...(skip ? { skip } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    ...(skip && !HAVE_FIXTURES ? { meta: { skippedFor: SKIPPED_FOR_RECORDINGS } } : {}),
  };
}

/**
 * `describe.skipIf(skip)` for tests that read recorded payloads (`skip` includes
 * `!HAVE_FIXTURES`): skipped without them, they are counted in the run's one-line summary.
 */
export function describeRecorded(skip: boolean) {
  return (name: string, fn: () => void, timeout?: number): void => {
    describe(name, recordedOptions(skip, timeout), fn);
  };
}

/** `it.skipIf(skip)` for a test that reads recorded payloads; see `describeRecorded`. */
export function itRecorded(skip: boolean) {
  return (name: string, fn: TestFunction, timeout?: number): void =>
    it(name, recordedOptions(skip, timeout), fn);
}

export interface FixtureFile {
  league: League;
  /** Operation suffix, e.g. `summary`, `team_roster`. */
  suffix: string;
  /** The part after `__`, e.g. `401585607_final`, or ''. */
  qualifier: string;
  file: string;
}

/**
 * Every recorded payload of the pro leagues (or of the leagues given), parsed from the
 * `<league>/<suffix>[__<qualifier>].json` layout.
 */
export function listFixtures(leagues: readonly League[] = ['mens', 'womens']): FixtureFile[] {
  if (!HAVE_FIXTURES) return [];
  const out: FixtureFile[] = [];
  for (const league of leagues) {
    const dir = join(FIXTURES_DIR, league);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.json')) continue;
      const base = name.slice(0, -'.json'.length);
      const [suffix = base, ...rest] = base.split('__');
      out.push({ league, suffix, qualifier: rest.join('__'), file: join(dir, name) });
    }
  }
  return out;
}

const cache = new Map<string, unknown>();

/** Parsed JSON of a fixture, by path relative to the fixtures folder (e.g. `mens/news.json`). */
export function loadFixture<T = unknown>(relative: string): T {
  const file = join(FIXTURES_DIR, relative);
  let value = cache.get(file);
  if (value === undefined) {
    value = JSON.parse(readFileSync(file, 'utf8'));
    cache.set(file, value);
  }
  // Tests may mutate what they get: hand out a copy.
  return structuredClone(value) as T;
}

/** Finished summaries that hold plays: the games the replay and engine tests play through. */
export function finishedSummaries(): FixtureFile[] {
  return listFixtures().filter((f) => f.suffix === 'summary' && f.qualifier.includes('final'));
}

/** Finished college summaries (men's and women's), for the college engine tests. */
export function finishedCollegeSummaries(): FixtureFile[] {
  return listFixtures(['mens-college', 'womens-college']).filter(
    (f) => f.suffix === 'summary' && f.qualifier.includes('final'),
  );
}
