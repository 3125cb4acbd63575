import type { GameEvent, GameSnapshot } from '../../model/events.js';
import { compareOffsets, type Offset } from '../../bus/types.js';
import { whileBusUnavailable } from './bus-retry.js';
import { eventsAfter, type ActivateContext } from './replay.js';
import { rewind } from './rewind.js';
import { gameMatches, snapshotMatches, type Subscription } from './subscription.js';

/**
 * The snapshots a subscription asked for. Without a spoiler delay they show the games as they are
 * now. With one they show each game as it was `delay` ago, after the last event logged by then
 * (docs/decisions.md, "A delayed snapshot is rewound"): the current snapshot with the events of
 * the last `delay` seconds undone. Those events then follow, each `delay` after it was logged.
 */

// The largest sequence part an offset may have: `<ms>-999999999999999` comes after every event
// logged in that millisecond.
const LAST_IN_MS = '999999999999999';

const keyOf = (g: { league: string; gameId: string }): string => `${g.league}:${g.gameId}`;

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
  const asOf = `${asOfMs}-${LAST_IN_MS}`;
  // Whether a game was in progress is decided on its past state, below.
  const candidates = games.filter((game) => gameMatches(sub.filter, game));
  const keys = new Set(candidates.map(keyOf));
  // Read after the snapshots: events and snapshot are committed together, so every event a
  // snapshot reflects is in the log by now.
  const [bounds, later] = await Promise.all([
    whileBusUnavailable(sub, () => ctx.bus.bounds()),
    eventsAfter(sub, asOf, liveFrom, ctx, (e) => keys.has(keyOf(e))),
  ]);
  if (sub.cancelled || sink.closed) return null;
  // Events of the window were trimmed away: no game can be rewound with certainty.
  const trimmed = bounds.trimmedThrough !== null && compareOffsets(bounds.trimmedThrough, asOf) > 0;
  const byGame = new Map<string, GameEvent[]>();
  for (const e of later) {
    const list = byGame.get(keyOf(e));
    if (list) list.push(e);
    else byGame.set(keyOf(e), [e]);
  }
  for (const game of trimmed ? [] : candidates) {
    const undone = (byGame.get(keyOf(game)) ?? []).filter((e) => e.seq <= game.seq);
    // A game whose held-back events are not all in the log gets no snapshot rather than a newer one.
    if (!completeThrough(undone, game)) continue;
    const past = rewind(game, undone, asOfMs);
    if (snapshotMatches(sub.filter, past)) sub.deliverFrame(sink.snapshotFrame(sub.id, past), asOfMs);
  }
  sink.flush();
  return asOf;
}

/** True when `undone` runs, without a gap, up to the event the snapshot last applied. */
export function completeThrough(undone: readonly GameEvent[], game: GameSnapshot): boolean {
  const first = undone[0];
  if (!first) return true;
  return undone.every((e, i) => e.seq === first.seq + i) && first.seq + undone.length - 1 === game.seq;
}
