import type { GameEvent } from '../model/events.js';
import { parseStoredGame, type SerialisedDelta } from './state-json.js';
import type { GameKey, StoredGame } from './types.js';

/** The memory bus's per-game state, keyed by game member (see game-member.ts). */
export interface MemoryGames {
  /** The events a re-send of the game's previous commit (same token) was given, else undefined. */
  resent(member: string, token: string): GameEvent[] | undefined;
  /**
   * Applies a serialised delta to the game's record (creating it), cancels its expiry, then has
   * `append` log the commit's events and remembers them under `token`, so a re-send is applied once.
   */
  write(
    member: string,
    game: GameKey,
    delta: SerialisedDelta,
    token: string,
    append: () => GameEvent[],
  ): GameEvent[];
  /** Whether the game has stored state (its expiry not passed). */
  has(member: string): boolean;
  load(member: string): StoredGame | undefined;
  list(): Array<GameKey & { meta: unknown }>;
  delete(member: string): void;
  expire(member: string, ttlMs: number): void;
  clear(): void;
}

interface GameRecord {
  key: GameKey;
  /** JSON text, like Redis holds it: stored state never aliases the caller's objects. */
  meta: string;
  entries: Map<string, string>;
  /** The previous commit, so a re-send of it is applied once (see commit-token.ts). */
  lastToken: string;
  lastEvents: GameEvent[];
  /** Wall-clock ms after which the record is gone (finished games), or undefined. */
  expiresAt?: number | undefined;
}

export function createMemoryGames(now: () => number): MemoryGames {
  const games = new Map<string, GameRecord>();

  /** The game's record, deleting it first when its expiry has passed. */
  function liveGame(member: string): GameRecord | undefined {
    const record = games.get(member);
    if (record?.expiresAt !== undefined && record.expiresAt <= now()) {
      games.delete(member);
      return undefined;
    }
    return record;
  }

  return {
    resent(member, token) {
      const previous = games.get(member);
      return token !== '' && previous?.lastToken === token ? previous.lastEvents : undefined;
    },

    write(member, game, delta, token, append) {
      let record = games.get(member);
      if (!record) {
        record = {
          key: { league: game.league, gameId: game.gameId },
          meta: delta.meta,
          entries: new Map(),
          lastToken: '',
          lastEvents: [],
        };
        games.set(member, record);
      }
      record.meta = delta.meta;
      record.expiresAt = undefined;
      if (delta.replace) record.entries.clear();
      for (const [field, value] of delta.sets) record.entries.set(field, value);
      for (const field of delta.deletes) record.entries.delete(field);
      const committed = append();
      if (token !== '') {
        record.lastToken = token;
        record.lastEvents = committed;
      }
      return committed;
    },

    has: (member) => liveGame(member) !== undefined,

    load(member) {
      const record = liveGame(member);
      return record ? parseStoredGame(record.meta, record.entries) : undefined;
    },

    list() {
      for (const member of games.keys()) liveGame(member);
      return [...games.values()].map((r) => ({ ...r.key, meta: JSON.parse(r.meta) as unknown }));
    },

    delete(member) {
      games.delete(member);
    },

    expire(member, ttlMs) {
      const record = liveGame(member);
      if (record) record.expiresAt = now() + ttlMs;
    },

    clear() {
      games.clear();
    },
  };
}
