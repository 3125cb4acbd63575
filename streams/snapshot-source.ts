import type { Bus } from '../src/bus/types.js';
import type { League } from '../src/espn/leagues.js';
import type { GameSnapshot, SnapshotSource } from './events.js';

function snapshotOf(meta: unknown): GameSnapshot | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const snapshot = (meta as { snapshot?: unknown }).snapshot;
  return typeof snapshot === 'object' && snapshot !== null ? (snapshot as GameSnapshot) : undefined;
}

/**
 * Snapshots from the bus: the engine stores each game's snapshot in its state's `meta`, so every
 * instance reads the same snapshot whichever instance polls the game. Reads go through
 * `listGames` (metas only) rather than `loadGame`, which would also load every play entry.
 */
export function createSnapshotSource(bus: Bus): SnapshotSource {
  return {
    async snapshot(league: League, gameId: string) {
      const games = await bus.listGames();
      const game = games.find((g) => g.league === league && g.gameId === gameId);
      return game ? snapshotOf(game.meta) : undefined;
    },
    async list() {
      const out: GameSnapshot[] = [];
      for (const g of await bus.listGames()) {
        const s = snapshotOf(g.meta);
        if (s) out.push(s);
      }
      return out;
    },
  };
}
