import type { Bus } from '../bus/types.js';
import { compareOffsets } from '../bus/types.js';
import type { League } from '../core/leagues.js';
import type { GameEvent, GameSnapshot, SnapshotSource } from '../model/events.js';
import { completeThrough } from './delivery/snapshots.js';
import { rewind } from './delivery/rewind.js';

/**
 * The game a scorebug page shows on its first paint, written into the page by the server: the
 * current snapshot, or for a page with a spoiler delay the snapshot as it stood `delay` seconds
 * ago (the current one with the events of the last `delay` seconds undone, as a delayed
 * subscription's first snapshot is). Without it a page opened on a live game would say it is
 * waiting until its stream's first frame arrives. Undefined when there is nothing certain to show:
 * no snapshot, or events of the delay's window no longer in the log. The stream then brings it.
 */
export type FirstPaint = (
  league: League,
  gameId: string,
  delaySeconds: number,
) => Promise<GameSnapshot | undefined>;

// Events read from the log per request while undoing a delay's window: 300 s of a full evening.
const PAGE = 1_000;
const MAX_PAGES = 20;
/**
 * How far before the delayed moment the log is read for its clock. A rewound snapshot takes its
 * clock from the newest of its 20 recent plays, and a fast game (a replay at 60x) can push all 20
 * out within the delay: the newest play added before the moment then gives the clock.
 */
const CLOCK_LOOKBACK_MS = 5 * 60_000;
// The largest sequence part an offset may have: `<ms>-999999999999999` follows every event of that ms.
const LAST_IN_MS = '999999999999999';

export function createFirstPaint(
  snapshots: SnapshotSource,
  bus: Pick<Bus, 'read' | 'bounds'>,
  now: () => number = Date.now,
): FirstPaint {
  return async (league, gameId, delaySeconds) => {
    const current = await snapshots.snapshot(league, gameId);
    if (!current || delaySeconds === 0) return current;
    const asOfMs = now() - delaySeconds * 1000;
    const asOf = `${asOfMs}-${LAST_IN_MS}`;
    const { trimmedThrough } = await bus.bounds();
    if (trimmedThrough !== null && compareOffsets(trimmedThrough, asOf) > 0) return undefined;
    // Read after the snapshot: a game's events and snapshot are committed together, so every
    // event the snapshot reflects is in the log by now.
    const undone: GameEvent[] = [];
    let clockThen: string | null = null;
    let after = `${Math.max(0, asOfMs - CLOCK_LOOKBACK_MS)}-${LAST_IN_MS}`;
    for (let page = 0; page < MAX_PAGES; page++) {
      const batch = await bus.read(after, PAGE);
      for (const e of batch) {
        if (e.league !== league || e.gameId !== gameId) continue;
        if (compareOffsets(e.offset ?? '0-0', asOf) > 0) {
          if (e.seq <= current.seq) undone.push(e);
        } else if (e.type === 'play.added' && e.data.play?.clock_display_value != null) {
          clockThen = e.data.play.clock_display_value;
        }
      }
      const last = batch.at(-1)?.offset;
      if (batch.length < PAGE || last === undefined) break;
      after = last;
    }
    if (!completeThrough(undone, current)) return undefined;
    const past = rewind(current, undone, asOfMs);
    if (past.clock === null && past.state === 'in') past.clock = clockThen;
    return past;
  };
}
