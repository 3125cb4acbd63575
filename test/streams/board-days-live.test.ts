import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import { createEspnClient, type EspnClient } from '../../src/espn-client/client.js';
import { easternInstant } from '../../src/espn/eastern-day.js';
import type { GameEvent } from '../../src/model/events.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { parsePlays } from '../../src/tables/index.js';
import { createEngine, type Engine } from '../../streams/engine.js';
import { VirtualClock, reconstructPlays, settle } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const MIN = 60_000;
const NBA = '/apis/site/v2/sports/basketball/nba';
// A synthetic game lasts about two hours; at 0.6 speed, 3.4 hours: from 22:30 to about 01:55.
const SPEED = 0.6;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/**
 * The simulator on the test's virtual clock, and a client whose calls the clock waits for: the
 * engine runs on virtual time against real sockets, hours of a game night in seconds.
 */
async function night(tip: number) {
  const inflight = new Set<Promise<unknown>>();
  const quiesce = async (): Promise<void> => {
    for (let round = 0; round < 100; round++) {
      await settle(4);
      if (inflight.size === 0) {
        await settle(4);
        if (inflight.size === 0) return;
      } else {
        await Promise.allSettled([...inflight]);
      }
    }
  };
  const clock = new VirtualClock(tip, quiesce);
  const sim: RunningUpstream = await startUpstream({
    simulate: { games: 1, seed: 21, leagues: ['mens'] },
    clock: { now: () => clock.now() },
    speed: SPEED,
  });
  cleanup.push(() => sim.close());
  const http = createEspnClient({ upstream: sim.url, timeoutMs: 2_000, retries: 0 });
  cleanup.push(() => http.close());
  const client: Pick<EspnClient, 'call'> = {
    call: ((...args: Parameters<EspnClient['call']>) => {
      const p = http.call(...args);
      inflight.add(p);
      void p.then(
        () => inflight.delete(p),
        () => inflight.delete(p),
      );
      return p;
    }) as EspnClient['call'],
  };
  const bus = createMemoryBus({ now: () => clock.now() });
  cleanup.push(() => bus.close());
  const events: GameEvent[] = [];
  const engines: Engine[] = [];
  const startEngine = (name: string): Engine => {
    const engine = createEngine({
      client,
      leagues: ['mens'],
      bus,
      scheduler: clock,
      instanceId: name,
      random: () => 0.5,
      // Slower than the defaults: hours of virtual time in few polls, same logic.
      intervals: { summaryMs: 30_000, scoreboardLiveMs: 60_000, scoreboardGameDayMs: 60_000 },
    });
    engines.push(engine);
    cleanup.push(() => engine.close());
    engine.events$.subscribe((e) => events.push(e));
    engine.start();
    return engine;
  };
  const board = async (dates?: string): Promise<string[]> => {
    const res = await fetch(`${sim.url}${NBA}/scoreboard${dates ? `?dates=${dates}` : ''}`);
    return ((await res.json()) as any).events.map((e: any) => String(e.id));
  };
  return { clock, sim, events, startEngine, board };
}

describe('a game past Eastern midnight, engine against the simulator over a socket', () => {
  it.each([
    ['a winter night', '20260114', '20260115'],
    ['the night clocks go back', '20261031', '20261101'],
  ])(
    'on %s, is followed through game.ended across the board’s turnover, also by an engine started after it',
    { timeout: 60_000 },
    async (_night, day, next) => {
      const tip = easternInstant(day, 22, 30);
      const { clock, sim, events, startEngine, board } = await night(tip);
      const game = sim.games[0]!;
      expect(game.startAt).toBe(tip);
      const midnight = easternInstant(next, 0, 0);
      const one = easternInstant(next, 1, 0);
      // The game ends after 01:00 Eastern, well inside the previous day's window.
      expect(game.endAt).toBeGreaterThan(one);

      const first = startEngine('a');
      await clock.advance(midnight - tip - MIN);
      expect(events.some((e) => e.type === 'game.started')).toBe(true);
      expect(await board()).toEqual([game.id]);

      // Past midnight the default board has moved on while the game is live.
      await clock.advance(30 * MIN);
      expect(game.state(clock.now()).state).toBe('in');
      expect(await board()).toEqual([]);
      expect(await board(day)).toEqual([game.id]);

      // A restart at 00:29 Eastern: the new engine learns of the game from the previous day's board only.
      await first.close();
      const before = events.length;
      const second = startEngine('b');
      await clock.advance(MIN);
      expect(second.status().find((s) => s.gameId === game.id)?.state).toBe('polling');
      expect(sim.requests.entries.some((r) => r.path.endsWith('/scoreboard') && r.query.dates === day)).toBe(
        true,
      );

      await clock.advance(game.endAt - clock.now() + 5 * MIN);
      const ended = events.filter((e) => e.type === 'game.ended');
      expect(ended).toHaveLength(1);
      expect(Date.parse(ended[0]!.at)).toBeGreaterThan(one);
      expect(events.length).toBeGreaterThan(before);
      expect(second.status().find((s) => s.gameId === game.id)?.state).toBe('stopped');

      // Across both engines: one stream, no gap, no duplicate, the whole game.
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      const served = game.summary(clock.now());
      expect(reconstructPlays(events)).toEqual(parsePlays(served));
      const competitors = (served as any).header.competitions[0].competitors as any[];
      const score = (side: string) => Number(competitors.find((c) => c.homeAway === side).score);
      expect(ended[0]!.data).toMatchObject({ score: { home: score('home'), away: score('away') } });
    },
  );
});
