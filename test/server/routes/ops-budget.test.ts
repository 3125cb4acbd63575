import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type ApiHarness } from './helpers.js';

let api: ApiHarness | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('GET /v1/ops under the on-demand upstream budget', () => {
  it('answers 429 with Retry-After when the budget is spent, and sends nothing upstream', async () => {
    api = await startApi({ client: { onDemandRate: 1, onDemandBurst: 1, onDemandMaxWaitMs: 0 } });
    const first = await fetch(`${api.url}/v1/ops/mens_summary?event_id=970001`);
    expect(first.status).toBe(404);
    const second = await fetch(`${api.url}/v1/ops/mens_summary?event_id=970002`);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const { error } = (await second.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('ON_DEMAND_BUDGET');
    expect(error.message).toMatch(/on-demand upstream budget \(1 requests a second\) is spent/);
    expect(api.upstream.requests.count((r) => r.path.endsWith('/summary'))).toBe(1);
  });

  it('answers an expired copy marked stale rather than 429 when one is held', async () => {
    let now = 5_000_000;
    api = await startApi({
      client: { cache: true, now: () => now, onDemandRate: 1, onDemandBurst: 1, onDemandMaxWaitMs: 0 },
    });
    const first = await fetch(`${api.url}/v1/ops/mens_scoreboard?format=raw`);
    expect(first.status).toBe(200);
    now += 120_000;
    const second = await fetch(`${api.url}/v1/ops/mens_scoreboard?format=raw`);
    expect(second.status).toBe(200);
    expect(second.headers.get('courtside-source')).toBe('stale-cache');
    expect(second.headers.get('courtside-notice')).toMatch(/^stale; the on-demand upstream budget is spent/);
    expect(await second.text()).toBe(await first.text());
  });
});
