import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LEAGUES, type League } from '../core/leagues.js';

/** One recorded payload: `<league>/<suffix>[__<qualifier>].json`. */
export interface Recording {
  readonly league: League;
  readonly suffix: string;
  /** Everything after the first `__`, e.g. `401585607_final`, `6__roundtrip`, or ''. */
  readonly qualifier: string;
  /** The id or date the qualifier starts with (`401585607`, `20241201`, `13`), or ''. */
  readonly key: string;
  readonly file: string;
}

/**
 * An index of a directory of recorded payloads. Bodies are read lazily and kept as text, so
 * what is served is byte-for-byte the recording.
 */
export class FixtureStore {
  private readonly byOperation = new Map<string, Recording[]>();
  private readonly texts = new Map<string, string>();

  constructor(readonly dir: string | undefined) {
    if (!dir) return;
    for (const league of LEAGUES) {
      const folder = join(dir, league);
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder).sort()) {
        if (!name.endsWith('.json')) continue;
        const base = name.slice(0, -'.json'.length);
        const cut = base.indexOf('__');
        const suffix = cut < 0 ? base : base.slice(0, cut);
        const qualifier = cut < 0 ? '' : base.slice(cut + 2);
        const key = qualifier.split('_')[0] ?? '';
        const list = this.byOperation.get(`${league}/${suffix}`) ?? [];
        list.push({ league, suffix, qualifier, key, file: join(folder, name) });
        this.byOperation.set(`${league}/${suffix}`, list);
      }
    }
    for (const list of this.byOperation.values()) list.sort((a, b) => rank(a) - rank(b));
  }

  get size(): number {
    let n = 0;
    for (const list of this.byOperation.values()) n += list.length;
    return n;
  }

  recordings(league: League, suffix: string): readonly Recording[] {
    return this.byOperation.get(`${league}/${suffix}`) ?? [];
  }

  /** The best recording whose key equals `key`. */
  byKey(league: League, suffix: string, key: string): Recording | undefined {
    return this.recordings(league, suffix).find((r) => r.key === key);
  }

  /** The recording served when a request names no id: the most faithful one (see `rank`). */
  byDefault(league: League, suffix: string): Recording | undefined {
    return this.recordings(league, suffix)[0];
  }

  text(recording: Recording): string {
    let text = this.texts.get(recording.file);
    if (text === undefined) {
      text = readFileSync(recording.file, 'utf8');
      this.texts.set(recording.file, text);
    }
    return text;
  }
}

/** The layout a folder of recordings must have, as error messages state it. */
export const FIXTURES_LAYOUT = 'a folder of recorded payloads laid out <league>/<suffix>[__qualifier].json';

/**
 * Why `dir` cannot be served as recordings, or undefined when it can. A folder that is missing,
 * mistyped or empty would otherwise start a simulator that silently serves none of them.
 */
export function fixturesProblem(dir: string): string | undefined {
  if (!existsSync(dir)) return `"${dir}" does not exist; expected ${FIXTURES_LAYOUT}`;
  if (!statSync(dir).isDirectory()) return `"${dir}" is not a folder; expected ${FIXTURES_LAYOUT}`;
  if (new FixtureStore(dir).size === 0) {
    return `"${dir}" holds no recordings; expected ${FIXTURES_LAYOUT}, league one of ${LEAGUES.join(', ')}`;
  }
  return undefined;
}

/**
 * Lower is preferred: plain recordings before qualified ones, raw captures before
 * `__roundtrip` re-serialisations, finished summaries before pre/live ones, and never an
 * edge case (`empty`) or a different API (`core`) when something ordinary exists.
 */
function rank(r: Recording): number {
  let score = r.qualifier === '' ? 0 : 1;
  if (r.qualifier.includes('roundtrip')) score += 2;
  if (/(^|_)(empty|core)(_|$)/.test(r.qualifier)) score += 4;
  if (r.suffix === 'summary' && !r.qualifier.includes('final')) score += 3;
  return score;
}
