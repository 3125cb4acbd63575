import type { PlayRow } from '../src/model/events.js';
import type { eventIds } from './event-ids.js';
import { draft } from './game-diff-draft.js';
import type { GameDiffState } from './diff-state.js';
import { diffPlays, type PlayDiff, type PlayRecord } from './play-diff.js';
import { rawPlayId, sameRawPlay, type RawPlay } from './play-fingerprint.js';
import type { DraftEvent, PollPlay } from './poll-order.js';

/** A summary diff's plays phase: removals, then additions, updates and moves in list order. */
export interface PlaysPhase {
  /** Undefined when the summary carries no play list. */
  readonly plays: PlayDiff | undefined;
  readonly events: PollPlay[];
  /** This poll's event of each added or updated play, for the win probability to follow. */
  readonly byPlay: Map<string, PollPlay>;
  /** The periods of this poll's added or updated plays. */
  readonly periods: Set<number>;
  /** This poll's records (the win probability phase adds to them). */
  readonly records: Map<string, PlayRecord>;
}

const RAW_SOURCE = {
  idOf: (p: RawPlay): string | null => rawPlayId(p),
  same: sameRawPlay,
};

export function diffPlaysPhase(
  state: GameDiffState,
  rawPlays: unknown,
  ids: ReturnType<typeof eventIds>,
  toRows: (plays: readonly RawPlay[]) => PlayRow[],
): PlaysPhase {
  let plays: PlayDiff | undefined;
  const events: PollPlay[] = [];
  const byPlay = new Map<string, PollPlay>();
  const periods = new Set<number>();
  if (Array.isArray(rawPlays)) {
    plays = diffPlays(state.plays, rawPlays as RawPlay[], { ...RAW_SOURCE, toRows });
    for (const c of plays.changes) {
      const base = c.record;
      let event: DraftEvent;
      if (c.kind === 'removed') {
        event = draft('play.removed', ids.playRemoved(c.id, base.removes - 1), { playId: c.id, play: c.row });
      } else if (c.kind === 'added') {
        event = draft('play.added', ids.playAdded(c.id, base.adds - 1), {
          play: c.row,
          after: c.after,
          index: c.index,
        });
      } else {
        event = draft('play.updated', ids.playUpdated(c.id, base.updates, base.fp ?? ''), {
          play: c.row,
          changed: c.changed,
          previous: c.previous,
          ...(c.moved ? { after: c.after, moved: true } : {}),
        });
      }
      const period = periodOf(c.row);
      const entry: PollPlay = { event, period, then: [] };
      events.push(entry);
      if (c.kind !== 'removed') {
        byPlay.set(c.id, entry);
        if (period !== null) periods.add(period);
      }
    }
  }
  return { plays, events, byPlay, periods, records: plays?.records ?? new Map() };
}

/** A row's period when it is a usable period number (1 or more), else null. */
function periodOf(row: PlayRow | null): number | null {
  const p = row?.period_number;
  return typeof p === 'number' && Number.isInteger(p) && p >= 1 ? p : null;
}
