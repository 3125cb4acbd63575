import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { League } from '../../src/core/leagues.js';

/**
 * Recorded ESPN payloads are third-party data kept in ../shared/fixtures/espn beside the
 * repository; tests read them from there and skip, saying why, when the folder is absent.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = resolve(
  process.env.COURTSIDE_FIXTURES ?? join(here, '..', '..', '..', 'shared', 'fixtures', 'espn'),
);
export const HAVE_FIXTURES = existsSync(join(FIXTURES_DIR, 'mens'));
export const NO_FIXTURES_REASON = `recorded ESPN payloads not found at ${FIXTURES_DIR} (set COURTSIDE_FIXTURES or place ../shared beside the repository)`;

if (!HAVE_FIXTURES) console.warn(`[skip] ${NO_FIXTURES_REASON}`);

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
