import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstreamTracker } from '../../../src/server/routes/index.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON } from '../../support/fixtures.js';
import { startApi, type ApiHarness } from './helpers.js';

interface Health {
  status: string;
  upstream: { reachable: boolean; lastSuccessAt: string | null; probe: { ok: boolean } | null };
  redis: { configured: boolean; ok?: boolean; error?: string };
  pollers: unknown[];
}

describe.skipIf(!HAVE_FIXTURES)(`GET /healthz ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`, () => {
  let api: ApiHarness;
  let redisUp = true;
  beforeAll(async () => {
    api = await startApi({
      redisPing: async () => {
        if (!redisUp) throw new Error('connection refused');
        return 0.4;
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('is healthy when the upstream answers a probe, before any call succeeded', async () => {
    const res = await fetch(`${api.url}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Health;
    expect(body.status).toBe('ok');
    expect(body.upstream.lastSuccessAt).toBeNull();
    expect(body.upstream.probe?.ok).toBe(true);
    expect(body.redis).toMatchObject({ configured: true, ok: true });
    expect(body.pollers).toEqual([]);
  });

  it('records the last successful upstream call, after which no probe is needed', async () => {
    expect((await fetch(`${api.url}/v1/ops/mens_news`)).status).toBe(200);
    const body = (await (await fetch(`${api.url}/healthz`)).json()) as Health;
    expect(body.upstream.lastSuccessAt).not.toBeNull();
    expect(body.upstream.probe).toBeNull();
    expect(body.upstream.reachable).toBe(true);
  });

  it('answers 503 naming Redis when Redis does not answer', async () => {
    redisUp = false;
    try {
      const res = await fetch(`${api.url}/healthz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as Health;
      expect(body.status).toBe('unhealthy');
      expect(body.redis).toMatchObject({ configured: true, ok: false, error: 'connection refused' });
    } finally {
      redisUp = true;
    }
  });
});

describe('upstream tracker', () => {
  it('reports an unreachable upstream after a failed probe', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const tracker = createUpstreamTracker({ upstream: 'http://127.0.0.1:1', probeTimeoutMs: 2_000 });
    const check = await tracker.check();
    expect(check.reachable).toBe(false);
    expect(check.probe?.ok).toBe(false);
    expect(check.probe?.error).toBeTruthy();
  });

  it('counts an upstream HTTP error as reachable, and stops trusting old successes', async () => {
    let now = 1_000_000;
    const tracker = createUpstreamTracker({
      upstream: 'http://127.0.0.1:1',
      freshMs: 60_000,
      now: () => now,
    });
    const { UpstreamHttpError } = await import('../../../src/core/errors.js');
    const failing = tracker.wrap({
      call: async (): Promise<unknown> => {
        throw new UpstreamHttpError(404, 'http://127.0.0.1:1/x');
      },
    });
    await expect(failing.call()).rejects.toThrow(/404/);
    const fresh = await tracker.check();
    expect(fresh.reachable).toBe(true);
    expect(fresh.lastError?.code).toBe('UPSTREAM_HTTP');
    now += 120_000;
    const stale = await tracker.check();
    expect(stale.probe).not.toBeNull();
    expect(stale.reachable).toBe(false);
  });
});
