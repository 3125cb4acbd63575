import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { connect, type Client } from '../../src/live-client/courtside.js';
import type { ViewerLimits, DaemonServer } from '../../src/server/server.js';
import { waitFor } from '../support/wait-for.js';
import { startServer, TestClient } from './gateway-harness.js';

let bus: Bus | undefined;
let server: DaemonServer | undefined;
const sockets: TestClient[] = [];
const liveClients: Client[] = [];

afterEach(async () => {
  for (const c of sockets.splice(0)) c.close();
  await Promise.all(liveClients.splice(0).map((c) => c.close()));
  await server?.close();
  await bus?.close();
  server = undefined;
});

async function start(limits: Partial<ViewerLimits>, tokens: string[] = []): Promise<string> {
  bus = createMemoryBus();
  server = await startServer({ bus, viewerLimits: limits, tokens, heartbeatMs: 60_000 });
  return server.url;
}

/** A WebSocket upgrade's HTTP answer when it is refused, or 101. */
function upgradeStatus(
  url: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  retryAfter: string | undefined;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, { headers });
    ws.once('open', () => {
      ws.terminate();
      resolve({ status: 101, retryAfter: undefined, body: '' });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }),
      );
    });
    ws.once('error', reject);
  });
}

describe('per-client limits of the HTTP API', () => {
  it('counts each address, sends the rate-limit fields, and answers 429 with Retry-After when empty', async () => {
    const url = await start({ rateLimit: { rate: 1, burst: 3 } });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/nope`);
      expect(res.status).toBe(404);
      expect(res.headers.get('ratelimit-policy')).toBe('"client";q=3;w=3');
      remaining.push(res.headers.get('ratelimit') ?? '');
    }
    expect(remaining).toEqual(['"client";r=2;t=1', '"client";r=1;t=2', '"client";r=0;t=3']);
    const refused = await fetch(`${url}/nope`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toMatch(
      /^address 127\.0\.0\.1 is over its limit of 1 requests a second \(bursts of 3\)/,
    );
    // Health checks and scrapes are the operator's, never limited.
    expect((await fetch(`${url}/healthz`)).status).not.toBe(429);
    expect((await fetch(`${url}/metrics`)).status).not.toBe(429);
    // Nor are the static files.
    expect((await fetch(`${url}/client/courtside.js`)).status).not.toBe(429);
  });

  it('believes X-Forwarded-For only from a configured proxy', async () => {
    const url = await start({ rateLimit: { rate: 1, burst: 1 }, trustedProxies: ['127.0.0.1'] });
    const from = (address: string) =>
      fetch(`${url}/nope`, { headers: { 'x-forwarded-for': `10.9.9.9, ${address}` } });
    expect((await from('10.0.0.1')).status).toBe(404);
    expect((await from('10.0.0.2')).status).toBe(404);
    const again = await from('10.0.0.1');
    expect(again.status).toBe(429);
    // The rightmost address not a proxy is the client; what it wrote further left is not believed.
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(
      /^address 10\.0\.0\.1 /,
    );
    await server?.close();
    await bus?.close();
    const untrusted = await start({ rateLimit: { rate: 1, burst: 1 } });
    const spoof = (address: string) =>
      fetch(`${untrusted}/nope`, { headers: { 'x-forwarded-for': address } });
    expect((await spoof('10.0.0.1')).status).toBe(404);
    expect((await spoof('10.0.0.2')).status).toBe(429);
  });

  it('counts each token, with limits per token', async () => {
    const url = await start(
      {
        rateLimit: { rate: 1, burst: 2 },
        tokenRateLimits: new Map([
          ['small', { rate: 1, burst: 1 }],
          ['free', null],
        ]),
      },
      ['small', 'free', 'plain'],
    );
    const as = (token: string) => fetch(`${url}/nope`, { headers: { authorization: `Bearer ${token}` } });
    expect((await as('small')).status).toBe(404);
    const refused = await as('small');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^this token is over/,
    );
    for (let i = 0; i < 10; i++) expect((await as('free')).status).toBe(404);
    expect((await as('plain')).status).toBe(404);
    expect((await as('plain')).status).toBe(404);
    expect((await as('plain')).status).toBe(429);
  });
});

describe('per-address limits of the streams', () => {
  it('caps the streams of one address, WebSocket and SSE together, with Retry-After', async () => {
    const url = await start({ streamConnectionsPerAddress: 2 });
    sockets.push(await TestClient.connect(url));
    const sse = new AbortController();
    const stream = await fetch(`${url}/v1/stream/sse`, { signal: sse.signal });
    expect(stream.status).toBe(200);
    const refused = await upgradeStatus(url);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('10');
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'too_many_streams' } });
    const sseRefused = await fetch(`${url}/v1/stream/sse`);
    expect(sseRefused.status).toBe(429);
    expect(((await sseRefused.json()) as { error: { code: string } }).error.code).toBe('too_many_streams');
    sse.abort();
    await waitFor(
      async () => (await upgradeStatus(url)).status === 101,
      10_000,
      'a slot freed by the SSE close',
    );
  });

  it('spreads subscribes over the address rate, then refuses with an error frame saying when to retry', async () => {
    const url = await start({ subscribeRateLimit: { rate: 1, burst: 2 } });
    const ws = await TestClient.connect(url);
    sockets.push(ws);
    const started = Date.now();
    for (let i = 0; i < 6; i++) ws.send({ op: 'subscribe', id: `s${i}` });
    const refused = await ws.next((f) => f.type === 'error');
    expect(refused).toMatchObject({ code: 'subscribe_rate_limited', id: 's4' });
    expect(refused.retryAfterMs).toBeGreaterThan(2_000);
    expect(refused.message).toMatch(/subscribe again in \d+ s/);
    // The two of the burst at once, the next two on credit, a second apart.
    await ws.next((f) => f.type === 'subscribed' && f.id === 's3');
    const subscribed = ws.frames.filter((f) => f.type === 'subscribed').map((f) => f.id);
    expect(subscribed).toEqual(['s0', 's1', 's2', 's3']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it('an unsubscribe while a subscribe waits on credit takes it back: it never starts', async () => {
    const url = await start({ subscribeRateLimit: { rate: 2, burst: 1 } });
    const ws = await TestClient.connect(url);
    sockets.push(ws);
    ws.send({ op: 'subscribe', id: 'now' });
    ws.send({ op: 'subscribe', id: 'later' });
    ws.send({ op: 'unsubscribe', id: 'later' });
    await ws.next((f) => f.type === 'unsubscribed' && f.id === 'later');
    // Past the half second 'later' waited for: it was not subscribed, and nothing was refused.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(ws.frames.filter((f) => f.type === 'subscribed').map((f) => f.id)).toEqual(['now']);
    expect(ws.frames.filter((f) => f.type === 'error')).toEqual([]);
  });

  it('lets a fleet of library clients behind one address through when all connect at once, as after a restart', async () => {
    const url = await start({ subscribeRateLimit: { rate: 10, burst: 5 } });
    for (let i = 0; i < 40; i++) {
      const client = connect(url, { retry: { minMs: 100, maxMs: 1_000 } });
      client.subscribe({ id: 'all' });
      liveClients.push(client);
    }
    await waitFor(
      () => liveClients.every((c) => c.subscriptions[0]?.active === true),
      30_000,
      () => `every subscription active (${liveClients.filter((c) => c.subscriptions[0]?.active).length}/40)`,
    );
    expect(liveClients.every((c) => c.subscriptions[0]?.ended === false)).toBe(true);
  });
});
