import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every Prometheus metric the daemon exposes, defined once. Modules import the metric they
 * update; `GET /metrics` serialises `registry`. Label sets are small and bounded (operation
 * names, status classes, event types), never ids, so cardinality stays fixed.
 */
export const registry = new Registry();

let processMetricsStarted = false;

/**
 * Starts prom-client's process and Node.js metrics on `registry`. Called by whatever serves
 * `/metrics`, never on import: a library user who imports the client should not get timers and
 * event-loop probes they did not ask for. Idempotent.
 */
export function startProcessMetrics(): void {
  if (processMetricsStarted) return;
  processMetricsStarted = true;
  // prom-client names its defaults `process_*`, `nodejs_*`: the prefix makes them `courtside_process_*`, `courtside_nodejs_*`.
  collectDefaultMetrics({ register: registry, prefix: 'courtside_' });
}

export const upstreamRequests = new Counter({
  name: 'courtside_upstream_requests_total',
  help: 'Requests sent upstream, by operation and HTTP status (or error code)',
  labelNames: ['operation', 'status'] as const,
  registers: [registry],
});

export const upstreamCacheHits = new Counter({
  name: 'courtside_upstream_cache_hits_total',
  help: 'Calls answered from the TTL cache or joined to an in-flight identical request',
  labelNames: ['operation', 'kind'] as const,
  registers: [registry],
});

export const upstreamCacheBytes = new Gauge({
  name: 'courtside_upstream_cache_bytes',
  help: 'Bytes of upstream bodies (decoded JSON) the response cache holds',
  registers: [registry],
});

export const pollLag = new Histogram({
  name: 'courtside_poll_lag_seconds',
  help: 'Delay between when a poll was due and when its response was diffed',
  labelNames: ['league', 'poller'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

export const pollErrors = new Counter({
  name: 'courtside_poll_errors_total',
  help: 'Failed polls, by league, poller and error code',
  labelNames: ['league', 'poller', 'code'] as const,
  registers: [registry],
});

export const trackedGames = new Gauge({
  name: 'courtside_tracked_games',
  help: 'Games tracked by this instance, by league and state',
  labelNames: ['league', 'state'] as const,
  registers: [registry],
});

export const eventsEmitted = new Counter({
  name: 'courtside_events_total',
  help: 'Events produced by this instance, by type',
  labelNames: ['type'] as const,
  registers: [registry],
});

export const wsConnections = new Gauge({
  name: 'courtside_ws_connections',
  help: 'Open WebSocket connections',
  registers: [registry],
});

export const sseConnections = new Gauge({
  name: 'courtside_sse_connections',
  help: 'Open Server-Sent Events connections',
  registers: [registry],
});

export const framesSent = new Counter({
  name: 'courtside_frames_sent_total',
  help: 'Frames written to WebSocket and SSE clients, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const clientsDropped = new Counter({
  name: 'courtside_clients_dropped_total',
  help: 'Clients closed by the server, by reason (slow_consumer, heartbeat, limit)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'courtside_queue_depth',
  help: 'Jobs waiting in a BullMQ queue, or held in the local buffer while Redis is away',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const jobsDropped = new Counter({
  name: 'courtside_jobs_dropped_total',
  help: 'Jobs dropped because the local buffer was full while Redis was unreachable',
  registers: [registry],
});

export const alertsStale = new Counter({
  name: 'courtside_alerts_stale_total',
  help: 'Alerts not sent because their moment was older than the staleness horizon',
  registers: [registry],
});

export const alertsFired = new Counter({
  name: 'courtside_alerts_total',
  help: 'Alerts produced, by rule',
  labelNames: ['rule'] as const,
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: 'courtside_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by outcome (delivered, failed, refused)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});
