import type { GameEvent, GameSnapshot } from '../../model/events.js';
import { compareOffsets, type Offset } from '../../bus/types.js';
import { rewind } from './rewind.js';

/**
 * Games as a viewer with a spoiler delay sees them: each as it was at a past moment, after the last
 * event logged by then (docs/decisions.md, "A delayed snapshot is rewound"). The current snapshot
 * with the events logged since undone (rewind.ts), and, when a fast game has pushed every play of
 * that moment out of its recent plays, the clock of the newest play added before it. A delayed
 * subscription's first snapshots (snapshots.ts) and a scorebug page's first paint
 * (overlay-first-paint.ts) are both this.
 */

// The largest sequence part an offset may have: `<ms>-999999999999999` comes after every event
// logged in that millisecond.
const LAST_IN_MS = '999999999999999';

/** The offset after every event logged up to and in millisecond `ms`. */
export const endOfMs = (ms: number): Offset => `${ms}-${LAST_IN_MS}`;

// Events read from the log per request in a bounded read: 20 pages of 1,000 hold 300 s of a full
// evening, the longest delay.
const PAGE = 1_000;
const MAX_PAGES = 20;
/**
 * How far before the delayed moment the log is read for its clock. A rewound snapshot takes its
 * clock from the newest of its 20 recent plays, and a fast game (a replay at 60x) can push all 20
 * out within the delay: the newest play added before the moment then gives the clock.
 */
const CLOCK_LOOKBACK_MS = 5 * 60_000;

/** How a caller reads the log (its own retries, its own recent events). */
export interface DelayedReads {
  /** Through where the log has been trimmed, or null. */
  trimmedThrough(): Promise<Offset | null>;
  /** A page of at most `count` events logged after `after`, oldest first (`Bus.read`). */
  read(after: Offset, count: number): Promise<GameEvent[]>;
  /** Every event logged after `after` that `keep` accepts, oldest first; default: pages of `read`, 20 at most. */
  eventsAfter?(after: Offset, keep: (event: GameEvent) => boolean): Promise<GameEvent[]>;
}

const keyOf = (g: { league: string; gameId: string }): string => `${g.league}:${g.gameId}`;

/**
 * The games as they stood at `asOfMs`, in the order given. A game whose events since then are not
 * all in the log (trimmed or lost) is left out rather than shown newer than it was. Call after
 * reading the snapshots: a game's events and snapshot are committed together, so every event a
 * snapshot reflects is in the log by then.
 */
export async function delayedSnapshots(
  games: readonly GameSnapshot[],
  asOfMs: number,
  reads: DelayedReads,
): Promise<GameSnapshot[]> {
  if (games.length === 0) return [];
  const asOf = endOfMs(asOfMs);
  const keys = new Set(games.map(keyOf));
  const keep = (e: GameEvent): boolean => keys.has(keyOf(e));
  const [trimmedThrough, later] = await Promise.all([
    reads.trimmedThrough(),
    reads.eventsAfter ? reads.eventsAfter(asOf, keep) : boundedEventsAfter(reads.read, asOf, keep),
  ]);
  // Events of the window were trimmed away: no game can be rewound with certainty.
  if (trimmedThrough !== null && compareOffsets(trimmedThrough, asOf) > 0) return [];
  const byGame = new Map<string, GameEvent[]>();
  for (const e of later) {
    const list = byGame.get(keyOf(e));
    if (list) list.push(e);
    else byGame.set(keyOf(e), [e]);
  }
  const past: GameSnapshot[] = [];
  const clockless = new Set<string>();
  for (const game of games) {
    const undone = (byGame.get(keyOf(game)) ?? []).filter((e) => e.seq <= game.seq);
    if (!completeThrough(undone, game)) continue;
    const then = rewind(game, undone, asOfMs);
    if (undone.length > 0 && then.clock === null && then.state === 'in') clockless.add(keyOf(then));
    past.push(then);
  }
  if (clockless.size === 0) return past;
  const clocks = await clocksBefore(reads.read, asOfMs, clockless);
  return past.map((p) => {
    const clock = clockless.has(keyOf(p)) ? clocks.get(keyOf(p)) : undefined;
    return clock === undefined ? p : { ...p, clock };
  });
}

/** True when `undone` runs, without a gap, up to the event the snapshot last applied. */
export function completeThrough(undone: readonly GameEvent[], game: GameSnapshot): boolean {
  const first = undone[0];
  if (!first) return true;
  return undone.every((e, i) => e.seq === first.seq + i) && first.seq + undone.length - 1 === game.seq;
}

async function boundedEventsAfter(
  read: DelayedReads['read'],
  after: Offset,
  keep: (event: GameEvent) => boolean,
): Promise<GameEvent[]> {
  const out: GameEvent[] = [];
  let cursor = after;
  for (let page = 0; page < MAX_PAGES; page++) {
    const batch = await read(cursor, PAGE);
    for (const e of batch) if (keep(e)) out.push(e);
    const last = batch.at(-1)?.offset;
    if (batch.length < PAGE || last === undefined) break;
    cursor = last;
  }
  return out;
}

/** The clock of each game's newest play added in the look-back before `asOfMs`, by game. */
async function clocksBefore(
  read: DelayedReads['read'],
  asOfMs: number,
  keys: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const asOf = endOfMs(asOfMs);
  const clocks = new Map<string, string>();
  let cursor = endOfMs(Math.max(0, asOfMs - CLOCK_LOOKBACK_MS));
  for (let page = 0; page < MAX_PAGES; page++) {
    const batch = await read(cursor, PAGE);
    for (const e of batch) {
      if (compareOffsets(e.offset ?? '0-0', asOf) > 0) return clocks;
      const clock = e.type === 'play.added' ? e.data.play?.clock_display_value : null;
      if (clock != null && keys.has(keyOf(e))) clocks.set(keyOf(e), clock);
    }
    const last = batch.at(-1)?.offset;
    if (batch.length < PAGE || last === undefined) break;
    cursor = last;
  }
  return clocks;
}
