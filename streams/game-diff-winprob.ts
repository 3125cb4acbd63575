import { isObject } from '../src/core/is-object.js';
import type { eventIds } from './event-ids.js';
import { draft } from './game-diff-draft.js';
import type { GameDiffState, GameMeta } from './diff-state.js';
import type { PlayRecord } from './play-diff.js';
import type { DraftEvent, PollPlay } from './poll-order.js';

/**
 * A summary diff's win probability phase, per play id. The list is re-sent whole each poll; an
 * entry equal to the one at the same position last poll is unchanged without a lookup. Changed
 * values are written into `records` (this poll's play records).
 */
export interface WinprobPhase {
  /** Values for plays this poll did not bring: they sit at the header's moment. */
  readonly loose: DraftEvent[];
  readonly seen: GameDiffState['wpSeen'];
  /** The latest value, or undefined when the summary carries no list. */
  readonly latest: GameMeta['winProbability'] | undefined;
}

export function diffWinprob(
  state: GameDiffState,
  raw: unknown,
  ids: ReturnType<typeof eventIds>,
  records: Map<string, PlayRecord>,
  byPlay: ReadonlyMap<string, PollPlay>,
): WinprobPhase {
  const loose: DraftEvent[] = [];
  if (!Array.isArray(raw)) return { loose, seen: state.wpSeen, latest: undefined };
  const current = (id: string): PlayRecord | undefined => records.get(id) ?? state.plays.records.get(id);
  const list = raw as unknown[];
  const prev = state.wpSeen;
  const seenIds: string[] = [];
  const seenValues: number[] = [];
  let latest: GameMeta['winProbability'] = state.meta.winProbability;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isObject(item)) continue;
    const playId =
      typeof item.playId === 'string'
        ? item.playId
        : typeof item.playId === 'number'
          ? String(item.playId)
          : null;
    const wp =
      typeof item.homeWinPercentage === 'number' && Number.isFinite(item.homeWinPercentage)
        ? item.homeWinPercentage
        : null;
    if (playId === null || wp === null) continue;
    const position = seenIds.length;
    seenIds.push(playId);
    seenValues.push(wp);
    const tie =
      typeof item.tiePercentage === 'number' && Number.isFinite(item.tiePercentage)
        ? item.tiePercentage
        : null;
    latest = { playId, homeWinPercentage: wp, tiePercentage: tie };
    if (prev !== null && prev.ids[position] === playId && prev.values[position] === wp) continue;
    const cur = current(playId);
    if (cur !== undefined && cur.wp === wp) continue;
    const record: PlayRecord = {
      ...(cur ?? {
        row: null,
        fp: null,
        after: null,
        wp: null,
        tie: null,
        adds: 0,
        updates: 0,
        removes: 0,
        wpChanges: 0,
      }),
      wp,
      tie,
      wpChanges: (cur?.wpChanges ?? 0) + 1,
    };
    records.set(playId, record);
    const event = draft('winprob.changed', ids.winprobChanged(playId, record.wpChanges), {
      playId,
      homeWinPercentage: wp,
      previousHomeWinPercentage: cur?.wp ?? null,
      tiePercentage: tie,
    });
    // A value for a play this poll brought follows that play; others sit at the header's moment.
    (byPlay.get(playId)?.then ?? loose).push(event);
  }
  return { loose, seen: { ids: seenIds, values: seenValues }, latest };
}
