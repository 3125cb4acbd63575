import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { BusUnavailableError, InvalidOptionsError } from '../../src/core/errors.js';
import { eventsEmitted, pollErrors, trackedGames } from '../../src/core/metrics.js';
import { createEngine, type Engine, type EngineOptions } from '../../streams/engine.js';
import type { GameEvent } from '../../src/model/events.js';
import { Script, scriptedEngine, VirtualClock, type ScriptGame } from './helpers.js';

const START = Date.UTC(2025, 0, 1, 0, 0);
const MIN = 60_000;

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

function setup(options: Partial<EngineOptions> = {}, clock = new VirtualClock(START)) {
  const script = new Script(clock);
  const { bus, engine, events } = scriptedEngine(script, clock, options);
  engines.push(engine);
  return { clock, script, bus, engine, events };
}

describe('createEngine: options', () => {
  it('refuses a summary interval under 1 s unless fast intervals are allowed explicitly', () => {
    const client = { call: async () => ({}) };
    expect(() => createEngine({ client, leagues: ['mens'], intervals: { summaryMs: 500 } })).toThrow(
      InvalidOptionsError,
    );
    expect(() => createEngine({ client, leagues: [] })).toThrow(InvalidOptionsError);
    expect(() => createEngine({ client, leagues: ['mens'], finishedGameTtlMs: 0 })).toThrow(
      /finishedGameTtlMs must be a positive number/,
    );
    const e = createEngine({
      client,
      leagues: ['mens'],
      intervals: { summaryMs: 50 },
      allowFastIntervals: true,
    });
    engines.push(e);
  });
});

describe('scoreboard poller', () => {
  it('polls every 5 minutes with no games, 60 s on a game day, 10 s when a game is near or live', async () => {
    const { clock, script, engine } = setup();
    engine.start();
    await clock.advance(15 * MIN);
    expect(script.scoreboardCalls().map((t) => (t - START) / MIN)).toEqual([0, 5, 10, 15]);

    script.add({ id: 'g1', state: 'pre', start: clock.now() + 60 * MIN });
    script.calls = [];
    await clock.advance(5 * MIN); // the next poll (at 20 min) sees the game day
    await clock.advance(3 * MIN);
    const gaps = script
      .scoreboardCalls()
      .slice(1)
      .map((t, i) => t - (script.scoreboardCalls()[i] as number));
    expect(gaps.every((g) => g === MIN)).toBe(true);

    (script.games.get('g1') as ScriptGame).start = clock.now() + 9 * MIN; // within 10 minutes
    script.calls = [];
    await clock.advance(2 * MIN);
    const fast = script.scoreboardCalls();
    expect(fast.slice(-2)[1]! - fast.slice(-2)[0]!).toBe(10_000);
    // Still more than 2 minutes away: no summary poll yet.
    expect(script.summaryCalls('g1')).toEqual([]);
  });

  it('starts a summary poller 2 minutes before tip-off and stops it one poll after post', async () => {
    const { clock, script, engine, events } = setup();
    const g = script.add({ id: 'g1', state: 'pre', start: START + 5 * MIN });
    engine.start();
    await clock.advance(2 * MIN);
    expect(script.summaryCalls('g1')).toEqual([]);
    await clock.advance(90_000); // now 3.5 min: the 3 min mark is within 2 minutes of 5 min
    expect(script.summaryCalls('g1').length).toBeGreaterThan(0);
    expect(script.summaryCalls('g1')[0]).toBeGreaterThanOrEqual(START + 3 * MIN);
    g.state = 'in';
    g.plays = 3;
    await clock.advance(30_000);
    expect(events.some((e) => e.type === 'game.started')).toBe(true);
    g.state = 'post';
    const endedAt = clock.now();
    await clock.advance(2 * MIN);
    expect(events.filter((e) => e.type === 'game.ended')).toHaveLength(1);
    // One poll saw `post`, one more was made, then nothing; the scoreboard's `post` restarts nothing.
    expect(script.summaryCalls('g1').filter((t) => t > endedAt)).toHaveLength(2);
    expect(engine.status().find((s) => s.gameId === 'g1')?.state).toBe('stopped');
  });
});

