import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspnClient, type EspnClient } from '../../src/espn-client/client.js';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';

// The simulator answers every request this late: long enough that a queue behind on-demand
// requests would show, short enough for the suite.
const LATENCY_MS = 400;
const ON_DEMAND_CALLS = 12;

let upstream: RunningUpstream;
let client: EspnClient;

beforeAll(async () => {
  upstream = await startUpstream({ faults: { latency: LATENCY_MS } });
  client = createEspnClient({
    upstream: upstream.url,
    retries: 0,
    cache: false,
    concurrency: 2,
    onDemandConcurrency: 2,
  });
});

afterAll(async () => {
  await client?.close();
  await upstream?.close();
});

/** On-demand calls for summaries of games that do not exist: one upstream request each, distinct. */
function saturateOnDemand(): { done: () => number; all: Promise<unknown> } {
  let finished = 0;
  const calls = Array.from({ length: ON_DEMAND_CALLS }, (_, i) =>
    client
      .call('mens_summary', { event_id: String(990_000 + i) }, { returnParsed: false, lane: 'on-demand' })
      .catch(() => undefined)
      .finally(() => finished++),
  );
  return { done: () => finished, all: Promise.all(calls) };
}

describe('upstream lanes', () => {
  it('sends a live request at once while the on-demand lane is saturated', async () => {
    const load = saturateOnDemand();
    // Let the on-demand lane fill and queue before the live request is made.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.lanes()['on-demand'].waiting).toBeGreaterThan(0);
    const started = Date.now();
    await client.call('mens_scoreboard', {}, { returnParsed: false, fresh: true });
    const elapsed = Date.now() - started;
    // Behind the on-demand queue it would take ON_DEMAND_CALLS / 2 answers of LATENCY_MS each.
    expect(elapsed).toBeLessThan(3 * LATENCY_MS);
    expect(load.done()).toBeLessThan(ON_DEMAND_CALLS / 2);
    expect(client.lanes().live.longestWait?.ms ?? 0).toBeLessThan(LATENCY_MS);
    await load.all;
    expect(client.lanes()['on-demand'].longestWait?.ms ?? 0).toBeGreaterThanOrEqual(LATENCY_MS);
  });

  it('puts calls that name no lane in the live lane', async () => {
    const pending = client.call('mens_summary', { event_id: '990100' }, { returnParsed: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.lanes().live.inFlight).toBe(1);
    expect(client.lanes()['on-demand'].inFlight).toBe(0);
    await pending.catch(() => undefined);
  });

  it('refuses an unknown lane before any request', async () => {
    await expect(
      client.call('mens_scoreboard', {}, { lane: 'batch' as unknown as 'live' }),
    ).rejects.toBeInstanceOf(InvalidOptionsError);
  });
});
