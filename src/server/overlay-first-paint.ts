import type { Bus } from '../bus/types.js';
import type { League } from '../core/leagues.js';
import type { GameSnapshot, SnapshotSource } from '../model/events.js';
import { delayedSnapshots } from './delivery/delayed-snapshot.js';

/**
 * The game a scorebug page shows on its first paint, written into the page by the server: the
 * current snapshot, or for a page with a spoiler delay the snapshot as it stood `delay` seconds
 * ago, as a delayed subscription's first snapshot shows it (delivery/delayed-snapshot.ts). Without
 * it a page opened on a live game would say it is waiting until its stream's first frame arrives.
 * Undefined when there is nothing certain to show: no snapshot, or events of the delay's window no
 * longer in the log. The stream then brings it.
 */
export type FirstPaint = (
  league: League,
  gameId: string,
  delaySeconds: number,
) => Promise<GameSnapshot | undefined>;

export function createFirstPaint(
  snapshots: SnapshotSource,
  bus: Pick<Bus, 'read' | 'bounds'>,
  now: () => number = Date.now,
): FirstPaint {
  return async (league, gameId, delaySeconds) => {
    const current = await snapshots.snapshot(league, gameId);
    if (!current || delaySeconds === 0) return current;
    const [past] = await delayedSnapshots([current], now() - delaySeconds * 1000, {
      trimmedThrough: async () => (await bus.bounds()).trimmedThrough,
      read: (after, count) => bus.read(after, count),
    });
    return past;
  };
}
