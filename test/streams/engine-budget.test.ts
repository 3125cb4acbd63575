import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { createEngine, type Engine, type EngineOptions } from '../../streams/engine.js';
import { Script, scriptedEngine, VirtualClock } from './helpers.js';
import { maxInAnySecond } from '../support/max-in-any-second.js';

const START = Date.UTC(2025, 0, 1, 0, 0);

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

function setup(options: Partial<EngineOptions>) {
  const clock = new VirtualClock(START);
  const script = new Script(clock);
  const { engine, events } = scriptedEngine(script, clock, options);
  engines.push(engine);
  return { clock, script, engine, events };
}

const summaryTimes = (script: Script): number[] =>
  script.calls.filter((c) => c.op.endsWith('_summary')).map((c) => c.at);

describe('engine: live budget', () => {
  it('refuses a budget that is not a positive number, naming it', () => {
    const client = { call: async () => ({}) };
    expect(() => createEngine({ client, leagues: ['mens'], liveBudget: 0 })).toThrow(InvalidOptionsError);
    expect(() => createEngine({ client, leagues: ['mens'], liveBudget: Number.NaN })).toThrow(/liveBudget/);
  });

  it('polls every game every interval while the budget does not bind', async () => {
    const { clock, script, engine } = setup({ intervals: { summaryMs: 3000 } });
    for (let i = 0; i < 10; i++) script.add({ id: `g${i}`, plays: 1 });
    engine.start();
    await clock.advance(60_000);
    for (let i = 0; i < 10; i++) {
      const calls = script.summaryCalls(`g${i}`);
      // Started after the first scoreboard: one poll each 3 s, as without a budget.
      expect(calls.length).toBeGreaterThanOrEqual(19);
      for (let k = 1; k < calls.length; k++) expect(calls[k]! - calls[k - 1]!).toBe(3000);
    }
    const status = engine.status().find((s) => s.gameId === 'g0');
    expect(status?.effectiveIntervalMs).toBe(3000);
  });

  it('keeps 40 games within 5 requests a second, each advancing, the closing minutes first', async () => {
    const { clock, script, engine, events } = setup({ intervals: { summaryMs: 1000 }, liveBudget: 5 });
    for (let i = 0; i < 39; i++) script.add({ id: `g${i}`, plays: 1 });
    const close = script.add({ id: 'close', plays: 1, period: 4, clock: '2:00' });
    engine.start();
    await clock.advance(10_000);
    const start = summaryTimes(script).length;
    for (let i = 0; i < 39; i++) script.games.get(`g${i}`)!.plays = 2;
    close.plays = 2;
    await clock.advance(50_000);
    const times = summaryTimes(script);
    // The budget and the half second's worth the bucket holds, in any second.
    expect(maxInAnySecond(times)).toBeLessThanOrEqual(7.5);
    expect((times.length - start) / 50).toBeLessThanOrEqual(5);
    // Every game advanced: its second play was diffed.
    for (const id of [...script.games.keys()]) {
      expect(events.filter((e) => e.gameId === id && e.type === 'play.added')).toHaveLength(2);
    }
    const closeCalls = script.summaryCalls('close').length;
    const otherCalls = script.summaryCalls('g0').length;
    expect(closeCalls).toBeGreaterThan(otherCalls * 1.5);
    const st = (id: string) => engine.status().find((s) => s.gameId === id);
    // Weights 4 + 39 for 5 a second: 0.47/s for the close game (3 s), 0.12/s for each other (9 s).
    expect(st('close')?.effectiveIntervalMs).toBe(3000);
    expect(st('g0')?.effectiveIntervalMs).toBe(9000);
  });

  it('serves a watched game first', async () => {
    const watched = new Set(['seen']);
    const { clock, script, engine } = setup({
      intervals: { summaryMs: 1000 },
      liveBudget: 5,
      watched: (_league, id) => watched.has(id),
    });
    for (let i = 0; i < 39; i++) script.add({ id: `g${i}`, plays: 1 });
    script.add({ id: 'seen', plays: 1 });
    engine.start();
    await clock.advance(30_000);
    const st = (id: string) => engine.status().find((s) => s.gameId === id);
    expect(st('seen')?.effectiveIntervalMs).toBe(3000);
    expect(st('g0')?.effectiveIntervalMs).toBe(9000);
    // No longer watched: back to an even share.
    watched.clear();
    await clock.advance(10_000);
    expect(st('seen')?.effectiveIntervalMs).toBe(8000);
  });
});
