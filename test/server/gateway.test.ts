import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { clientsDropped, framesSent } from '../../src/core/metrics.js';
import type { DaemonServer } from '../../src/server/server.js';
import { commit, mapSnapshots, startServer, TestClient, until } from './gateway-harness.js';
import { game, makeEvent, makeSnapshot } from '../support/events.js';

const LAL = game('mens', '401', ['13', 'LAL'], ['2', 'BOS']);
const NYK = game('mens', '402', ['18', 'NY'], ['20', 'PHI']);
const LVA = game('womens', '501', ['17', 'LV'], ['9', 'NY']);

let bus: Bus;
let server: DaemonServer;
const clients: TestClient[] = [];

async function connect(url = server.url, options = {}): Promise<TestClient> {
  const c = await TestClient.connect(url, options);
  clients.push(c);
  return c;
}

async function droppedCount(reason: string): Promise<number> {
  const metric = await clientsDropped.get();
  return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

async function framesSentCount(): Promise<number> {
  const metric = await framesSent.get();
  return metric.values.find((v) => v.labels.kind === 'ws')?.value ?? 0;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  await bus?.close();
});

describe('WebSocket gateway protocol', () => {
  it('welcomes, subscribes, streams events, answers ping and unsubscribes', async () => {
    bus = createMemoryBus();
    await commit(bus, LAL, [makeEvent(LAL)]);
    server = await startServer({ bus, heartbeatMs: 5_000 });
    const c = await connect();
    const welcome = c.frames[0];
    expect(welcome).toMatchObject({ type: 'welcome', heartbeatMs: 5_000, retention: bus.retention });
    expect(welcome?.limits).toMatchObject({
      maxSubscriptions: 20,
      maxFilterValues: 100,
      maxDelaySeconds: 300,
    });
    expect(typeof welcome?.version).toBe('string');

    const subscribed = await c.request({ op: 'subscribe', id: 'all' }, (f) => f.type === 'subscribed');
    const bounds = await bus.bounds();
    expect(subscribed).toEqual({ type: 'subscribed', id: 'all', offset: bounds.last });

    const [e1, e2] = await commit(bus, LAL, [makeEvent(LAL), makeEvent(LAL, 'play.added')]);
    await c.next((f) => f.type === 'event' && (f.event as { id: string }).id === e2?.id);
    expect(c.events()).toEqual([
      { ...e1, sub: 'all' },
      { ...e2, sub: 'all' },
    ]);
    expect(await c.request({ op: 'ping' }, (f) => f.type === 'pong')).toEqual({ type: 'pong' });

    expect(await c.request({ op: 'unsubscribe', id: 'all' }, (f) => f.type === 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      id: 'all',
    });
    await commit(bus, LAL, [makeEvent(LAL)]);
    await c.request({ op: 'ping' }, (f) => f.type === 'pong');
    expect(c.events()).toHaveLength(2);
    expect(server.stats()).toMatchObject({ wsConnections: 1, subscriptions: 0 });
    // welcome, subscribed, 2 events, pong, unsubscribed, pong.
    expect(server.stats().framesSent).toBe(7);
    expect(await framesSentCount()).toBeGreaterThanOrEqual(7);
  });

  it('answers every malformed message with an error naming the problem, and stays up', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, limits: { maxSubscriptions: 2, maxFilterValues: 3 } });
    const c = await connect();
    await c.request({ op: 'subscribe', id: 'a' }, (f) => f.type === 'subscribed');
    const cases: Array<[unknown, string, RegExp]> = [
      ['{not json', 'invalid_json', /not JSON/],
      ['[1,2]', 'invalid_message', /JSON object/],
      ['"subscribe"', 'invalid_message', /JSON object/],
      ['null', 'invalid_message', /JSON object/],
      [{ op: 'dance' }, 'unknown_op', /"dance"/],
      [{ id: 'x' }, 'unknown_op', /no "op"/],
      [{ op: 42 }, 'unknown_op', /42/],
      [{ op: 'subscribe' }, 'invalid_message', /"id" is required/],
      [{ op: 'subscribe', id: 7 }, 'invalid_message', /id 7/],
      [{ op: 'subscribe', id: 'b', leagues: 'mens' }, 'invalid_message', /leagues "mens"/],
      [
        { op: 'subscribe', id: 'b', leagues: ['nfl'] },
        'unknown_league',
        /unknown league "nfl" in leagues\[0\]/,
      ],
      [
        { op: 'subscribe', id: 'b', types: ['play.added', 'goal'] },
        'unknown_event_type',
        /"goal" in types\[1\]/,
      ],
      [
        { op: 'subscribe', id: 'b', games: ['1', '2', '3', '4'] },
        'too_many_filters',
        /games lists 4 values; at most 3/,
      ],
      [{ op: 'subscribe', id: 'b', teams: ['LAL', 'not a team!'] }, 'invalid_message', /teams\[1\]/],
      [{ op: 'subscribe', id: 'b', games: [] }, 'invalid_message', /games/],
      [{ op: 'subscribe', id: 'b', since: 'yesterday' }, 'invalid_since', /since "yesterday"/],
      [{ op: 'subscribe', id: 'b', since: 12 }, 'invalid_since', /since 12/],
      [{ op: 'subscribe', id: 'b', since: '1234567890123456-0' }, 'invalid_since', /offset/],
      [{ op: 'subscribe', id: 'b', delay: 301 }, 'invalid_message', /delay 301.*0 to 300/],
      [{ op: 'subscribe', id: 'b', delay: 1.5 }, 'invalid_message', /delay 1.5/],
      ['{"op":"subscribe","id":"b","delay":1e400}', 'invalid_message', /delay/],
      [{ op: 'subscribe', id: 'b', snapshot: 'yes' }, 'invalid_message', /snapshot "yes"/],
      [{ op: 'subscribe', id: 'b', colour: 'red' }, 'invalid_message', /unknown field "colour"/],
      ['{"op":"subscribe","id":"b","__proto__":{"x":1}}', 'invalid_message', /"__proto__"/],
      [{ op: 'subscribe', id: 'a' }, 'duplicate_subscription', /"a" is already in use/],
      [{ op: 'unsubscribe', id: 'zzz' }, 'unknown_subscription', /"zzz"/],
      [{ op: 'unsubscribe' }, 'invalid_message', /"id" is required/],
      [{ op: 'ping', extra: true }, 'invalid_message', /unknown field "extra"/],
    ];
    for (const [message, code, text] of cases) {
      const from = c.frames.length;
      c.send(message);
      const reply = await c.next((f) => f.type === 'error', 10_000, from);
      expect({ message, code: reply.code }).toEqual({ message, code });
      expect(reply.message as string).toMatch(text);
    }
    // The subscription limit: one more fits, the next is refused.
    await c.request({ op: 'subscribe', id: 'b' }, (f) => f.type === 'subscribed');
    const refused = await c.request({ op: 'subscribe', id: 'c' }, (f) => f.type === 'error');
    expect(refused).toMatchObject({ code: 'too_many_subscriptions', id: 'c' });
    const binaryFrom = c.frames.length;
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await c.next((f) => f.type === 'error', 10_000, binaryFrom)).toMatchObject({
      code: 'invalid_message',
    });
    // Still up, still subscribed.
    expect(await c.request({ op: 'ping' }, (f) => f.type === 'pong')).toEqual({ type: 'pong' });
    expect(c.closed).toBeUndefined();
    const [e] = await commit(bus, LAL, [makeEvent(LAL)]);
    await c.next((f) => f.type === 'event' && f.sub === 'b');
    expect(c.events('a').map((x) => x.id)).toEqual([e?.id]);
  });

  it('closes a connection whose message exceeds the size limit with 1009', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, limits: { maxMessageBytes: 1024 } });
    const c = await connect();
    c.send({ op: 'subscribe', id: 'x'.repeat(2000) });
    expect((await c.waitClosed()).code).toBe(1009);
  });

  it('filters by league, game, team id or abbreviation, and type', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    const c = await connect();
    const subs = {
      womens: { leagues: ['womens'] },
      game402: { games: ['402'] },
      lal: { teams: ['lal'] },
      team9: { teams: ['9'] },
      ny: { teams: ['NY'] },
      nyMens: { teams: ['NY'], leagues: ['mens'] },
      plays: { types: ['play.added'] },
      lalPlays: { teams: ['BOS'], types: ['play.added', 'game.ended'] },
    };
    for (const [id, filter] of Object.entries(subs)) {
      await c.request({ op: 'subscribe', id, ...filter }, (f) => f.type === 'subscribed' && f.id === id);
    }
    const all = [
      ...(await commit(bus, LAL, [makeEvent(LAL), makeEvent(LAL, 'play.added')])),
      ...(await commit(bus, NYK, [makeEvent(NYK, 'play.added'), makeEvent(NYK)])),
      ...(await commit(bus, LVA, [makeEvent(LVA, 'game.ended'), makeEvent(LVA, 'play.added')])),
    ];
    await c.request({ op: 'ping' }, (f) => f.type === 'pong');
    await until(() => c.events().length >= 14, 10_000, 'events');
    await c.request({ op: 'ping' }, (f) => f.type === 'pong');
    const ids = (sub: string) => c.events(sub).map((e) => e.id);
    const expected = (pred: (e: (typeof all)[number]) => boolean) => all.filter(pred).map((e) => e.id);
    expect(ids('womens')).toEqual(expected((e) => e.league === 'womens'));
    expect(ids('game402')).toEqual(expected((e) => e.gameId === '402'));
    expect(ids('lal')).toEqual(expected((e) => e.gameId === '401'));
    expect(ids('team9')).toEqual(expected((e) => e.gameId === '501'));
    expect(ids('ny')).toEqual(expected((e) => e.gameId === '402' || e.gameId === '501'));
    expect(ids('nyMens')).toEqual(expected((e) => e.gameId === '402'));
    expect(ids('plays')).toEqual(expected((e) => e.type === 'play.added'));
    expect(ids('lalPlays')).toEqual(expected((e) => e.gameId === '401' && e.type === 'play.added'));
  });

  it('sends a snapshot of each matching live game before its events', async () => {
    bus = createMemoryBus();
    const snapshots = mapSnapshots([makeSnapshot(LAL), makeSnapshot(NYK, 'post'), makeSnapshot(LVA)]);
    server = await startServer({ bus, snapshots });
    const c = await connect();
    await c.request(
      { op: 'subscribe', id: 'm', leagues: ['mens'], snapshot: true },
      (f) => f.type === 'snapshot',
    );
    await commit(bus, LAL, [makeEvent(LAL)]);
    await c.next((f) => f.type === 'event');
    const kinds = c.frames
      .slice(1)
      .map((f) => `${f.type}:${(f.game as { gameId?: string } | undefined)?.gameId ?? ''}`);
    // Only the live men's game; the finished one is not "live" and the women's does not match.
    expect(kinds).toEqual(['subscribed:', 'snapshot:401', 'event:']);
    expect(c.frames[2]).toMatchObject({ type: 'snapshot', sub: 'm', game: { gameId: '401', state: 'in' } });
    // Naming a game sends it whatever its state.
    const s2 = await c.request(
      { op: 'subscribe', id: 'g', games: ['402'], snapshot: true },
      (f) => f.type === 'snapshot',
    );
    expect(s2).toMatchObject({ sub: 'g', game: { gameId: '402', state: 'post' } });
  });

  it('holds a delayed subscription back by the asked time', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    const c = await connect();
    await c.request({ op: 'subscribe', id: 'now' }, (f) => f.type === 'subscribed');
    await c.request({ op: 'subscribe', id: 'late', delay: 1 }, (f) => f.type === 'subscribed');
    const sent = Date.now();
    const [e] = await commit(bus, LAL, [makeEvent(LAL)]);
    await c.next((f) => f.type === 'event' && f.sub === 'now');
    const quick = Date.now() - sent;
    await c.next((f) => f.type === 'event' && f.sub === 'late', 10_000);
    const held = Date.now() - sent;
    // The undelayed copy came first and well before the delayed one (generous: the machine is shared).
    expect(quick).toBeLessThan(held - 500);
    // Measured on the client: at least the delay (less a little for the offset's ms rounding).
    expect(held).toBeGreaterThanOrEqual(990);
    expect(held).toBeLessThan(6_000);
    expect(c.events('late').map((x) => x.id)).toEqual([e?.id]);
  });

  it('sends replayed events older than the delay at once (delay runs from when an event was logged)', async () => {
    bus = createMemoryBus();
    const logged = await commit(bus, LAL, [makeEvent(LAL), makeEvent(LAL)]);
    // The server's clock reads a minute later: the logged events are a minute old to it.
    server = await startServer({ bus, clock: { now: () => Date.now() + 60_000 } });
    const c = await connect();
    const started = Date.now();
    await c.request({ op: 'subscribe', id: 'd', delay: 30, since: '0-0' }, (f) => f.type === 'subscribed');
    await c.next((f) => f.type === 'event' && (f.event as { id: string }).id === logged[1]?.id);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(c.events().map((e) => e.id)).toEqual(logged.map((e) => e.id));
  });

  it('pings clients and drops a peer silent for two heartbeat intervals', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, heartbeatMs: 300 });
    const silent = await connect(server.url, { autoPong: false });
    const healthy = await connect();
    let pings = 0;
    healthy.ws.on('ping', () => (pings += 1));
    const closed = await silent.waitClosed(10_000);
    // Terminated without a close frame: the peer is gone, there is nobody to tell.
    expect(closed.code).toBe(1006);
    await until(() => pings >= 3, 10_000, 'pings');
    expect(healthy.closed).toBeUndefined();
    expect(server.stats().wsConnections).toBe(1);
  });

  it('closes a slow consumer with slow_consumer and 4000, keeping server memory bounded', async () => {
    bus = createMemoryBus();
    const limit = 256 * 1024;
    server = await startServer({ bus, limits: { maxBufferedBytes: limit } });
    const slow = await connect();
    const fast = await connect();
    await slow.request({ op: 'subscribe', id: 's' }, (f) => f.type === 'subscribed');
    await fast.request({ op: 'subscribe', id: 'f' }, (f) => f.type === 'subscribed');
    // Stop reading: the kernel buffers fill, then the server's socket buffer grows.
    (slow.ws as unknown as { _socket: Socket })._socket.pause();
    let committed = 0;
    for (let i = 0; i < 400 && server.stats().wsConnections === 2; i++) {
      await commit(
        bus,
        LAL,
        Array.from({ length: 10 }, () => makeEvent(LAL, 'score.changed', 4_000)),
      );
      committed += 10;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => server.stats().wsConnections === 1, 10_000, 'slow client dropped');
    expect(committed).toBeLessThan(4_000);
    const rss = process.memoryUsage().rss;
    (slow.ws as unknown as { _socket: Socket })._socket.resume();
    const closed = await slow.waitClosed();
    expect(closed.code).toBe(4000);
    expect(slow.frames.at(-1)).toMatchObject({ type: 'error', code: 'slow_consumer' });
    // The fast client got everything.
    await until(() => fast.events().length === committed, 10_000, 'fast client caught up');
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
  });

  it('counts frames held for a spoiler delay toward the buffered-bytes limit', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, limits: { maxBufferedBytes: 64 * 1024 } });
    const c = await connect();
    await c.request({ op: 'subscribe', id: 'late', delay: 300 }, (f) => f.type === 'subscribed');
    const dropped = await droppedCount('slow_consumer');
    // ~20 events of 4 KB: more than 64 KiB held for 300 s, while the socket itself is idle.
    for (let i = 0; i < 20 && !c.closed; i++)
      await commit(bus, LAL, [makeEvent(LAL, 'score.changed', 4_000)]);
    expect((await c.waitClosed()).code).toBe(4000);
    expect(c.frames.at(-1)).toMatchObject({ type: 'error', code: 'slow_consumer' });
    expect(c.events()).toEqual([]);
    expect(await droppedCount('slow_consumer')).toBe(dropped + 1);
  });

  it('closes clients with 1001 on close()', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    const a = await connect();
    const b = await connect();
    const started = Date.now();
    await server.close();
    await server.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await a.waitClosed()).code).toBe(1001);
    expect((await b.waitClosed()).code).toBe(1001);
  });
});

