import { afterEach, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/model/events.js';
import { parseScoreboard } from '../../src/tables/index.js';
import type { EngineRuntime } from '../../streams/engine-context.js';
import { createLiveGames, gameKeyOf, type LiveGames } from '../../streams/live-games.js';
import { scheduledGameOf } from '../../streams/scoreboard-poller.js';
import { Script, VirtualClock, engineContext, scoreboard } from './helpers.js';

const START = Date.UTC(2025, 0, 1, 0, 0);
const KEY = { league: 'mens', gameId: 'g1' } as const;

const contexts: EngineRuntime[] = [];
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.markClosed();
});

function setup() {
  const clock = new VirtualClock(START);
  const script = new Script(clock);
  const ctx = engineContext(clock, script.client);
  contexts.push(ctx);
  const events: GameEvent[] = [];
  const games = createLiveGames(ctx, ['mens'], (e) => events.push(e));
  const g = script.add({ id: 'g1', state: 'in', plays: 2 });
  /** What a scoreboard poll of the script's games tells `games`. */
  const list = (into: LiveGames, wanted = true) => {
    const raw = scoreboard([{ id: g.id, state: g.state, date: new Date(g.start).toISOString() }]);
    for (const row of parseScoreboard(raw, 'mens')) {
      const game = scheduledGameOf(row);
      if (game) into.listed({ league: 'mens', ...game, row, wanted });
    }
  };
  return { clock, script, ctx, games, events, g, list };
}

describe('live games', () => {
  it('does not start the poller of a game it finished again, however late the scoreboard says so', async () => {
    const { clock, script, games, events, g, list } = setup();
    list(games);
    await clock.advance(3_000);
    g.state = 'post';
    await clock.advance(9_000);
    expect(events.map((e) => e.type)).toContain('game.ended');
    expect(games.statuses()[0]?.state).toBe('stopped');
    const calls = script.summaryCalls('g1').length;
    // The scoreboard still lists the game in progress.
    g.state = 'in';
    list(games);
    await clock.advance(30_000);
    expect(script.summaryCalls('g1')).toHaveLength(calls);
  });

  it('after Redis lost its data, writes the final copy of a game it just finished back, emitting nothing', async () => {
    const { clock, ctx, games, events, g, list } = setup();
    list(games);
    await clock.advance(3_000);
    g.state = 'post';
    await clock.advance(9_000);
    const emitted = events.length;
    const seq = events.at(-1)?.seq;
    // The store comes back empty (the memory bus cannot restart: its game is deleted instead).
    await ctx.bus.deleteGame(KEY);
    games.dataLost();
    expect(games.statuses()[0]?.state).toBe('polling');
    // The copy is written back once every instance had the offer wait to offer its own.
    await clock.advance(ctx.timings.offerWaitMs - 1_000);
    expect(await ctx.bus.loadGame(KEY)).toBeUndefined();
    await clock.advance(20_000);
    expect((await ctx.bus.loadGame(KEY))?.meta).toMatchObject({ ended: true, seq });
    expect(events).toHaveLength(emitted);
    expect(games.statuses()[0]?.state).toBe('stopped');
  });

  it('forgets a game the scoreboard no longer lists once nobody polls it', async () => {
    const { clock, games, g, list } = setup();
    list(games);
    await clock.advance(1_000);
    games.sweep('mens', new Set());
    expect(games.statuses().map((s) => s.gameId)).toEqual(['g1']);
    // Postponed: its poller stops.
    g.state = 'pre';
    g.start = START + 24 * 3_600_000;
    list(games, false);
    expect(games.statuses()[0]?.state).toBe('stopped');
    games.sweep('mens', new Set([gameKeyOf('mens', 'g1')]));
    expect(games.statuses().map((s) => s.gameId)).toEqual(['g1']);
    games.sweep('mens', new Set());
    expect(games.statuses()).toEqual([]);
  });
});
