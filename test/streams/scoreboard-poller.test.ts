import { afterEach, describe, expect, it } from 'vitest';
import { parseScoreboard } from '../../src/tables/index.js';
import type { EngineRuntime } from '../../streams/engine-context.js';
import { createLiveGames } from '../../streams/live-games.js';
import {
  scheduledGameOf,
  startScoreboardPoller,
  type ScoreboardPoller,
} from '../../streams/scoreboard-poller.js';
import { Script, VirtualClock, engineContext, scoreboard } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const START = Date.UTC(2025, 0, 1, 0, 0);

describe('scheduledGameOf', () => {
  const [row] = parseScoreboard(scoreboard([{ id: '401', state: 'pre', date: '2025-01-01T01:00Z' }]), 'mens');

  it("reads a typed scoreboard row's game id, state and start", () => {
    expect(scheduledGameOf(row!)).toEqual({
      gameId: '401',
      scheduled: { state: 'pre', start: Date.UTC(2025, 0, 1, 1, 0) },
    });
  });

  it('gives no start for a date it cannot read, and skips rows without an id or a known state', () => {
    expect(scheduledGameOf({ ...row!, date: null })?.scheduled.start).toBeNull();
    expect(scheduledGameOf({ ...row!, date: 'soon' })?.scheduled.start).toBeNull();
    expect(scheduledGameOf({ ...row!, game_id: null })).toBeNull();
    expect(scheduledGameOf({ ...row!, status_type_state: 'delayed' })).toBeNull();
    expect(scheduledGameOf({ ...row!, status_type_state: null })).toBeNull();
  });
});

describe('scoreboard poller', () => {
  const running: Array<{ ctx: EngineRuntime; poller: ScoreboardPoller }> = [];
  afterEach(() => {
    for (const { ctx, poller } of running.splice(0)) {
      ctx.markClosed();
      poller.stop();
    }
  });

  function setup() {
    const clock = new VirtualClock(START);
    const script = new Script(clock);
    // Upstream lists, besides the script's games, one event without an id and one in a state the
    // engine does not know: both are skipped without failing the poll.
    const client = {
      call: async (op: string, params?: Record<string, string | number>) => {
        const raw = (await script.client.call(op, params)) as { events?: Array<Record<string, any>> };
        if (!op.endsWith('_scoreboard')) return raw;
        const odd = scoreboard([
          { id: 'x1', state: 'in', date: new Date(START).toISOString() },
          { id: 'x2', state: 'in', date: new Date(START).toISOString() },
        ]).events as Array<Record<string, any>>;
        delete odd[0]!.id;
        odd[1]!.status.type.state = 'delayed';
        return { events: [...(raw.events ?? []), ...odd] };
      },
    };
    const ctx = engineContext(clock, client);
    const games = createLiveGames(ctx, ['mens'], () => undefined);
    // The first poll goes out at once: the test sets the upstream up first.
    const start = (): ScoreboardPoller => {
      const poller = startScoreboardPoller(ctx, 'mens', games);
      running.push({ ctx, poller });
      return poller;
    };
    return { clock, script, games, start };
  }

  it('starts summary pollers for the live games it lists and polls at the cadence they call for', async () => {
    const { clock, script, games, start } = setup();
    script.add({ id: 'live', state: 'in', start: START });
    script.add({ id: 'later', state: 'pre', start: START + 60 * 60_000 });
    const poller = start();
    await clock.advance(1_000);
    expect(games.statuses().map((s) => [s.gameId, s.state])).toEqual([['live', 'polling']]);
    expect(poller.status).toMatchObject({ poller: 'scoreboard', state: 'polling', intervalMs: 10_000 });
    await clock.advance(30_000);
    expect(script.scoreboardCalls().map((t) => t - START)).toEqual([0, 10_000, 20_000, 30_000]);
  });

  it('stops the poller of a game moved back to later, and forgets games no longer listed', async () => {
    const { clock, script, games, start } = setup();
    const g = script.add({ id: 'g1', state: 'in', start: START });
    start();
    await clock.advance(1_000);
    g.state = 'pre';
    g.start = START + 60 * 60_000;
    await clock.advance(10_000);
    expect(games.statuses().map((s) => [s.gameId, s.state])).toEqual([['g1', 'stopped']]);
    script.games.delete('g1');
    await clock.advance(60_000);
    expect(games.statuses()).toEqual([]);
  });

  it('backs off on upstream errors from the smaller of the backoff base and the live interval, then recovers', async () => {
    const { clock, script, start } = setup();
    script.failing.set('mens_scoreboard', 2);
    const poller = start();
    await clock.advance(1);
    // Default intervals: backoff base = summary interval (3 s) < live interval (10 s); jitter 0.5.
    expect(poller.status).toMatchObject({ state: 'backoff', failures: 1, backoffMs: 2_250 });
    await clock.advance(2_250);
    expect(poller.status).toMatchObject({ failures: 2, backoffMs: 4_500 });
    await clock.advance(4_500);
    expect(poller.status).toMatchObject({
      failures: 0,
      backoffMs: null,
      lastError: { code: 'UPSTREAM_HTTP' },
    });
    // No game listed: the idle interval.
    expect(poller.status.intervalMs).toBe(300_000);
  });
});
