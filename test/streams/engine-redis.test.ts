import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisBus } from '../../src/bus/redis.js';
import type { Bus } from '../../src/bus/types.js';
import { createEngine, type Engine } from '../../streams/engine.js';
import type { GameEvent } from '../../src/model/events.js';
import { getTestRedis, type TestRedis } from '../support/redis.js';
import { Script } from './helpers.js';
import { waitFor } from '../support/wait-for.js';

// Real time and real Redis (leases expire on Redis's clock), with short intervals.
const SUMMARY_MS = 100;
const redis = await getTestRedis();

describe.skipIf(!redis)('engine on the Redis bus (two instances)', () => {
  let r: TestRedis;
  const open: Array<Engine | Bus> = [];
  beforeAll(() => {
    r = redis as TestRedis;
  });
  afterAll(async () => {
    for (const x of open.reverse()) await x.close();
    await r.cleanup();
  });

  const instance = (id: string, script: Script, dies = false) => {
    const bus = createRedisBus({ url: r.url, prefix: r.prefix });
    open.push(bus);
    // A dying instance never gives its lease back: the other must wait for it to expire.
    const used: Bus = dies ? Object.create(bus, { releaseLease: { value: async () => {} } }) : bus;
    const engine = createEngine({
      client: script.client,
      leagues: ['mens'],
      bus: used,
      instanceId: id,
      allowFastIntervals: true,
      intervals: { summaryMs: SUMMARY_MS, scoreboardLiveMs: SUMMARY_MS, leaseTtlMs: 3 * SUMMARY_MS },
    });
    open.push(engine);
    const events: GameEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    return { engine, events };
  };

  it('polls each game from one instance; the other takes over when it dies, continuing seq without duplicates', async () => {
    const script = new Script({ now: () => Date.now() });
    const g = script.add({ id: 'r1', plays: 2, home: 2 });
    const a = instance('a', script, true);
    a.engine.start();
    await waitFor(() => a.events.some((e) => e.type === 'score.changed'), 10_000, 'a score change from A');
    const scriptB = new Script({ now: () => Date.now() });
    scriptB.games = script.games;
    const b = instance('b', scriptB);
    b.engine.start();
    await new Promise((res) => setTimeout(res, 10 * SUMMARY_MS));
    expect(scriptB.summaryCalls('r1')).toEqual([]);
    expect(b.engine.status().find((s) => s.gameId === 'r1')?.state).toBe('standby');

    await a.engine.close();
    const diedAt = Date.now();
    g.plays = 4;
    g.home = 5;
    await waitFor(() => b.events.some((e) => e.type === 'score.changed'), 10_000, 'a score change from B');
    // Within two lease periods (plus scheduling slack on a loaded machine).
    expect((scriptB.summaryCalls('r1')[0] ?? Infinity) - diedAt).toBeLessThan(2 * 3 * SUMMARY_MS + 1_000);
    const all = [...a.events, ...b.events];
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(b.events.map((e) => e.type)).toEqual(['play.added', 'play.added', 'score.changed']);
    expect(await b.engine.snapshots.snapshot('mens', 'r1')).toMatchObject({ score: { home: 5, away: 0 } });
    expect((await a.engine.snapshots.list()).map((s) => s.gameId)).toContain('r1');
  });
});