describe('WebSocket gateway access', () => {
  it('refuses an upgrade without a valid token with 401, accepts header or ?token=', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, tokens: ['s3cret', 'other'] });
    await expect(TestClient.connect(server.url)).rejects.toThrow('HTTP 401');
    await expect(TestClient.connect(`${server.url}/v1/stream?token=nope`)).rejects.toThrow('HTTP 401');
    await expect(
      TestClient.connect(server.url, { headers: { authorization: 'Bearer s3cretX' } }),
    ).rejects.toThrow('HTTP 401');
    const byHeader = await connect(server.url, { headers: { authorization: 'Bearer s3cret' } });
    const byQuery = await connect(`${server.url}/v1/stream?token=other`);
    expect(byHeader.frames[0]?.type).toBe('welcome');
    expect(byQuery.frames[0]?.type).toBe('welcome');
  });

  it('refuses a browser origin outside the allow-list with 403', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, origins: ['https://ok.example'] });
    await expect(TestClient.connect(server.url, { origin: 'https://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
    expect((await connect(server.url, { origin: 'https://ok.example' })).frames[0]?.type).toBe('welcome');
    // Non-browser clients send no Origin.
    expect((await connect()).frames[0]?.type).toBe('welcome');
  });

  it('refuses connections above the limit with 503', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, limits: { maxConnections: 2 } });
    await connect();
    const second = await connect();
    await expect(TestClient.connect(server.url)).rejects.toThrow('HTTP 503');
    second.close();
    await until(() => server.stats().wsConnections === 1, 10_000, 'slot freed');
    expect((await connect()).frames[0]?.type).toBe('welcome');
  });
});
