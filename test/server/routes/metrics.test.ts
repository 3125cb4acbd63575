import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../../src/core/metrics.js';

import { startApi, type ApiHarness } from './helpers.js';

describe(`GET /metrics`, () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves the Prometheus text of every metric, with upstream requests by operation', async () => {
    expect((await fetch(`${api.url}/v1/ops/womens_news`)).status).toBe(200);
    const res = await fetch(`${api.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(registry.contentType);
    const text = await res.text();
    for (const name of [
      'courtside_upstream_requests_total',
      'courtside_poll_lag_seconds',
      'courtside_events_total',
      'courtside_ws_connections',
      'courtside_queue_depth',
      'courtside_jobs_dropped_total',
      'courtside_alerts_stale_total',
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
    // Default process metrics, under the project prefix.
    expect(text).toMatch(/^courtside_process_\w*resident_memory_bytes [0-9]/m);
    expect(text).toMatch(/courtside_upstream_requests_total\{[^}]*operation="womens_news"[^}]*\} [1-9]/);
  });
});
