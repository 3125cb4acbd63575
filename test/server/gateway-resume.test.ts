import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/model/events.js';
import { createMemoryBus } from '../../src/bus/memory.js';
import { createRedisBus } from '../../src/bus/redis.js';
import { compareOffsets, type Bus } from '../../src/bus/types.js';
import { BusUnavailableError } from '../../src/core/errors.js';
import type { DaemonServer } from '../../src/server/server.js';
import { getTestRedis, type TestRedis } from '../support/redis.js';
import { commit, mapSnapshots, startServer, TestClient } from './gateway-harness.js';
import { game, makeEvent, makeSnapshot } from '../support/events.js';

const GAMES = [
  game('mens', '401', ['13', 'LAL'], ['2', 'BOS']),
  game('mens', '402', ['18', 'NY'], ['20', 'PHI']),
  game('womens', '501', ['17', 'LV'], ['9', 'NY']),
];

/** Deterministic pseudo-randomness, so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const redis = await getTestRedis();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await redis?.cleanup();
});

interface Backend {
  name: string;
  make(options?: { retention?: number }): Bus;
}

const backends: Backend[] = [{ name: 'memory', make: (o) => createMemoryBus(o) }];
if (redis) {
  backends.push({
    name: 'redis',
    make: (o) =>
      createRedisBus({
        url: (redis as TestRedis).url,
        prefix: `${(redis as TestRedis).prefix}${Math.random().toString(36).slice(2, 8)}:`,
        ...o,
      }),
  });
}

async function servers(bus: Bus, n: number, snapshots = mapSnapshots()): Promise<DaemonServer[]> {
  const list: DaemonServer[] = [];
  for (let i = 0; i < n; i++) list.push(await startServer({ bus, snapshots }));
  cleanups.push(async () => {
    for (const s of list) await s.close();
    await bus.close();
  });
  return list;
}

describe.each(backends)('resume with since ($name bus)', ({ make }) => {
  it('a random disconnect and resume (on either of two instances) yields no gap and no duplicate', async () => {
    const bus = make();
    const [a, b] = await servers(bus, 2);
    const random = rng(7);
    const committed: GameEvent[] = [];
    let producing = true;
    const producer = (async () => {
      for (let i = 0; i < 120; i++) {
        const g = GAMES[i % GAMES.length] as (typeof GAMES)[number];
        const batch = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
          makeEvent(g, random() < 0.5 ? 'play.added' : 'score.changed'),
        );
        committed.push(...(await commit(bus, g, batch)));
        await new Promise((resolve) => setTimeout(resolve, random() * 6));
      }
      producing = false;
    })();

    // The filter: men's league, plus any game with NY (a women's game).
    const filter = { leagues: ['mens', 'womens'], teams: ['NY', 'LAL'] };
    const received: GameEvent[] = [];
    let since: string | undefined;
    let startOffset: string | undefined;
    let reconnects = 0;
    while (producing || received.length === 0 || received.at(-1)?.offset !== lastMatching()) {
      const server = reconnects % 2 === 0 ? a : b;
      const c = await TestClient.connect((server as DaemonServer).url);
      const subscribed = await c.request(
        { op: 'subscribe', id: 'r', ...filter, ...(since ? { since } : {}) },
        (f) => f.type === 'subscribed' || f.type === 'error',
      );
      expect(subscribed.type).toBe('subscribed');
      startOffset ??= subscribed.offset as string;
      // Read for a random while, then drop the connection without a goodbye.
      await new Promise((resolve) => setTimeout(resolve, 20 + random() * 80));
      c.close();
      const events = c.events('r');
      received.push(...events.map(({ sub: _sub, ...e }) => e as GameEvent));
      if (events.length > 0) since = events.at(-1)?.offset;
      else since ??= startOffset;
      reconnects += 1;
      if (reconnects > 200) throw new Error('did not converge');
    }
    await producer;

    function lastMatching(): string | undefined {
      return committed.filter(matches).at(-1)?.offset;
    }
    function matches(e: GameEvent): boolean {
      return ['NY', 'LAL'].some((t) => e.teams.home.abbreviation === t || e.teams.away.abbreviation === t);
    }
    const expected = committed.filter(
      (e) => matches(e) && compareOffsets(e.offset as string, startOffset as string) > 0,
    );
    expect(reconnects).toBeGreaterThan(3);
    expect(received.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(new Set(received.map((e) => e.id)).size).toBe(received.length);
  });

  it('replays more than one page from the log, then continues live', async () => {
    const bus = make();
    const g = GAMES[0] as (typeof GAMES)[number];
    const before: GameEvent[] = [];
    for (let i = 0; i < 12; i++)
      before.push(
        ...(await commit(
          bus,
          g,
          Array.from({ length: 100 }, () => makeEvent(g)),
        )),
      );
    const [server] = await servers(bus, 1);
    const c = await TestClient.connect((server as DaemonServer).url);
    cleanups.push(() => c.close());
    await c.request({ op: 'subscribe', id: 'x', since: before[99]?.offset }, (f) => f.type === 'subscribed');
    const live = await commit(bus, g, [makeEvent(g), makeEvent(g)]);
    await c.next((f) => f.type === 'event' && (f.event as GameEvent).id === live[1]?.id, 20_000);
    expect(c.events().map((e) => e.id)).toEqual([...before.slice(100), ...live].map((e) => e.id));
  });
});

describe('resume_gap', () => {
  it('answers a since older than the retention with resume_gap, snapshots, the retained events, then live ones', async () => {
    const bus = createMemoryBus({ retention: 20 });
    const g = GAMES[0] as (typeof GAMES)[number];
    const old = await commit(
      bus,
      g,
      Array.from({ length: 50 }, () => makeEvent(g)),
    );
    const [server] = await servers(
      bus,
      1,
      mapSnapshots([makeSnapshot(g), makeSnapshot(GAMES[2] as (typeof GAMES)[number])]),
    );
    const c = await TestClient.connect((server as DaemonServer).url);
    cleanups.push(() => c.close());
    c.send({ op: 'subscribe', id: 'g', leagues: ['mens'], since: old[5]?.offset });
    const gap = await c.next((f) => f.type === 'error');
    expect(gap).toMatchObject({ code: 'resume_gap', id: 'g' });
    expect(gap.message as string).toMatch(/no longer retained/);
    const snap = await c.next((f) => f.type === 'snapshot');
    expect(snap).toMatchObject({ sub: 'g', game: { gameId: g.gameId } });
    // The 20 events the log still retains follow the snapshot; the 25 trimmed ones are the gap.
    const retained = old.slice(-20).map((e) => e.id);
    await c.next(() => c.events().length === 20);
    expect(c.events().map((e) => e.id)).toEqual(retained);
    const [live] = await commit(bus, g, [makeEvent(g)]);
    await c.next(() => c.events().length === 21);
    expect(c.events().map((e) => e.id)).toEqual([...retained, live?.id]);
    expect(c.frames.map((f) => f.type).slice(0, 4)).toEqual(['welcome', 'subscribed', 'error', 'snapshot']);

    // An offset from the future (a reset log) is a gap too.
    c.send({ op: 'subscribe', id: 'h', since: '999999999999999-0' });
    expect(await c.next((f) => f.type === 'error' && f.id === 'h')).toMatchObject({ code: 'resume_gap' });
    expect(c.closed).toBeUndefined();
  });
});

describe('a bus that is briefly unavailable during setup', () => {
  it('retries the setup reads instead of failing the subscription', async () => {
    const inner = createMemoryBus();
    const g = GAMES[0] as (typeof GAMES)[number];
    const before = await commit(inner, g, [makeEvent(g), makeEvent(g)]);
    let failing = 0;
    let failures = 0;
    // Redis restarting: the subscription's first reads of the log fail, then it answers again.
    const flaky: Bus = Object.create(inner, {
      bounds: {
        value: async () => {
          if (failing-- > 0 && ++failures)
            throw new BusUnavailableError('bounds', { cause: new Error('ECONNREFUSED') });
          return inner.bounds();
        },
      },
    });
    const [server] = await servers(flaky, 1);
    const c = await TestClient.connect((server as DaemonServer).url);
    cleanups.push(() => c.close());
    failing = 2;
    c.send({ op: 'subscribe', id: 's', since: before[0]?.offset });
    await c.next(() => c.events().length === 1);
    expect(failures).toBe(2);
    expect(c.events().map((e) => e.id)).toEqual([before[1]?.id]);
    expect(c.frames.some((f) => f.type === 'error')).toBe(false);
  });
});

describe('a resume among the events the instance dispatched lately', () => {
  it('is replayed from memory without reading the log, and from the log again once the store lost its data', async () => {
    const inner = createMemoryBus();
    let reads = 0;
    const lost = new Set<() => void>();
    const bus: Bus = Object.create(inner, {
      read: {
        value: (after: string | null, limit: number) => {
          reads += 1;
          return inner.read(after, limit);
        },
      },
      // The memory bus never loses data; this one is told to, as a Redis restarted empty would be.
      onDataLost: {
        value: (listener: () => void) => {
          lost.add(listener);
          return () => lost.delete(listener);
        },
      },
    });
    const [server] = await servers(bus, 1);
    const url = (server as DaemonServer).url;
    const g = GAMES[0] as (typeof GAMES)[number];
    const watcher = await TestClient.connect(url);
    cleanups.push(() => watcher.close());
    await watcher.request({ op: 'subscribe', id: 'w' }, (f) => f.type === 'subscribed');
    const logged = await commit(
      bus,
      g,
      Array.from({ length: 10 }, () => makeEvent(g)),
    );
    // Once the watcher has them, the live feed has dispatched them.
    await watcher.next(() => watcher.events().length === 10);

    const resume = async (): Promise<string[]> => {
      const c = await TestClient.connect(url);
      cleanups.push(() => c.close());
      await c.request({ op: 'subscribe', id: 'r', since: logged[3]?.offset }, (f) => f.type === 'subscribed');
      await c.next(() => c.events().length === 6);
      return c.events().map((e) => e.id);
    };
    const expected = logged.slice(4).map((e) => e.id);
    expect(await resume()).toEqual(expected);
    expect(reads).toBe(0);

    for (const listener of lost) listener();
    expect(await resume()).toEqual(expected);
    expect(reads).toBeGreaterThan(0);
  });
});
