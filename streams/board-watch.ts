import { upstreamAnomalies } from '../src/core/metrics.js';
import type { League } from '../src/core/leagues.js';
import type { ScoreboardRow } from '../src/tables/index.js';
import type { EngineContext } from './engine-context.js';

/** Which board a reading came from: the default one, or the previous Eastern day's. */
export type BoardKind = 'default' | 'previous_day';

/** A scoreboard payload's own day (`day.date`, `YYYY-MM-DD`) as `YYYYMMDD`; null when absent. */
export function boardDayOf(raw: unknown): string | null {
  const day = (raw as { day?: { date?: unknown } } | null)?.day?.date;
  return typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day.replaceAll('-', '') : null;
}

export interface BoardWatch {
  /** A board was read: `day` is the Eastern day it stands for. */
  read(board: BoardKind, day: string, rows: readonly ScoreboardRow[]): void;
}

// Engines whose logs already carry an empty-board warning: said once per engine, counted always.
const warned = new WeakSet<EngineContext>();

/**
 * Watches one league's boards for an empty answer during a live window: a board that listed a
 * game not yet final for a day, and then lists nothing for that same day. ESPN does not empty a
 * day's board while its games play, so this points at a change upstream (or an outage that
 * answers 200). Each such reading is counted in `courtside_upstream_anomalies_total{kind=
 * "empty_board"}`; the first one is logged.
 */
export function createBoardWatch(ctx: EngineContext, league: League): BoardWatch {
  const last = new Map<BoardKind, { day: string; open: boolean }>();
  return {
    read(board, day, rows) {
      const before = last.get(board);
      if (rows.length === 0 && before !== undefined && before.day === day && before.open) {
        // The last reading with games stays the reference: every empty one after it counts.
        upstreamAnomalies.inc({ kind: 'empty_board' });
        if (!warned.has(ctx)) {
          warned.add(ctx);
          ctx.logger.warn(
            { league, board, day, kind: 'empty_board' },
            'scoreboard answered no games for a day whose games are not all final; ESPN may have changed something (counted in courtside_upstream_anomalies_total, logged once)',
          );
        }
        return;
      }
      last.set(board, {
        day,
        open: rows.some((r) => r.status_type_state === 'pre' || r.status_type_state === 'in'),
      });
    },
  };
}