describe('summary pollers', () => {
  it('back off on errors (exponential, capped), recover, and never stop another game', async () => {
    const { clock, script, engine, events } = setup({
      intervals: { summaryMs: 3_000, backoffMaxMs: 20_000 },
    });
    script.add({ id: 'bad', plays: 1 });
    script.add({ id: 'good', plays: 1 });
    const before =
      (await pollErrors.get()).values.find(
        (v) => v.labels.code === 'UPSTREAM_HTTP' && v.labels.poller === 'summary',
      )?.value ?? 0;
    script.failing.set('bad', 8);
    engine.start();
    await clock.advance(3 * MIN);
    const bad = script.summaryCalls('bad');
    const gaps = bad.slice(1).map((t, i) => t - (bad[i] as number));
    // Growing gaps up to the cap, then back to the interval once it recovered.
    expect(gaps.slice(0, 4)).toEqual([...gaps.slice(0, 4)].sort((a, b) => a - b));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(20_000 + 3_000);
    expect(Math.max(...gaps)).toBeGreaterThan(6_000);
    expect(gaps.at(-1)).toBe(3_000);
    expect(events.some((e) => e.gameId === 'bad' && e.type === 'play.added')).toBe(true);
    const status = engine.status().find((s) => s.gameId === 'bad');
    expect(status).toMatchObject({ failures: 0, state: 'polling', lastError: { code: 'UPSTREAM_HTTP' } });
    // The other game was polled every interval throughout.
    const good = script.summaryCalls('good');
    expect(good.slice(1).every((t, i) => t - (good[i] as number) === 3_000)).toBe(true);
    const after =
      (await pollErrors.get()).values.find(
        (v) => v.labels.code === 'UPSTREAM_HTTP' && v.labels.poller === 'summary',
      )?.value ?? 0;
    expect(after - before).toBe(8);
  });

  it('tries a poll the bus failed again within half a second of Redis answering, not at a later tick', async () => {
    const clock = new VirtualClock(START);
    const store = createMemoryBus({ now: () => clock.now() });
    // Redis away (a failover) from `downFrom` to `downUntil`: every lease request fails meanwhile.
    let downFrom = Infinity;
    let downUntil = 0;
    const bus: Bus = Object.create(store, {
      acquireLease: {
        value: (...args: Parameters<Bus['acquireLease']>) =>
          clock.now() >= downFrom && clock.now() < downUntil
            ? Promise.reject(new BusUnavailableError('acquireLease'))
            : store.acquireLease(...args),
      },
    });
    const { script, engine } = setup({ bus, intervals: { summaryMs: 3_000 } }, clock);
    const g = script.add({ id: 'g1', plays: 1 });
    const emittedAt: number[] = [];
    engine.events$.subscribe(() => emittedAt.push(clock.now()));
    engine.start();
    await clock.advance(10_000);
    expect(emittedAt.length).toBeGreaterThan(0);
    // Down for 6.5 s, a new play meanwhile: several polls fail, and their waits span ticks.
    downFrom = clock.now();
    downUntil = downFrom + 6_500;
    g.plays = 2;
    const seen = emittedAt.length;
    await clock.advance(20_000);
    const first = emittedAt[seen];
    expect(first, 'the play committed after Redis came back').toBeDefined();
    expect(first!).toBeGreaterThanOrEqual(downUntil);
    expect(first! - downUntil).toBeLessThanOrEqual(500);
    expect(engine.status().find((s) => s.gameId === 'g1')).toMatchObject({ failures: 0, state: 'polling' });
  });

  it('treats a summary it cannot read as a failed poll: backoff, no events, then recovery', async () => {
    const { clock, script, engine, events } = setup();
    const g = script.add({ id: 'g1', plays: 1 });
    engine.start();
    await clock.advance(1_000);
    const n = events.length;
    const errors = async () =>
      (await pollErrors.get()).values.find(
        (v) => v.labels.code === 'UPSTREAM_PAYLOAD' && v.labels.poller === 'summary',
      )?.value ?? 0;
    const before = await errors();
    script.garbage.set('g1', 3);
    g.plays = 2;
    await clock.advance(4_000);
    expect(events.length).toBe(n);
    expect(engine.status().find((s) => s.gameId === 'g1')).toMatchObject({ state: 'backoff', failures: 1 });
    await clock.advance(40_000);
    expect((await errors()) - before).toBe(3);
    expect(events.slice(n).map((e) => e.type)).toEqual(['play.added']);
    expect(engine.status().find((s) => s.gameId === 'g1')).toMatchObject({ state: 'polling', failures: 0 });
  });

  it('sends one summary request per interval per game even when the bus is slow', async () => {
    const clock = new VirtualClock(START);
    const inner = createMemoryBus({ now: () => clock.now() });
    // A bus whose commits take 5 s (a slow downstream, still inside the 9 s lease): polls must
    // not stack up behind it.
    const slow: Bus = Object.create(inner, {
      commit: {
        value: (...args: Parameters<Bus['commit']>) =>
          new Promise((resolve) => clock.schedule(() => resolve(inner.commit(...args)), 5_000)),
      },
    });
    const { script, engine, events } = setup({ bus: slow }, clock);
    const g = script.add({ id: 'g1', plays: 0 });
    engine.start();
    for (let i = 0; i < 20; i++) {
      g.plays++;
      await clock.advance(3_000);
    }
    const calls = script.summaryCalls('g1');
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] as number));
    expect(gaps.every((gap) => gap >= 3_000)).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(60_000 / 3_000 + 1);
    expect(events.filter((e) => e.type === 'play.added').length).toBeGreaterThan(0);
  });
});

