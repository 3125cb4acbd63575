import { InvalidOptionsError } from '../core/errors.js';
import { LEAGUES, isLeague, type League } from '../core/leagues.js';
import { createRandom, randomInt } from './random.js';

/** How many synthetic games of each league a Saturday slate plays, in the order given. */
export type LeagueCounts = ReadonlyArray<readonly [League, number]>;

const SPEC_FORM = `a number of games (8) or league=count pairs (mens-college=150,womens-college=100,mens=10), leagues ${LEAGUES.join(', ')}`;

/**
 * Reads `--simulate`: a plain number (the games alternate leagues) or a count per league. Refuses
 * anything else naming the flag, the part at fault and the expected form.
 */
export function parseSimulateSpec(text: string): number | LeagueCounts {
  const spec = text.trim();
  if (/^\d+$/.test(spec)) return Number(spec);
  if (spec === '') throw new InvalidOptionsError(`--simulate: "" is empty; expected ${SPEC_FORM}`);
  const counts: Array<readonly [League, number]> = [];
  for (const part of spec.split(',')) {
    const [name = '', count, extra] = part.split('=').map((s) => s.trim());
    if (!isLeague(name) || count === undefined || extra !== undefined || !/^\d+$/.test(count)) {
      throw new InvalidOptionsError(`--simulate: "${part}" in "${text}" is invalid; expected ${SPEC_FORM}`);
    }
    if (counts.some(([league]) => league === name)) {
      throw new InvalidOptionsError(`--simulate: ${name} is given twice in "${text}"; expected ${SPEC_FORM}`);
    }
    counts.push([name, Number(count)]);
  }
  return counts;
}

/**
 * The leagues of a per-league slate, game by game: interleaved in proportion to their counts, so
 * that every tip-off wave has games of each league, as a Saturday has.
 */
export function slateLeagues(counts: LeagueCounts): League[] {
  const total = counts.reduce((n, [, c]) => n + c, 0);
  const placed = counts.map(() => 0);
  const out: League[] = [];
  for (let i = 0; i < total; i++) {
    // The league furthest behind its share of the games placed so far goes next.
    let best = -1;
    let bestLag = -Infinity;
    counts.forEach(([, c], k) => {
      const lag = ((i + 1) * c) / total - (placed[k] as number);
      if ((placed[k] as number) < c && lag > bestLag) [best, bestLag] = [k, lag];
    });
    placed[best] = (placed[best] as number) + 1;
    out.push((counts[best] as readonly [League, number])[0]);
  }
  return out;
}

// A conference Saturday tips off on the hour and the half hour from noon into the evening: ten
// hours of waves, about ten games a wave, a few minutes late each as TV windows run over.
const WAVE_MS = 30 * 60_000;
const MAX_WAVES = 20;
const GAMES_PER_WAVE = 10;

/** Tip-off offsets (real-time ms after the first) of a Saturday's `count` games, deterministic for a seed. */
export function saturdayOffsets(count: number, seed: number): number[] {
  const waves = Math.min(MAX_WAVES, Math.max(1, Math.ceil(count / GAMES_PER_WAVE)));
  const random = createRandom(seed * 7919 + 17);
  return Array.from({ length: count }, (_, i) => {
    const wave = Math.floor((i * waves) / count);
    const late = i === 0 ? 0 : randomInt(random, 0, 6) * 60_000;
    return wave * WAVE_MS + late;
  });
}
