import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { sendJson, type RouteHandler } from '../../src/server/http-types.js';
import type { DaemonServer } from '../../src/server/server.js';
import { startServer, TestClient } from './gateway-harness.js';

let bus: Bus;
let server: DaemonServer;

afterEach(async () => {
  await server?.close();
  await bus?.close();
});

const route =
  (path: string, body: unknown): RouteHandler =>
  (_req, res, url) => {
    if (url.pathname !== path) return false;
    sendJson(res, 200, body);
    return true;
  };

describe('createDaemonServer', () => {
  it('tries route handlers in order and answers 404 JSON otherwise', async () => {
    bus = createMemoryBus();
    const seen: string[] = [];
    const spy: RouteHandler = (_req, _res, url) => {
      seen.push(url.pathname);
      return false;
    };
    server = await startServer({
      bus,
      routes: [spy, route('/a', { from: 'first' }), route('/a', { from: 'second' }), async () => false],
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${server.url}/a`)).json()).toEqual({ from: 'first' });
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'no route for GET /nope' } });
    expect(seen).toEqual(['/a', '/nope']);
    const plain = await fetch(`${server.url}/v1/stream`);
    expect(plain.status).toBe(426);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('UPGRADE_REQUIRED');
  });

  it('answers 500 JSON when a handler throws', async () => {
    bus = createMemoryBus();
    server = await startServer({
      bus,
      routes: [
        () => {
          throw new Error('boom');
        },
      ],
    });
    const res = await fetch(`${server.url}/x`);
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INTERNAL');
  });

  it('requires a bearer token on HTTP (header or ?token=), except static overlay assets', async () => {
    bus = createMemoryBus();
    server = await startServer({
      bus,
      tokens: ['tok-1'],
      routes: [route('/a', { ok: true }), route('/overlay/assets/overlay.js', { asset: true })],
    });
    for (const init of [
      {},
      { headers: { authorization: 'Bearer tok-2' } },
      { headers: { authorization: 'tok-1' } },
    ]) {
      const res = await fetch(`${server.url}/a`, init);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    expect((await fetch(`${server.url}/a?token=wrong`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/stream/sse`)).status).toBe(401);
    expect((await fetch(`${server.url}/a`, { headers: { authorization: 'Bearer tok-1' } })).status).toBe(200);
    expect((await fetch(`${server.url}/a?token=tok-1`)).status).toBe(200);
    expect((await fetch(`${server.url}/overlay/assets/overlay.js`)).status).toBe(200);
  });

  it('refuses upgrades on other paths with 404', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    await expect(TestClient.connect(`${server.url}/v1/stream/other`)).rejects.toThrow('HTTP 404');
  });

  it('closes idempotently within 5 s, with an SSE stream and WebSocket clients open', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus });
    const ws = await TestClient.connect(server.url);
    const sse = await fetch(`${server.url}/v1/stream/sse`);
    expect(sse.status).toBe(200);
    expect(server.stats()).toMatchObject({ wsConnections: 1, sseConnections: 1 });
    const started = Date.now();
    await Promise.all([server.close(), server.close()]);
    await server.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await ws.waitClosed()).code).toBe(1001);
    await expect(sse.text()).resolves.toMatch(/^: courtside/);
    await expect(fetch(`${server.url}/a`)).rejects.toThrow();
  });
});