describe('metrics and status', () => {
  it('counts events by type, tracks live games, and reports each poller', async () => {
    const { clock, script, engine, events } = setup();
    script.add({ id: 'g1', plays: 2 });
    const count = async () => (await eventsEmitted.get()).values.reduce((n, v) => n + v.value, 0);
    const before = await count();
    engine.start();
    await clock.advance(5_000);
    expect((await count()) - before).toBe(events.length);
    const live = (await trackedGames.get()).values.find(
      (v) => v.labels.league === 'mens' && v.labels.state === 'in',
    );
    expect(live?.value).toBe(1);
    const status = engine.status();
    expect(status.map((s) => [s.poller, s.gameId])).toEqual([
      ['scoreboard', null],
      ['summary', 'g1'],
    ]);
    expect(status[1]).toMatchObject({
      state: 'polling',
      gameState: 'in',
      intervalMs: 3_000,
      failures: 0,
      lastError: null,
    });
    expect(status[1]?.lastSuccessAt).toBe(new Date(clock.now() - 2_000).toISOString());
  });
});

describe('persistence and leases', () => {
  it('continues seq and ids after a restart on the same bus (no duplicates)', async () => {
    const clock = new VirtualClock(START);
    const bus = createMemoryBus({ now: () => clock.now() });
    const a = setup({ bus, instanceId: 'a' }, clock);
    const g = a.script.add({ id: 'g1', plays: 3, home: 2 });
    a.engine.start();
    await clock.advance(10_000);
    expect(a.engine.state('mens', 'g1')).toMatchObject({
      seq: a.events.at(-1)?.seq,
      score: { home: 2, away: 0 },
    });
    await a.engine.close();
    await a.engine.close(); // idempotent

    const b = setup({ bus, instanceId: 'b' }, clock);
    b.script.games = a.script.games;
    g.plays = 5;
    g.home = 4;
    b.engine.start();
    await clock.advance(10_000);
    const ids = [...a.events, ...b.events].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(b.events.map((e) => e.type)).toEqual(['play.added', 'play.added', 'score.changed']);
    expect(b.events[0]?.seq).toBe((a.events.at(-1)?.seq ?? 0) + 1);
    expect(b.events.every((e) => typeof e.offset === 'string')).toBe(true);
    expect(await b.engine.snapshots.snapshot('mens', 'g1')).toMatchObject({ score: { home: 4, away: 0 } });
  });

  it('lets one instance poll a game; another takes over within two lease periods when it dies', async () => {
    const clock = new VirtualClock(START);
    const bus = createMemoryBus({ now: () => clock.now() });
    // Instance a "dies": its lease is never released, it just stops.
    const dying: Bus = Object.create(bus, { releaseLease: { value: async () => {} } });
    const { a, b, g } = await holderAndStandby(clock, dying, bus, { plays: 2 });
    await clock.advance(20_000);
    expect(a.script.summaryCalls('g1').length).toBeGreaterThan(5);
    expect(b.script.summaryCalls('g1')).toEqual([]);
    expect(b.engine.state('mens', 'g1')).toBeUndefined();

    const diedAt = clock.now();
    await a.engine.close();
    g.plays = 4;
    await clock.advance(20_000);
    const first = b.script.summaryCalls('g1')[0] as number;
    expect(first - diedAt).toBeLessThanOrEqual(2 * 9_000);
    expect(b.events.map((e) => e.type)).toEqual(['play.added', 'play.added']);
    expect(b.events[0]?.seq).toBe((a.events.at(-1)?.seq ?? 0) + 1);
  });

  it('drops a poll whose commit lost the lease, emits nothing from it, and resumes from the bus', async () => {
    const clock = new VirtualClock(START);
    const inner = createMemoryBus({ now: () => clock.now() });
    let lose = 0;
    const flaky: Bus = Object.create(inner, {
      commit: {
        value: async (...args: Parameters<Bus['commit']>) => (lose-- > 0 ? null : inner.commit(...args)),
      },
    });
    const { script, engine, events } = setup({ bus: flaky }, clock);
    const g = script.add({ id: 'g1', plays: 1 });
    engine.start();
    await clock.advance(3_000);
    const n = events.length;
    lose = 1;
    g.plays = 2;
    await clock.advance(3_000);
    expect(events.length).toBe(n);
    await clock.advance(6_000);
    expect(events.slice(n).map((e) => [e.type, e.seq])).toEqual([['play.added', n + 1]]);
  });

  /**
   * A bus whose store can be emptied, like a Redis restarted without persistence; as the Redis bus
   * does on reconnecting, it tells the `onDataLost` listeners.
   */
  function wipeableBus(clock: VirtualClock): { bus: Bus; wipe(): void; inner(): Bus } {
    let inner = createMemoryBus({ now: () => clock.now() });
    const lost = new Set<() => void>();
    const onDataLost = (listener: () => void): (() => void) => {
      lost.add(listener);
      return () => lost.delete(listener);
    };
    const bus = new Proxy({} as Bus, {
      get: (_t, prop: keyof Bus) => {
        if (prop === 'onDataLost') return onDataLost;
        const value = inner[prop];
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(inner) : value;
      },
    });
    const wipe = (): void => {
      inner = createMemoryBus({ now: () => clock.now() });
      for (const listener of lost) listener();
    };
    return { bus, wipe, inner: () => inner };
  }

  /** Instance a polls game g1; b, started a second later on `bus`, stands by. */
  async function holderAndStandby(clock: VirtualClock, busA: Bus, bus: Bus, game: Partial<ScriptGame>) {
    const a = setup({ bus: busA, instanceId: 'a' }, clock);
    const g = a.script.add({ id: 'g1', ...game });
    a.engine.start();
    await clock.advance(1_000);
    const b = setup({ bus, instanceId: 'b' }, clock);
    b.script.games = a.script.games;
    b.engine.start();
    await clock.advance(10_000);
    expect(b.engine.status().find((s) => s.gameId === 'g1')?.state).toBe('standby');
    return { a, b, g };
  }

  /** `store` with an acquireLease that says no while `stalled` (renewals not reaching the store). */
  function stallable(store: Bus): { bus: Bus; stalled: boolean } {
    const s = { bus: store, stalled: false };
    s.bus = Object.create(store, {
      acquireLease: {
        value: (...args: Parameters<Bus['acquireLease']>) =>
          s.stalled ? Promise.resolve(false) : store.acquireLease(...args),
      },
    });
    return s;
  }

  /** a's renewals stop reaching the store: b takes the game over and emits plays 3 and 4. */
  async function bTakesOver(
    clock: VirtualClock,
    busA: { stalled: boolean },
    g: ScriptGame,
    b: { events: GameEvent[] },
  ): Promise<void> {
    busA.stalled = true;
    await clock.advance(15_000);
    g.plays = 4;
    await clock.advance(6_000);
    expect(b.events.map((e) => e.type)).toEqual(['play.added', 'play.added']);
  }

  /** No id emitted twice, and the store holds g1's `plays` plays at seq = the number of its events. */
  async function expectOneHistory(store: Bus, events: GameEvent[], plays: number): Promise<void> {
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const stored = await store.loadGame({ league: 'mens', gameId: 'g1' });
    expect(stored?.entries.size).toBe(plays);
    expect((stored?.meta as { seq: number }).seq).toBe(ids.length);
  }

  it('after the store loses every state and lease, the holder writes its state back; nothing is re-emitted', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    // b checking the free lease can make a's renewal fail once: a must keep its state through it.
    let grabbed = false;
    const busA: Bus = Object.create(store.bus, {
      acquireLease: {
        value: (...args: Parameters<Bus['acquireLease']>) =>
          grabbed ? ((grabbed = false), Promise.resolve(false)) : store.bus.acquireLease(...args),
      },
    });
    const { a, b, g } = await holderAndStandby(clock, busA, store.bus, { plays: 3, home: 2 });
    const before = a.events.length;

    // Right after a's poll, so that b, which polls in between, finds the lease free first.
    store.wipe();
    grabbed = true;
    g.plays = 4;
    await clock.advance(60_000);
    expect(b.script.summaryCalls('g1')).toEqual([]);
    const ids = [...a.events, ...b.events].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const after = [...a.events.slice(before), ...b.events];
    expect(after.map((e) => [e.type, e.seq])).toEqual([['play.added', before + 1]]);
    // The new store holds the whole game again: every play, the current seq.
    const stored = await store.inner().loadGame({ league: 'mens', gameId: 'g1' });
    expect(stored?.entries.size).toBe(4);
    expect((stored?.meta as { seq: number }).seq).toBe(before + 1);
  });

  it('after the store loses the game, an older copy waits for the last holder to write back the newer one', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    // a stalls (its renewals do not reach the store), so b takes the game over and goes on.
    const busA = stallable(store.bus);
    const { a, b, g } = await holderAndStandby(clock, busA.bus, store.bus, { plays: 2 });
    await bTakesOver(clock, busA, g, b);
    busA.stalled = false;
    // Redis restarts empty; a (whose copy stops at 2 plays) must not write it back first.
    store.wipe();
    g.plays = 5;
    await clock.advance(90_000);
    await expectOneHistory(store.inner(), [...a.events, ...b.events], 5);
  });

  it('keeps every copy of a lost game while its owners find the loss at different times; the newest is written back', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    const busA = stallable(store.bus);
    // b's commit is fenced off once (its lease lapsed during a slow poll); later its Redis
    // connection is down for a while, so it finds the loss half a minute after a does.
    let fence = false;
    let downUntil = 0;
    const busB: Bus = Object.create(store.bus, {
      commit: {
        value: (...args: Parameters<Bus['commit']>) =>
          fence ? ((fence = false), Promise.resolve(null)) : store.bus.commit(...args),
      },
      acquireLease: {
        value: (...args: Parameters<Bus['acquireLease']>) =>
          clock.now() < downUntil
            ? Promise.reject(new BusUnavailableError('acquireLease'))
            : store.bus.acquireLease(...args),
      },
    });
    const { a, b, g } = await holderAndStandby(clock, busA.bus, busB, { plays: 2 });
    busA.stalled = true;
    g.plays = 4;
    await clock.advance(21_000);
    expect(b.events.map((e) => e.type)).toEqual(['play.added', 'play.added']);
    fence = true;
    g.plays = 5;
    await clock.advance(3_000);
    expect(fence).toBe(false);
    // Redis restarts empty: neither instance holds the game, both have a copy (b's is newer).
    store.wipe();
    busA.stalled = false;
    downUntil = clock.now() + 30_000;
    await clock.advance(180_000);
    await expectOneHistory(store.inner(), [...a.events, ...b.events], 5);
  });

  it('an instance that first sees a game just after the store lost it waits for the copy instead of starting over', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    const a = setup({ bus: store.bus, instanceId: 'a' }, clock);
    const g = a.script.add({ id: 'g1', plays: 3, home: 2 });
    a.engine.start();
    // c runs (polling another game) but has not listed g1 yet: a replacement instance, starting up.
    const c = setup({ bus: store.bus, instanceId: 'c' }, clock);
    c.script.add({ id: 'g2', plays: 1 });
    c.engine.start();
    await clock.advance(10_000);
    expect(a.events.length).toBeGreaterThan(0);
    // a is backing off from upstream errors, so c is first to poll the game after the wipe.
    a.script.failing.set('g1', 6);
    await clock.advance(40_000);
    store.wipe();
    c.script.games.set('g1', g);
    g.plays = 4;
    await clock.advance(240_000);
    expect(c.script.summaryCalls('g1').length).toBeGreaterThan(0);
    const g1 = [...a.events, ...c.events].filter((e) => e.gameId === 'g1');
    await expectOneHistory(store.inner(), g1, 4);
  });

  it('writes a game that finished just before the store lost it back as it ended; nothing is re-emitted', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    // a finishes the game but never releases its lease, so b is still standing by when Redis goes.
    const keeping: Bus = Object.create(store.bus, { releaseLease: { value: async () => {} } });
    const { a, b, g } = await holderAndStandby(clock, keeping, store.bus, { plays: 2 });
    g.state = 'post';
    await clock.advance(10_000);
    expect(a.events.map((e) => e.type)).toContain('game.ended');
    const emitted = a.events.length;
    store.wipe();
    await clock.advance(120_000);
    expect(a.events).toHaveLength(emitted);
    expect(b.events).toEqual([]);
    const stored = await store.inner().loadGame({ league: 'mens', gameId: 'g1' });
    expect(stored?.meta).toMatchObject({ ended: true, seq: emitted });
    expect(b.engine.status().find((s) => s.gameId === 'g1')?.state).toBe('stopped');
  });

  it('does not start a game over that finished long before the store lost it', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    const keeping: Bus = Object.create(store.bus, { releaseLease: { value: async () => {} } });
    // b never gets the lease until the end: it stands by with no copy of the game.
    const busB = stallable(store.bus);
    const { a, b, g } = await holderAndStandby(clock, keeping, busB.bus, { plays: 2 });
    busB.stalled = true;
    g.state = 'post';
    await clock.advance(10_000);
    const emitted = a.events.length;
    // Long enough for a to have dropped its final copy (twice the five-lease-TTL grace).
    await clock.advance(120_000);
    const calls = a.script.summaryCalls('g1').length;
    store.wipe();
    busB.stalled = false;
    await clock.advance(120_000);
    expect(a.events).toHaveLength(emitted);
    expect(a.script.summaryCalls('g1')).toHaveLength(calls);
    expect(b.events).toEqual([]);
    expect(b.script.summaryCalls('g1')).toEqual([]);
    expect(b.engine.status().find((s) => s.gameId === 'g1')?.state).toBe('stopped');
  });

  it('writes back the final copy of a game finished just before the store lost it, not an older one', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    const busA = stallable(store.bus);
    const busB = stallable(store.bus);
    const { a, b, g } = await holderAndStandby(clock, busA.bus, busB.bus, { plays: 2 });
    // b takes the game over for a while and keeps a copy of it (2 plays more)...
    await bTakesOver(clock, busA, g, b);
    // ...then b stalls, a takes the game back from the store and finishes it.
    busB.stalled = true;
    busA.stalled = false;
    await clock.advance(12_000);
    g.plays = 5;
    g.state = 'post';
    await clock.advance(9_000);
    expect(a.engine.status().find((s) => s.gameId === 'g1')?.state).toBe('stopped');
    expect(a.events.map((e) => e.type)).toContain('game.ended');
    // Redis restarts empty within seconds of the end, while b's older copy is still kept.
    store.wipe();
    busB.stalled = false;
    await clock.advance(180_000);
    await expectOneHistory(store.inner(), [...a.events, ...b.events], 5);
    expect((await store.inner().loadGame({ league: 'mens', gameId: 'g1' }))?.meta).toMatchObject({
      ended: true,
    });
  });

  it('starts a game over only when its holder did not write the lost state back within twice the offer wait', async () => {
    const clock = new VirtualClock(START);
    const store = wipeableBus(clock);
    const dying: Bus = Object.create(store.bus, { releaseLease: { value: async () => {} } });
    const { a, b } = await holderAndStandby(clock, dying, store.bus, { plays: 2 });
    await a.engine.close();
    store.wipe();
    const lostAt = clock.now();
    await clock.advance(120_000);
    const first = b.script.summaryCalls('g1')[0] as number;
    // Twice the offer wait (2 x (two 3 s intervals + 4 s)) passes before b gives up waiting for a.
    expect(first - lostAt).toBeGreaterThanOrEqual(2 * 10_000);
    // Same history, same ids: a client that de-duplicates by id sees nothing twice.
    expect(b.events.map((e) => e.id)).toEqual(a.events.map((e) => e.id));
  });

  it("expires a finished game's state after finishedGameTtlMs, so the store does not grow all season", async () => {
    const { clock, script, engine, bus } = setup({ finishedGameTtlMs: 10 * MIN });
    const g = script.add({ id: 'g1', plays: 2 });
    script.add({ id: 'g2', plays: 1 });
    engine.start();
    await clock.advance(10_000);
    g.state = 'post';
    await clock.advance(MIN);
    expect((await bus.listGames()).map((x) => x.gameId).sort()).toEqual(['g1', 'g2']);
    await clock.advance(10 * MIN);
    // The finished game is gone; the one still live is kept however long it runs.
    expect((await bus.listGames()).map((x) => x.gameId)).toEqual(['g2']);
    expect(await engine.snapshots.snapshot('mens', 'g1')).toBeUndefined();
  });

  it('closes: releases leases, completes events$, stops polling', async () => {
    const { clock, script, engine, bus } = setup({ instanceId: 'x' });
    script.add({ id: 'g1', plays: 1 });
    let completed = false;
    engine.events$.subscribe({ complete: () => (completed = true) });
    engine.start();
    await clock.advance(5_000);
    await engine.close();
    expect(completed).toBe(true);
    expect(await bus.acquireLease({ league: 'mens', gameId: 'g1' }, 'other', 1_000)).toBe('taken');
    const count = script.calls.length;
    await clock.advance(60_000);
    expect(script.calls.length).toBe(count);
  });
});
