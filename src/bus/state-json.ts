import type { GameStateDelta, StoredGame } from './types.js';

/**
 * A game's stored state as both implementations hold it: JSON text, so stored state never aliases
 * the caller's objects and the memory bus keeps what Redis would.
 */

/** A delta with its values as JSON text. */
export interface SerialisedDelta {
  meta: string;
  sets: Array<readonly [field: string, json: string]>;
  deletes: readonly string[];
  replace: boolean;
}

/**
 * Serialised before anything is written or sent, so a value JSON cannot encode fails the commit
 * whole and leaves no partial write.
 */
export function serialiseDelta(delta: GameStateDelta): SerialisedDelta {
  return {
    meta: JSON.stringify(delta.meta ?? null),
    sets: (delta.set ?? []).map(([field, value]) => [field, JSON.stringify(value ?? null)] as const),
    deletes: delta.delete ?? [],
    replace: delta.replace === true,
  };
}

/** The stored state from its JSON text: meta (null when absent) and each entry. */
export function parseStoredGame(
  meta: string | null,
  entries: Iterable<readonly [string, string]>,
): StoredGame {
  const stored: StoredGame = { meta: meta === null ? null : JSON.parse(meta), entries: new Map() };
  for (const [field, value] of entries) stored.entries.set(field, JSON.parse(value));
  return stored;
}
