import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../src/bus/memory.js';
import { createEspnClient, type EspnClient } from '../../../src/espn-client/client.js';
import { registry } from '../../../src/core/metrics.js';
import {
  createHealthRoute,
  createMetricsRoute,
  createUpstreamTracker,
} from '../../../src/server/routes/index.js';
import { createDaemonServer, type DaemonServer } from '../../../src/server/server.js';
import { startUpstream, type RunningUpstream } from '../../../src/simulator/index.js';
import { fixedSnapshots } from './helpers.js';

const LATENCY_MS = 300;
let upstream: RunningUpstream | undefined;
let client: EspnClient | undefined;
let server: DaemonServer | undefined;

afterEach(async () => {
  await server?.close();
  await client?.close();
  await upstream?.close();
});

interface LiveLane {
  slots: number;
  waiting: number;
  longestWaitMs: number;
  intervalMs: number;
  late: boolean;
}

async function start(intervalMs: number): Promise<string> {
  upstream = await startUpstream({ faults: { latency: LATENCY_MS } });
  // One live slot: a second live request waits for the first's whole answer.
  client = createEspnClient({ upstream: upstream.url, concurrency: 1, retries: 0, cache: false });
  const lanes = client;
  server = createDaemonServer({
    bus: createMemoryBus(),
    snapshots: fixedSnapshots([]),
    routes: [
      createHealthRoute({
        upstream: createUpstreamTracker({ upstream: upstream.url }),
        liveLane: { stats: () => lanes.lanes().live, intervalMs },
      }),
      createMetricsRoute(),
    ],
  });
  await server.start();
  return server.url;
}

async function liveLane(url: string): Promise<LiveLane> {
  return ((await (await fetch(`${url}/healthz`)).json()) as { liveLane: LiveLane }).liveLane;
}

async function queueWaitCount(): Promise<number> {
  const metric = await registry.getSingleMetric('courtside_upstream_queue_wait_seconds')?.get();
  const count = metric?.values.find(
    (v) => (v as { metricName?: string }).metricName?.endsWith('_count') && v.labels.lane === 'live',
  );
  return count?.value ?? 0;
}

describe('GET /healthz: the live lane', () => {
  it('reports a live request that waited longer than the polls interval, and the wait in /metrics', async () => {
    const url = await start(100);
    expect(await liveLane(url)).toMatchObject({ slots: 1, longestWaitMs: 0, intervalMs: 100, late: false });
    const before = await queueWaitCount();
    await Promise.all([
      client?.call('mens_scoreboard', {}, { returnParsed: false }),
      client?.call('womens_scoreboard', {}, { returnParsed: false }),
    ]);
    const lane = await liveLane(url);
    expect(lane.longestWaitMs).toBeGreaterThanOrEqual(LATENCY_MS - 20);
    expect(lane.late).toBe(true);
    expect(await queueWaitCount()).toBe(before + 2);
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).toMatch(/courtside_upstream_queue_wait_seconds_bucket\{le="0\.5",lane="live"\} \d+/);
  });

  it('is not late when the waits stay within the interval', async () => {
    const url = await start(5_000);
    await Promise.all([
      client?.call('mens_scoreboard', {}, { returnParsed: false }),
      client?.call('womens_scoreboard', {}, { returnParsed: false }),
    ]);
    expect(await liveLane(url)).toMatchObject({ intervalMs: 5_000, late: false });
  });
});
