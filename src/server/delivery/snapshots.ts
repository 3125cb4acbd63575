import type { Offset } from '../../bus/types.js';
import { whileBusUnavailable } from './bus-retry.js';
import { delayedSnapshots, endOfMs } from './delayed-snapshot.js';
import { eventsAfter, type ActivateContext } from './replay.js';
import { gameMatches, snapshotMatches, type Subscription } from './subscription.js';

/**
 * The snapshots a subscription asked for. Without a spoiler delay they show the games as they are
 * now. With one they show each game as it was `delay` ago, after the last event logged by then
 * (docs/decisions.md, "A delayed snapshot is rewound"; delayed-snapshot.ts): the current snapshot
 * with the events of the last `delay` seconds undone. Those events then follow, each `delay` after
 * it was logged.
 */

/**
 * Queues the matching snapshots. For a delayed subscription, resolves with the offset its
 * snapshots stand at: the events after it are not in them and must be replayed. Else null.
 */
export async function queueSnapshots(
  sub: Subscription,
  liveFrom: Offset,
  ctx: ActivateContext,
): Promise<Offset | null> {
  const { sink } = sub;
  const games = await whileBusUnavailable(sub, () => ctx.snapshots.list());
  if (sub.cancelled || sink.closed) return null;
  if (sub.delayMs === 0) {
    for (const game of games) {
      if (snapshotMatches(sub.filter, game)) sink.queue(sink.snapshotFrame(sub.id, game));
    }
    sink.flush();
    return null;
  }
  const asOfMs = sub.seesAsOf();
  const asOf = endOfMs(asOfMs);
  // Whether a game was in progress is decided on its past state, below.
  const candidates = games.filter((game) => gameMatches(sub.filter, game));
  const past = await delayedSnapshots(candidates, asOfMs, {
    trimmedThrough: async () => (await whileBusUnavailable(sub, () => ctx.bus.bounds())).trimmedThrough,
    read: (after, count) => whileBusUnavailable(sub, () => ctx.bus.read(after, count)),
    // The window's events come from the live feed's recent ones when they reach back that far.
    eventsAfter: (after, keep) => eventsAfter(sub, after, liveFrom, ctx, keep),
  });
  if (sub.cancelled || sink.closed) return null;
  for (const game of past) {
    if (snapshotMatches(sub.filter, game)) sub.deliverFrame(sink.snapshotFrame(sub.id, game), asOfMs);
  }
  sink.flush();
  return asOf;
}
