import { EMPTY, catchError, defer, map, repeat, timer, type Subscription } from 'rxjs';
import type { League } from '../src/core/leagues.js';
import { pollLag } from '../src/core/metrics.js';
import { parseScoreboard, type ScoreboardRow } from '../src/tables/index.js';
import { scoreboardDelay, wantsSummary, type ScheduledGame } from './cadence.js';
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

export interface ScoreboardPoller {
  readonly status: PollerStatus;
  /** Stops polling; the status says `stopped`. */
  stop(): void;
}

/**
 * The scoreboard poller of one league: polls the league's scoreboard at the cadence its games
 * call for (cadence.ts), hands every listed game to `games` (which starts and stops the summary
 * pollers) and backs off on errors.
 */
export function startScoreboardPoller(
  ctx: EngineContext,
  league: League,
  games: LiveGames,
): ScoreboardPoller {
  const { intervals, now } = ctx;
  const status = newStatus('scoreboard', league, null, intervals.scoreboardIdleMs);

  async function poll(): Promise<number> {
    const raw = await ctx.client.call(
      `${league}_scoreboard`,
      {},
      { returnParsed: false, fresh: true, signal: ctx.signal },
    );
    if (ctx.isClosed()) return intervals.scoreboardIdleMs;
    const rows = parseScoreboard(raw, league);
    const at = now();
    const listed: ScheduledGame[] = [];
    const seen = new Set<string>();
    for (const row of rows) {
      const game = scheduledGameOf(row);
      if (game === null) continue;
      listed.push(game.scheduled);
      seen.add(gameKeyOf(league, game.gameId));
      games.listed({ league, ...game, row, wanted: wantsSummary(game.scheduled, at) });
    }
    games.sweep(league, seen);
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
