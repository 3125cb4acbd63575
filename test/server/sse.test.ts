import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/model/events.js';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import type { DaemonServer } from '../../src/server/server.js';
import { commit, mapSnapshots, SseClient, startServer, until, type SseMessage } from './gateway-harness.js';
import { game, makeEvent, makeSnapshot } from '../support/events.js';

const LAL = game('mens', '401', ['13', 'LAL'], ['2', 'BOS']);
const LVA = game('womens', '501', ['17', 'LV'], ['9', 'NY']);

let bus: Bus;
let server: DaemonServer;
const clients: SseClient[] = [];
const sse = (path: string, headers?: Record<string, string>): SseClient => {
  const c = new SseClient(`${server.url}${path}`, headers);
  clients.push(c);
  return c;
};

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  await bus?.close();
});

describe('SSE at /v1/stream/sse', () => {
  it('streams matching events as id/event/data, with a snapshot first', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, snapshots: mapSnapshots([makeSnapshot(LAL), makeSnapshot(LVA)]) });
    const c = sse('/v1/stream/sse?leagues=mens&types=score.changed,play.added&snapshot=1');
    expect(await c.status()).toBe(200);
    expect(c.res?.headers['content-type']).toMatch(/^text\/event-stream/);
    await until(() => c.messages().some((m) => m.event === 'snapshot'), 10_000, 'snapshot');
    await until(() => server.stats().sseConnections === 1, 10_000, 'registered');
    const men = await commit(bus, LAL, [
      makeEvent(LAL),
      makeEvent(LAL, 'game.status'),
      makeEvent(LAL, 'play.added'),
    ]);
    await commit(bus, LVA, [makeEvent(LVA)]);
    await until(() => c.events().length === 2, 10_000, 'events');
    const snapshot = c.messages().find((m) => m.event === 'snapshot');
    expect(JSON.parse(snapshot?.data ?? '{}')).toMatchObject({ gameId: '401' });
    const events = c.events();
    expect(events.map((m) => [m.id, m.event])).toEqual([
      [men[0]?.offset, 'score.changed'],
      [men[2]?.offset, 'play.added'],
    ]);
    expect(JSON.parse(events[0]?.data ?? '{}')).toEqual(men[0]);
    expect(c.messages()[0]?.comment).toMatch(/^courtside /);
  });

  it('resumes from Last-Event-ID (or ?since=) with no gap and no duplicate', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    const first = sse('/v1/stream/sse?games=401');
    await first.status();
    await until(() => server.stats().sseConnections === 1, 10_000, 'registered');
    const batch1 = await commit(
      bus,
      LAL,
      Array.from({ length: 5 }, () => makeEvent(LAL)),
    );
    await until(() => first.events().length === 5, 10_000, 'first events');
    const lastId = first.events().at(-1)?.id as string;
    first.close();
    const missed = await commit(
      bus,
      LAL,
      Array.from({ length: 4 }, () => makeEvent(LAL)),
    );
    const resumed = sse('/v1/stream/sse?games=401', { 'last-event-id': lastId });
    await resumed.status();
    await until(() => resumed.events().length === 4, 10_000, 'replayed events');
    const live = await commit(bus, LAL, [makeEvent(LAL)]);
    await until(() => resumed.events().length === 5, 10_000, 'live event');
    const ids = (ms: SseMessage[]) => ms.map((m) => (JSON.parse(m.data ?? '{}') as GameEvent).id);
    expect(ids(first.events())).toEqual(batch1.map((e) => e.id));
    expect(ids(resumed.events())).toEqual([...missed, ...live].map((e) => e.id));

    const bySince = sse(`/v1/stream/sse?games=401&since=${batch1[2]?.offset}`);
    await until(() => bySince.events().length === 7, 10_000, 'since replay');
    expect(bySince.events().map((m) => m.id)).toEqual(
      [...batch1.slice(3), ...missed, ...live].map((e) => e.offset),
    );
  });

  it('sends heartbeat comments', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, heartbeatMs: 100 });
    const c = sse('/v1/stream/sse');
    await until(
      () => c.messages().filter((m) => m.comment === 'heartbeat').length >= 2,
      10_000,
      'heartbeats',
    );
  });

  it('refuses bad filters with a 400 JSON error naming the problem', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    const cases: Array<[string, string, RegExp]> = [
      ['leagues=nfl', 'unknown_league', /"nfl"/],
      ['types=goal', 'unknown_event_type', /"goal"/],
      ['since=yesterday', 'invalid_since', /yesterday/],
      ['delay=999', 'invalid_message', /delay 999/],
      ['delay=soon', 'invalid_message', /delay "soon"/],
      ['snapshot=maybe', 'invalid_message', /snapshot "maybe"/],
      [`games=${Array.from({ length: 101 }, (_, i) => i).join(',')}`, 'too_many_filters', /101 values/],
    ];
    for (const [query, code, message] of cases) {
      const res = await fetch(`${server.url}/v1/stream/sse?${query}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(code);
      expect(body.error.message).toMatch(message);
    }
    const post = await fetch(`${server.url}/v1/stream/sse`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('drops a stream that does not read with slow_consumer', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, limits: { maxBufferedBytes: 128 * 1024 } });
    const c = sse('/v1/stream/sse');
    await c.status();
    await until(() => server.stats().sseConnections === 1, 10_000, 'registered');
    c.res?.pause();
    for (let i = 0; i < 400 && server.stats().sseConnections === 1; i++) {
      await commit(
        bus,
        LAL,
        Array.from({ length: 10 }, () => makeEvent(LAL, 'score.changed', 4_000)),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => server.stats().sseConnections === 0, 10_000, 'dropped');
    c.res?.resume();
    await until(() => c.ended, 10_000, 'stream ended');
    expect(c.messages().at(-1)).toMatchObject({ event: 'error' });
    expect(JSON.parse(c.messages().at(-1)?.data ?? '{}')).toMatchObject({ code: 'slow_consumer' });
  });

  it('ends SSE streams on close()', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    const c = sse('/v1/stream/sse');
    await c.status();
    await server.close();
    await until(() => c.ended, 10_000, 'stream ended');
  });

  const haveCurl = spawnSync('curl', ['--version']).status === 0;
  it.skipIf(!haveCurl)('works with curl -N', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, tokens: ['tok'] });
    const curl = spawn('curl', [
      '-sN',
      '-H',
      'Authorization: Bearer tok',
      `${server.url}/v1/stream/sse?leagues=mens`,
    ]);
    let out = '';
    curl.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    try {
      await until(() => server.stats().sseConnections === 1, 10_000, 'curl connected');
      const [e] = await commit(bus, LAL, [makeEvent(LAL)]);
      await until(
        () => out.includes(`id: ${e?.offset}\nevent: score.changed\ndata: {`),
        10_000,
        'curl output',
      );
    } finally {
      curl.kill();
    }
  });
});
