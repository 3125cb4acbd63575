import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createEspnClient,
  type CallNotice,
  type EspnClientOptions,
  type EspnClient,
} from '../../src/espn-client/client.js';
import { OnDemandBudgetError } from '../../src/core/errors.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';

let upstream: RunningUpstream;
const clients: EspnClient[] = [];

function client(options: EspnClientOptions): EspnClient {
  const c = createEspnClient({ upstream: upstream.url, retries: 0, ...options });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  upstream = await startUpstream();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  upstream.requests.clear();
});

afterAll(async () => {
  await upstream?.close();
});

const summary = (c: EspnClient, i: number, lane: 'live' | 'on-demand' = 'on-demand') =>
  c.call('mens_summary', { event_id: String(980_000 + i) }, { returnParsed: false, lane });

describe('the on-demand upstream budget', () => {
  it('sends at most its burst at once and refuses the rest with the time to retry, sending nothing', async () => {
    const c = client({ cache: false, onDemandRate: 5, onDemandBurst: 5, onDemandMaxWaitMs: 0 });
    const started = Date.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => summary(c, i)));
    const refused = outcomes.flatMap((o) =>
      o.status === 'rejected' && o.reason instanceof OnDemandBudgetError ? [o.reason] : [],
    );
    expect(refused).toHaveLength(7);
    for (const error of refused) {
      expect(error.code).toBe('ON_DEMAND_BUDGET');
      expect(error.retryAfterMs).toBeGreaterThan(0);
      expect(error.retryAfterMs).toBeLessThanOrEqual(1_000);
    }
    expect(upstream.requests.count((r) => r.path.endsWith('/summary'))).toBe(5);
    expect(c.budget()).toMatchObject({ rate: 5, burst: 5 });
    // The burst is spent: what is left is only what the time since refilled (5 a second), which
    // on a loaded machine is more than nothing.
    const { tokens } = c.budget();
    expect(tokens).toBeLessThan(1 + (5 * (Date.now() - started)) / 1000);
  });

  it('waits for the budget when the wait is short, pacing the requests', async () => {
    const c = client({ cache: false, onDemandRate: 10, onDemandBurst: 2, onDemandMaxWaitMs: 1_000 });
    const started = Date.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => summary(c, 100 + i)));
    // Two at once, then one every 100 ms: the sixth goes out 400 ms in.
    expect(outcomes.every((o) => o.status === 'rejected' && !(o.reason instanceof OnDemandBudgetError))).toBe(
      true,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    const at = upstream.requests.entries
      .filter((r) => r.path.endsWith('/summary'))
      .map((r) => r.at)
      .sort((x, y) => x - y);
    expect(at).toHaveLength(6);
    // Paced, not sent at once: the k-th request past the burst reached the upstream no sooner than
    // k tenths of a second in (less a little for the bucket filling before `started`).
    for (let k = 2; k < 6; k++) expect(at[k]! - started).toBeGreaterThanOrEqual((k - 1) * 100 - 20);
  });

  it('answers from an expired copy, saying so, when the budget is spent', async () => {
    let now = 1_000_000;
    const c = client({ now: () => now, onDemandRate: 1, onDemandBurst: 1, onDemandMaxWaitMs: 0 });
    const first = await c.call('mens_scoreboard', {}, { returnParsed: false, lane: 'on-demand' });
    now += 10 * 60_000;
    const notices: CallNotice[] = [];
    const second = await c.call(
      'mens_scoreboard',
      {},
      { returnParsed: false, lane: 'on-demand', onNotice: (n) => notices.push(n) },
    );
    expect(second).toBe(first);
    expect(notices.map((n) => n.kind)).toEqual(['stale']);
    expect(notices[0]?.message).toMatch(/budget is spent: answered from ESPN's answer of 600 s ago/);
    expect(upstream.requests.count((r) => r.path.endsWith('/scoreboard'))).toBe(1);
  });

  it('leaves the live lane out of the budget', async () => {
    const c = client({ cache: false, onDemandRate: 1, onDemandBurst: 1, onDemandMaxWaitMs: 0 });
    await summary(c, 200).catch(() => undefined);
    await expect(summary(c, 201)).rejects.toBeInstanceOf(OnDemandBudgetError);
    const live = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => summary(c, 210 + i, 'live')));
    expect(live.some((o) => o.status === 'rejected' && o.reason instanceof OnDemandBudgetError)).toBe(false);
    expect(upstream.requests.count((r) => r.path.endsWith('/summary'))).toBe(6);
  });
});
