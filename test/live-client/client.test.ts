import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import type { DaemonServer } from '../../src/server/server.js';
import {
  backoffMs,
  connect,
  LiveClientError,
  type LiveClient,
  type GameEvent,
  type StateChange,
  type SubscriptionMessage,
} from '../../src/live-client/courtside.js';
import { commit, mapSnapshots, startServer } from '../server/gateway-harness.js';
import { game, makeEvent, makeSnapshot } from '../support/events.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The client library on real sockets against the daemon's server (memory bus, port 0): duplicates,
 * a silent connection, a resume gap, refusals, the end of subscriptions, and bad input.
 */
const G = game('mens', '401000001', ['13', 'LAL'], ['2', 'BOS']);

describe('client library', () => {
  let bus: Bus;
  let server: DaemonServer | undefined;
  let proxy: TcpProxy | undefined;
  let client: LiveClient | undefined;
  afterEach(async () => {
    await client?.close();
    await proxy?.close();
    await server?.close();
    await bus?.close();
    client = proxy = server = undefined;
  });

  async function start(options: Parameters<typeof startServer>[0] extends infer O ? Partial<O> : never = {}) {
    bus = createMemoryBus();
    server = await startServer({ bus, ...options });
    return server;
  }

  it('delivers an event whose id it already delivered only once (a re-emission after a restart)', async () => {
    await start();
    client = connect(server!.url);
    const sub = client.subscribe({ games: [G.gameId] });
    const got: GameEvent[] = [];
    sub.on('event', (e) => got.push(e));
    await waitFor(() => sub.active, 5_000, 'subscribed');
    const first = makeEvent(G, 'score.changed', 0, 1);
    await commit(bus, G, [first]);
    await commit(bus, G, [makeEvent(G, 'score.changed', 0, 2)]);
    // The same event again, as an instance re-emitting from an older copy logs it: same id, new offset.
    await commit(bus, G, [{ ...first, seq: 3 }]);
    await commit(bus, G, [makeEvent(G, 'score.changed', 0, 4)]);
    await waitFor(() => got.length >= 3 && sub.stats.duplicates === 1, 5_000, 'the events');
    expect(got.map((e) => e.seq)).toEqual([1, 2, 4]);
    expect(sub.stats).toMatchObject({ events: 3, duplicates: 1 });
    // The duplicate still moved the resume point: a reconnect does not ask for it again.
    expect(sub.since).toBe(got.at(-1)?.offset);
  });

  it('treats a connection silent for twice the heartbeat as dead, and resumes after it', async () => {
    await start({ heartbeatMs: 200 });
    proxy = await startTcpProxy(Number(new URL(server!.url).port));
    client = connect(proxy.url, { retry: { minMs: 20, maxMs: 100 } });
    const states: StateChange[] = [];
    client.on('state', (s) => states.push(s));
    const sub = client.subscribe({ games: [G.gameId] });
    const got: GameEvent[] = [];
    sub.on('event', (e) => got.push(e));
    await waitFor(() => sub.active, 5_000, 'subscribed');
    expect(client.welcome?.heartbeatMs).toBe(200);
    await commit(bus, G, [makeEvent(G, 'score.changed', 0, 1)]);
    await waitFor(() => got.length === 1, 5_000, 'the first event');

    const frozenAt = Date.now();
    proxy.freeze();
    await waitFor(() => states.some((s) => s.code === 'heartbeat_timeout'), 5_000, 'the heartbeat to fire');
    const noticed = Date.now() - frozenAt;
    // Dead once nothing was heard for twice the interval (counted from the last frame, which may
    // precede the freeze), checked every quarter interval: well under 2 s on a loaded machine.
    expect(noticed).toBeLessThan(2_000);
    expect(states.at(-1)).toMatchObject({ state: 'reconnecting', previous: 'open' });
    const silent = /heartbeat: nothing heard for (\d+) ms \(limit 400 ms\)/.exec(states.at(-1)?.reason ?? '');
    expect(Number(silent?.[1])).toBeGreaterThan(400);

    // Logged while the path is frozen, delivered after it returns, once.
    await commit(bus, G, [makeEvent(G, 'score.changed', 0, 2)]);
    proxy.restore();
    await waitFor(() => client?.state === 'open' && got.length === 2, 10_000, 'the resumed event');
    expect(got.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('reports a resume gap, then the snapshots the daemon sends, then events', async () => {
    const snapshots = mapSnapshots([{ ...makeSnapshot(G), seq: 1 }]);
    await start({ snapshots });
    client = connect(server!.url);
    // An offset newer than anything logged (a reset log): the daemon cannot resume it exactly.
    const sub = client.subscribe({ games: [G.gameId], since: '9999999999999-0' });
    const messages: SubscriptionMessage[] = [];
    const reading = (async () => {
      for await (const m of sub.messages()) {
        messages.push(m);
        if (m.type === 'score.changed') break;
      }
    })();
    await waitFor(() => messages.length >= 2, 5_000, 'gap and snapshot');
    await commit(bus, G, [makeEvent(G, 'score.changed', 0, 2)]);
    await reading;
    expect(messages.map((m) => m.type)).toEqual(['gap', 'snapshot', 'score.changed']);
    const gap = messages[0];
    if (gap?.type !== 'gap') throw new Error('no gap');
    expect(gap.since).toBe('9999999999999-0');
    expect(gap.message).toMatch(/9999999999999-0/);
    expect(sub.stats.gaps).toBe(1);
  });

  it('closes for good, saying why, when the daemon refuses the token', async () => {
    await start({ tokens: ['s3cret'] });
    client = connect(server!.url, { retry: { minMs: 10, maxMs: 50 } });
    const states: StateChange[] = [];
    client.on('state', (s) => states.push(s));
    const errors: Error[] = [];
    client.on('error', (e) => errors.push(e));
    const sub = client.subscribe({ leagues: ['mens'] });
    await expect(
      (async () => {
        for await (const _ of sub) break;
      })(),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    expect(client.state).toBe('closed');
    expect(states.at(-1)).toMatchObject({ state: 'closed', code: 'unauthorized' });
    expect(states.at(-1)?.reason).toMatch(/refused the connection \(401\): it needs a token/);
    expect(errors[0]).toBeInstanceOf(LiveClientError);

    // With the token (sent as a header by `ws`) it connects.
    client = connect(server!.url, { token: 's3cret' });
    await waitFor(() => client?.state === 'open', 5_000, 'open with the token');
  });

  it('ends a subscription the daemon refuses with its code; others on the connection go on', async () => {
    await start();
    client = connect(server!.url);
    const good = client.subscribe({ games: [G.gameId] });
    const bad = client.subscribe({ leagues: ['nhl' as 'mens'] });
    const iterating = (async () => {
      for await (const _ of bad) break;
    })();
    await expect(iterating).rejects.toMatchObject({ code: 'unknown_league' });
    expect(bad.ended).toBe(true);
    expect(client.subscriptions).toEqual([good]);
    await waitFor(() => good.active, 5_000, 'the good subscription');
  });

  it('unsubscribe and close end the iterators; close twice is harmless', async () => {
    await start();
    client = connect(server!.url);
    const a = client.subscribe({ games: [G.gameId] });
    const b = client.subscribe({ leagues: ['mens'] });
    await waitFor(() => a.active && b.active, 5_000, 'subscribed');
    const drained = async (sub: typeof a) => {
      const seen: GameEvent[] = [];
      for await (const e of sub) seen.push(e);
      return seen;
    };
    const aDone = drained(a);
    const bDone = drained(b);
    a.unsubscribe();
    expect(await aDone).toEqual([]);
    await commit(bus, G, [makeEvent(G, 'score.changed', 0, 1)]);
    await waitFor(() => b.stats.events === 1, 5_000, 'b to get the event');
    expect(a.stats.events).toBe(0);
    await client.close();
    await client.close();
    expect((await bDone).length).toBe(1);
    expect(client.state).toBe('closed');
    expect(() => client?.subscribe({})).toThrow(/closed/);
  });

  it('refuses bad input, naming the parameter and the expected form', () => {
    expect(() => connect('ftp://example.com')).toThrow(/url must be an http\(s\) or ws\(s\) URL/);
    expect(() => connect('not a url')).toThrow(/url must be an http\(s\) or ws\(s\) URL like/);
    expect(() => connect('http://127.0.0.1:1', { retry: { minMs: -1 } })).toThrow(/retry\.minMs/);
    client = connect('http://127.0.0.1:1', { retry: false });
    expect(() => client?.subscribe({ delay: 900 })).toThrow(/delay must be whole seconds from 0 to 300/);
    expect(() => client?.subscribe({ leagues: [] })).toThrow(/leagues must be a non-empty array/);
    expect(() => client?.subscribe({ since: 'yesterday' })).toThrow(/since must be an offset like/);
    expect(() => client?.subscribe({ gmes: ['1'] } as never)).toThrow(/unknown option "gmes"/);
    expect(() => client?.subscribe({ conferences: [] })).toThrow(/conferences must be a non-empty array/);
    expect(() => client?.subscribe({ ranked: 'yes' } as never)).toThrow(/ranked must be true/);
  });

  it('subscribes by conference and to ranked teams only', async () => {
    await start();
    const college = (gameId: string, rank: number | null, conference: string) => ({
      league: 'mens-college' as const,
      gameId,
      home: { id: `h${gameId}`, abbreviation: 'HOM', rank, conference: { id: conference, name: null } },
      away: { id: `a${gameId}`, abbreviation: 'AWY', rank: null, conference: { id: conference, name: null } },
    });
    const ranked = college('701', 5, '2');
    const sec = college('702', null, '23');
    client = connect(server!.url);
    const top = client.subscribe({ ranked: true });
    const bySec = client.subscribe({ conferences: ['23'] });
    const got: Record<string, string[]> = { top: [], sec: [] };
    top.on('event', (e) => got.top?.push(e.gameId));
    bySec.on('event', (e) => got.sec?.push(e.gameId));
    await waitFor(() => top.active && bySec.active, 5_000, 'subscribed');
    await commit(bus, ranked, [makeEvent(ranked)]);
    await commit(bus, sec, [makeEvent(sec)]);
    await waitFor(() => got.top?.length === 1 && got.sec?.length === 1, 5_000, 'the events');
    expect(got).toEqual({ top: ['701'], sec: ['702'] });
  });

  it('gives up after its retries, with the last reason', async () => {
    client = connect('http://127.0.0.1:1', { retry: { minMs: 5, maxMs: 10, attempts: 2 } });
    expect(client.state).toBe('connecting');
    const states: StateChange[] = [];
    client.on('state', (s) => states.push(s));
    client.on('error', () => undefined);
    await waitFor(() => client?.state === 'closed', 10_000, 'closed');
    expect(states.map((s) => s.state)).toEqual(['reconnecting', 'reconnecting', 'closed']);
    expect(states[0]?.previous).toBe('connecting');
    expect(states.at(-1)).toMatchObject({ code: 'retries_exhausted' });
    expect(states.at(-1)?.reason).toMatch(/gave up after 2 retries: cannot connect/);
    // Each wait is the backoff's: between half and all of min(maxMs, minMs × 2^(n-1)).
    const [first, second] = states.map((s) => s.retryInMs);
    expect(first).toBeGreaterThanOrEqual(3);
    expect(first).toBeLessThanOrEqual(5);
    expect(second).toBeGreaterThanOrEqual(5);
    expect(second).toBeLessThanOrEqual(10);
  });

  it('backs off exponentially, capped, with jitter between half and all of each step', () => {
    const r = { minMs: 500, maxMs: 10_000, factor: 2, attempts: Infinity };
    const steps = [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000];
    steps.forEach((step, i) => {
      expect(backoffMs(r, i + 1, () => 0)).toBe(step / 2);
      expect(backoffMs(r, i + 1, () => 0.999_999)).toBe(step);
    });
    // Spread: clients dropped together come back at different moments.
    const waits = new Set(Array.from({ length: 50 }, () => backoffMs(r, 3)));
    expect(waits.size).toBeGreaterThan(10);
    for (const w of waits) expect(w >= 1_000 && w <= 2_000).toBe(true);
  });
});
