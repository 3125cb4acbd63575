import { EMPTY, catchError, defer, map, repeat, timer, type Subscription } from 'rxjs';
import { isCollege, type League } from '../src/core/leagues.js';
import { operationName } from '../src/espn/operations.js';
import { easternDay } from '../src/espn/eastern-day.js';
import { pollLag } from '../src/core/metrics.js';
import { parseScoreboard, type ScoreboardRow } from '../src/tables/index.js';
import { boardDayOf, createBoardWatch, type BoardKind } from './board-watch.js';
import { scoreboardDelay, wantsSummary, type ScheduledGame } from './cadence.js';
import {
  DEFAULT_PREVIOUS_DAY_UNTIL,
  parseEasternTime,
  previousDayToRead,
  type DayReading,
} from './board-days.js';
import type { EngineContext } from './engine-context.js';
import type { PollerStatus } from './engine-types.js';
import { gameKeyOf, type LiveGames } from './live-games.js';
import { newStatus } from './poller-status.js';

/** A scoreboard row's game id and schedule; null for a row without an id or a known state. */
export function scheduledGameOf(row: ScoreboardRow): { gameId: string; scheduled: ScheduledGame } | null {
  const { game_id: gameId, status_type_state: state } = row;
  if (gameId === null || (state !== 'pre' && state !== 'in' && state !== 'post')) return null;
  const start = row.date === null ? NaN : Date.parse(row.date);
  return { gameId, scheduled: { state, start: Number.isFinite(start) ? start : null } };
}

/** ESPN's group id of NCAA Division I (the college scoreboards' `groups`). */
export const DIVISION_I_GROUP = '50';
/**
 * Enough games for any college day: D-I plays up to ~180 games on a Saturday. ESPN answers a
 * limit above 500 with 25 games, so this stays at 500.
 */
export const COLLEGE_BOARD_LIMIT = '500';

/**
 * What the poller adds to every scoreboard request of a league. A college scoreboard without
 * `groups` lists only featured (ranked teams') games, so live discovery asks for all of Division
 * I, with a limit above the day's games; the pro boards list every game as they are.
 */
export function discoveryParams(league: League): Readonly<Record<string, string>> {
  return isCollege(league) ? { groups: DIVISION_I_GROUP, limit: COLLEGE_BOARD_LIMIT } : {};
}

/** How the poller reads across the Eastern date seam (board-days.ts). */
export interface ScoreboardSeam {
  /** The previous day's board is read until this many minutes after Eastern midnight. */
  untilMinutes: number;
}

export interface ScoreboardPoller {
  readonly status: PollerStatus;
  /** Stops polling; the status says `stopped`. */
  stop(): void;
}

/** One board read: its rows, or why it could not be read. */
type BoardResult = { ok: true; raw: unknown } | { ok: false; error: unknown };

/**
 * The scoreboard poller of one league: polls the league's scoreboard at the cadence its games
 * call for (cadence.ts), hands every listed game to `games` (which starts and stops the summary
 * pollers) and backs off on errors. Across the Eastern date seam (board-days.ts) it reads the
 * previous Eastern day's board as well, so a late game stays listed after the default board moved
 * on to the next day.
 */
export function startScoreboardPoller(
  ctx: EngineContext,
  league: League,
  games: LiveGames,
  seam: ScoreboardSeam = { untilMinutes: parseEasternTime(DEFAULT_PREVIOUS_DAY_UNTIL) },
): ScoreboardPoller {
  const { intervals, now } = ctx;
  const status = newStatus('scoreboard', league, null, intervals.scoreboardIdleMs);
  // The last reading of the previous day's board, and of each board's day (empty-board check).
  let previousReading: DayReading | null = null;
  const watch = createBoardWatch(ctx, league);
  // The games each board listed at its last successful read.
  const lastKeys = new Map<BoardKind, Set<string>>();

  const extra = discoveryParams(league);
  const read = (params: Record<string, string>): Promise<BoardResult> =>
    ctx.client
      .call(
        operationName(league, 'scoreboard'),
        { ...extra, ...params },
        { returnParsed: false, fresh: true, signal: ctx.signal },
      )
      .then(
        (raw): BoardResult => ({ ok: true, raw }),
        (error: unknown): BoardResult => ({ ok: false, error }),
      );

  async function poll(): Promise<number> {
    const started = now();
    const previous = previousDayToRead(started, seam.untilMinutes, previousReading);
    // Both boards at once: the previous day's must not delay today's.
    const [today, earlier] = await Promise.all([
      read({}),
      previous === null ? Promise.resolve(null) : read({ dates: previous }),
    ]);
    if (ctx.isClosed()) return intervals.scoreboardIdleMs;
    const at = now();
    const listed: ScheduledGame[] = [];
    const seen = new Set<string>();
    const list = (board: BoardKind, rows: readonly ScoreboardRow[]): boolean => {
      let open = false;
      const keys = new Set<string>();
      for (const row of rows) {
        const game = scheduledGameOf(row);
        if (game === null) continue;
        if (game.scheduled.state !== 'post') open = true;
        const key = gameKeyOf(league, game.gameId);
        keys.add(key);
        // A game on both boards (before ESPN's default board moved on) is listed once, as today's.
        if (seen.has(key)) continue;
        listed.push(game.scheduled);
        seen.add(key);
        games.listed({ league, ...game, row, wanted: wantsSummary(game.scheduled, at) });
      }
      lastKeys.set(board, keys);
      return open;
    };
    /** A board that could not be read: its games as last read count as seen, so none is forgotten. */
    const keepLast = (board: BoardKind): void => {
      for (const key of lastKeys.get(board) ?? []) seen.add(key);
    };
    if (today.ok) {
      const rows = parseScoreboard(today.raw, league);
      watch.read('default', boardDayOf(today.raw) ?? easternDay(started), rows);
      list('default', rows);
    } else {
      keepLast('default');
    }
    if (earlier !== null && previous !== null) {
      if (earlier.ok) {
        const rows = parseScoreboard(earlier.raw, league);
        watch.read('previous_day', previous, rows);
        previousReading = { day: previous, open: list('previous_day', rows) };
      } else {
        keepLast('previous_day');
      }
    }
    games.sweep(league, seen);
    // The games read were handed on; the failure still counts, and the poller backs off.
    if (!today.ok) throw today.error;
    if (earlier !== null && !earlier.ok) throw earlier.error;
    return scoreboardDelay(listed, at, intervals);
  }

  let nextDelay = intervals.scoreboardIdleMs;
  const sub: Subscription = defer(() => {
    const due = now();
    status.state = 'polling';
    return ctx.track(poll()).then((delay) => ({ delay, due }));
  })
    .pipe(
      map(({ delay, due }) => {
        ctx.book.succeeded(status);
        nextDelay = delay;
        status.intervalMs = delay;
        pollLag.observe({ league, poller: 'scoreboard' }, Math.max(0, now() - due) / 1000);
        return delay;
      }),
      catchError((error: unknown) => {
        nextDelay = ctx.book.failed(
          status,
          error,
          Math.min(intervals.backoffBaseMs, intervals.scoreboardLiveMs),
        );
        return EMPTY;
      }),
      repeat({ delay: () => timer(nextDelay, ctx.scheduler) }),
    )
    .subscribe();

  return {
    status,
    stop() {
      sub.unsubscribe();
      status.state = 'stopped';
    },
  };
}
