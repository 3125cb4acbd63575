import { hashString } from './random.js';

/**
 * Event ids of the games the simulator makes up. ESPN's basketball event ids are 9-digit numbers
 * starting with 4 (401585607); these are 9 digits starting with 9, a range ESPN does not use, so an
 * id alone tells a made-up game from a real one and never names a real game by accident.
 */
export const SYNTHETIC_ID_PREFIX = '9';

/** A served synthetic game: the seed (5 digits) and its place in the slate (3 digits). */
export function syntheticGameId(seed: number, index: number): string {
  const seedPart = String(Math.abs(Math.floor(seed)) % 100_000).padStart(5, '0');
  return `${SYNTHETIC_ID_PREFIX}${seedPart}${String(index % 1000).padStart(3, '0')}`;
}

/** A game listed in a generated team schedule, stable for `key`; it is listed, never served. */
export function syntheticScheduleId(key: string): string {
  return `${SYNTHETIC_ID_PREFIX}${String(hashString(key) % 100_000_000).padStart(8, '0')}`;
}
