import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import type { GameEvent, TeamRef } from '../../src/model/events.js';
import type { DaemonServer } from '../../src/server/server.js';
import { commit, mapSnapshots, SseClient, startServer, TestClient, until } from './gateway-harness.js';
import { makeEvent, makeSnapshot } from '../support/events.js';

/** Filters by conference and by rank, over a real socket (SSE and WebSocket). */

const team = (id: string, abbreviation: string, rank: number | null, conference: string): TeamRef => ({
  id,
  abbreviation,
  rank,
  conference: { id: conference, name: null },
});
// #11 Duke (ACC) hosts #1 Kansas (Big 12); two unranked SEC teams; unranked Wake Forest (ACC)
// hosts unranked Saint Louis (Atlantic 10).
const RANKED_ACC = {
  league: 'mens-college' as const,
  gameId: '601',
  home: team('150', 'DUKE', 11, '2'),
  away: team('2305', 'KU', 1, '8'),
};
const SEC = {
  league: 'mens-college' as const,
  gameId: '602',
  home: team('99', 'LSU', null, '23'),
  away: team('61', 'UGA', null, '23'),
};
const ACC = {
  league: 'mens-college' as const,
  gameId: '603',
  home: team('154', 'WAKE', null, '2'),
  away: team('139', 'SLU', null, '3'),
};

let bus: Bus;
let server: DaemonServer;
const closers: Array<() => void> = [];

afterEach(async () => {
  for (const c of closers.splice(0)) c();
  await server?.close();
  await bus?.close();
});

async function start(): Promise<void> {
  bus = createMemoryBus();
  server = await startServer({
    bus,
    snapshots: mapSnapshots([makeSnapshot(RANKED_ACC), makeSnapshot(SEC), makeSnapshot(ACC)]),
  });
}

const gamesOf = (events: GameEvent[]): string[] => [...new Set(events.map((e) => e.gameId))].sort();

describe('stream filters by conference and rank', () => {
  it('SSE: conferences by either team, ranked by either team, snapshots included', async () => {
    await start();
    const open = (query: string) => {
      const c = new SseClient(`${server.url}/v1/stream/sse?${query}`);
      closers.push(() => c.close());
      return c;
    };
    const acc = open('conferences=2&snapshot=1');
    const ranked = open('ranked=1&snapshot=1');
    const both = open('conferences=23,8&ranked=1');
    for (const c of [acc, ranked, both]) expect(await c.status()).toBe(200);
    await until(() => server.stats().sseConnections === 3, 10_000, 'registered');
    for (const g of [RANKED_ACC, SEC, ACC]) await commit(bus, g, [makeEvent(g)]);
    await until(() => acc.events().length === 2 && ranked.events().length === 1, 10_000, 'events');
    await until(() => both.events().length === 1, 10_000, 'events of both');
    const parsed = (c: SseClient) => c.events().map((m) => JSON.parse(m.data ?? '{}') as GameEvent);
    expect(gamesOf(parsed(acc))).toEqual(['601', '603']);
    expect(gamesOf(parsed(ranked))).toEqual(['601']);
    // Kansas is in the Big 12 and ranked: the one game of 8 or 23 with a ranked team.
    expect(gamesOf(parsed(both))).toEqual(['601']);
    const snapshots = (c: SseClient) =>
      c
        .messages()
        .filter((m) => m.event === 'snapshot')
        .map((m) => (JSON.parse(m.data ?? '{}') as { gameId: string }).gameId)
        .sort();
    expect(snapshots(acc)).toEqual(['601', '603']);
    expect(snapshots(ranked)).toEqual(['601']);
  });

  it('WebSocket: the same filters in a subscribe message', async () => {
    await start();
    const ws = await TestClient.connect(`${server.url.replace('http', 'ws')}/v1/stream`);
    closers.push(() => ws.close());
    await ws.request({ op: 'subscribe', id: 'sec', conferences: ['23'] }, (f) => f.type === 'subscribed');
    await ws.request({ op: 'subscribe', id: 'top', ranked: true }, (f) => f.type === 'subscribed');
    for (const g of [RANKED_ACC, SEC, ACC]) await commit(bus, g, [makeEvent(g)]);
    await until(() => ws.events('sec').length === 1 && ws.events('top').length === 1, 10_000, 'events');
    expect(gamesOf(ws.events('sec'))).toEqual(['602']);
    expect(gamesOf(ws.events('top'))).toEqual(['601']);
    const bad = await ws.request({ op: 'subscribe', id: 'x', ranked: 'yes' }, (f) => f.type === 'error');
    expect(bad).toMatchObject({ code: 'invalid_message', message: expect.stringMatching(/ranked "yes"/) });
    const acc = await ws.request(
      { op: 'subscribe', id: 'y', conferences: ['ACC'] },
      (f) => f.type === 'error',
    );
    expect(acc).toMatchObject({
      code: 'invalid_message',
      message: expect.stringMatching(/conferences\[0\] "ACC"/),
    });
  });

  it('SSE: refuses a bad conference or ranked value with a 400 naming it', async () => {
    await start();
    for (const [query, message] of [
      ['conferences=acc', /conferences\[0\] "acc".*conference id/],
      ['ranked=maybe', /ranked "maybe"/],
    ] as const) {
      const res = await fetch(`${server.url}/v1/stream/sse?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.message).toMatch(message);
    }
  });
});
