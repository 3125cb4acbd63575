import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspnClient } from '../../../src/espn-client/client.js';
import { UpstreamBlockedError } from '../../../src/core/errors.js';
import { createUpstreamTracker } from '../../../src/server/routes/index.js';
import { describeUpstreamFailure } from '../../../src/server/routes/upstream-notice.js';

import { startApi, type ApiHarness } from './helpers.js';

interface Health {
  status: string;
  upstream: {
    reachable: boolean;
    lastSuccessAt: string | null;
    probe: { ok: boolean } | null;
    blocked: { since: string; userAgent: string; message: string } | null;
  };
  redis: { configured: boolean; ok?: boolean; error?: string };
  pollers: unknown[];
}

describe(`GET /healthz`, () => {
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

describe(`GET /healthz with a blocked User-Agent`, () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({ userAgent: 'MyApp/1.0' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers 503 naming the agent and the accepted form, until a call succeeds again', async () => {
    expect((await (await fetch(`${api.url}/healthz`)).json()) as Health).toMatchObject({
      status: 'ok',
      upstream: { blocked: null },
    });
    const refused = await fetch(`${api.url}/v1/ops/mens_news`);
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('UPSTREAM_BLOCKED');

    const res = await fetch(`${api.url}/healthz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as Health;
    expect(body.status).toBe('unhealthy');
    // The edge answered: reachable, and blocked.
    expect(body.upstream.reachable).toBe(true);
    expect(body.upstream.blocked?.userAgent).toBe('MyApp/1.0');
    expect(body.upstream.blocked?.message).toMatch(/accepts agents of the form "Name\/version \(\+https/);
    expect(Date.parse(body.upstream.blocked?.since ?? '')).not.toBeNaN();

    // The same tracker sees a call with an accepted agent succeed: the block is over.
    const accepted = createEspnClient({ upstream: api.upstream.url, cache: false });
    try {
      await api.tracker.wrap(accepted).call('mens_news');
    } finally {
      await accepted.close();
    }
    const after = await fetch(`${api.url}/healthz`);
    expect(after.status).toBe(200);
    expect(((await after.json()) as Health).upstream.blocked).toBeNull();
  });
});

describe('the start-up notice of a block', () => {
  it('says the upstream blocks the agent, naming it and the accepted form', () => {
    const error = new UpstreamBlockedError(
      'https://site.api.espn.com/apis/site/v2/sports/basketball/nba/scoreboard',
      'MyApp/1.0',
      '"Name/version (+https://your.site)"',
    );
    const text = describeUpstreamFailure('https://site.api.espn.com', error);
    expect(text).toMatch(/^ESPN at https:\/\/site\.api\.espn\.com blocks this User-Agent: /);
    expect(text).toContain('"MyApp/1.0"');
    expect(text).toContain('Name/version (+https://your.site)');
  });
});
