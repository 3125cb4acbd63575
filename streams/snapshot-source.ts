import type { Bus } from '../src/bus/types.js';
import type { League } from '../src/core/leagues.js';
import type { GameSnapshot, SnapshotSource } from '../src/model/events.js';

function snapshotOf(meta: unknown): GameSnapshot | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const snapshot = (meta as { snapshot?: unknown }).snapshot;
  if (typeof snapshot !== 'object' || snapshot === null) return undefined;
  const s = snapshot as GameSnapshot;
  // A snapshot stored by a version before the game situation still answers with the field.
  return s.situation === undefined ? { ...s, situation: null } : s;
}

/**
 * Snapshots from the bus: the engine stores each game's snapshot in its state's `meta`, so every
 * instance reads the same snapshot whichever instance polls the game. Reads go through
 * `listGames` (metas only) rather than `loadGame`, which would also load every play entry.
 *
 * A snapshot that has not changed since the last read is handed out as the same object, and
 * `list` calls made in the same turn of the event loop share one read: the gateways key their
 * serialised frames on the object, so the thousand clients that resume at once after a Redis
 * restart share a frame per game instead of serialising 10-20 KB each. The shared read is issued
 * after every call it answers, so no caller gets a snapshot older than its call.
 */
export function createSnapshotSource(bus: Bus): SnapshotSource {
  let known = new Map<string, GameSnapshot>();
  let batch: Promise<readonly GameSnapshot[]> | undefined;

  const canonical = (s: GameSnapshot, into: Map<string, GameSnapshot>): GameSnapshot => {
    const key = `${s.league}:${s.gameId}`;
    const previous = known.get(key);
    const same = previous !== undefined && previous.seq === s.seq && previous.updatedAt === s.updatedAt;
    const out = same ? previous : s;
    into.set(key, out);
    return out;
  };

  async function readAll(): Promise<GameSnapshot[]> {
    const out: GameSnapshot[] = [];
    // Rebuilt on every read, so games gone from the store are forgotten.
    const next = new Map<string, GameSnapshot>();
    for (const g of await bus.listGames()) {
      const s = snapshotOf(g.meta);
      if (s) out.push(canonical(s, next));
    }
    known = next;
    return out;
  }

  return {
    async snapshot(league: League, gameId: string) {
      const games = await bus.listGames();
      const game = games.find((g) => g.league === league && g.gameId === gameId);
      const s = game ? snapshotOf(game.meta) : undefined;
      return s && canonical(s, known);
    },
    list() {
      batch ??= new Promise((resolve, reject) => {
        setImmediate(() => {
          batch = undefined;
          readAll().then(resolve, reject);
        });
      });
      return batch;
    },
  };
}
