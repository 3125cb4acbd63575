import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every Prometheus metric the daemon exposes, defined once. Modules import the metric they
 * update; `GET /metrics` serialises `registry`. Label sets are small and bounded (operation
 * names, status classes, event types), never ids, so cardinality stays fixed.
 */
export const registry = new Registry();

/** A counter or gauge registered on `registry` only, never on prom-client's global registry. */
function registered<L extends string, M>(
  Metric: new (config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }) => M,
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): M {
  return new Metric({ name, help, labelNames, registers: [registry] });
}

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

export const upstreamRequests = registered(
  Counter,
  'courtside_upstream_requests_total',
  'Requests sent upstream, by operation and HTTP status (or error code)',
  ['operation', 'status'],
);

export const upstreamCacheHits = registered(
  Counter,
  'courtside_upstream_cache_hits_total',
  'Calls answered from the TTL cache or joined to an in-flight identical request',
  ['operation', 'kind'],
);

export const upstreamCacheBytes = registered(
  Gauge,
  'courtside_upstream_cache_bytes',
  'Bytes of upstream bodies (decoded JSON) the response cache holds',
);

export const onDemandUpstreamRequests = registered(
  Counter,
  'courtside_upstream_on_demand_requests_total',
  'Requests of the on-demand lane sent upstream (each spent one token of the on-demand budget)',
);

export const onDemandBudgetTokens = registered(
  Gauge,
  'courtside_upstream_on_demand_budget_tokens',
  'Tokens left in the on-demand upstream budget, read at each scrape (negative: requests waiting on credit)',
);

export const limitRefusals = registered(
  Counter,
  'courtside_limit_refusals_total',
  'Requests refused by a limit (on_demand_budget, http_client, stream_connections, stream_subscribe)',
  ['limit'],
);

export const upstreamQueueWait = new Histogram({
  name: 'courtside_upstream_queue_wait_seconds',
  help: 'Time an upstream request waited for a slot of its lane (live or on-demand) before it was sent',
  labelNames: ['lane'] as const,
  buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
  registers: [registry],
});

export const pollLag = new Histogram({
  name: 'courtside_poll_lag_seconds',
  help: 'Delay between when a poll was due and when its response was diffed',
  labelNames: ['league', 'poller'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

export const pollErrors = registered(
  Counter,
  'courtside_poll_errors_total',
  'Failed polls, by league, poller and error code',
  ['league', 'poller', 'code'],
);

export const trackedGames = registered(
  Gauge,
  'courtside_tracked_games',
  'Games tracked by this instance, by league and state',
  ['league', 'state'],
);

export const gamesFed = registered(
  Gauge,
  'courtside_games_fed',
  'Games whose summary poller runs on this instance, by league and how it follows them: push, polling, standby (another instance holds the game)',
  ['league', 'source'],
);

export const eventsEmitted = registered(
  Counter,
  'courtside_events_total',
  'Events produced by this instance, by type',
  ['type'],
);

export const wsConnections = registered(Gauge, 'courtside_ws_connections', 'Open WebSocket connections');

export const sseConnections = registered(
  Gauge,
  'courtside_sse_connections',
  'Open Server-Sent Events connections',
);

export const framesSent = registered(
  Counter,
  'courtside_frames_sent_total',
  'Frames written to WebSocket and SSE clients, by kind',
  ['kind'],
);

export const clientsDropped = registered(
  Counter,
  'courtside_clients_dropped_total',
  'Clients closed by the server, by reason (slow_consumer, heartbeat, limit)',
  ['reason'],
);

export const queueDepth = registered(
  Gauge,
  'courtside_queue_depth',
  'Jobs waiting in a BullMQ queue, or held in the local buffer while Redis is away',
  ['queue'],
);

export const jobsDropped = registered(
  Counter,
  'courtside_jobs_dropped_total',
  'Jobs dropped because the local buffer was full while Redis was unreachable',
);

export const alertsStale = registered(
  Counter,
  'courtside_alerts_stale_total',
  'Alerts not sent because their moment was older than the staleness horizon',
);

export const alertsFired = registered(Counter, 'courtside_alerts_total', 'Alerts produced, by rule', [
  'rule',
]);

export const webhookDeliveries = registered(
  Counter,
  'courtside_webhook_deliveries_total',
  'Webhook delivery attempts, by outcome (delivered, failed, refused, rate_limited)',
  ['outcome'],
);

export const upstreamAnomalies = registered(
  Counter,
  'courtside_upstream_anomalies_total',
  'Upstream answers that suggest ESPN changed something, by kind (unknown_status, unparsable_body, empty_body, blocked, empty_board)',
  ['kind'],
);

export const instanceRole = registered(
  Gauge,
  'courtside_instance_role',
  'Always 1, labelled with the role of this process (all, poller or gateway)',
  ['role'],
);

export const fastcastFrames = registered(
  Counter,
  'courtside_fastcast_frames_total',
  'FastCast messages received, by op (C, S, H, R, P, I, B, M, U, other)',
  ['op'],
);

export const fastcastBytes = registered(
  Counter,
  'courtside_fastcast_bytes_total',
  'Bytes received from FastCast: frames and checkpoints',
  ['kind'],
);

export const fastcastApplyErrors = registered(
  Counter,
  'courtside_fastcast_apply_errors_total',
  'FastCast patches that did not apply or could not be decoded (the document is kept and resynced)',
);

export const fastcastResyncs = registered(
  Counter,
  'courtside_fastcast_resyncs_total',
  'Topics resynced from a fresh checkpoint, by reason (mid_gap, bad_patch, bad_payload)',
  ['reason'],
);

export const fastcastReconnects = registered(
  Counter,
  'courtside_fastcast_reconnects_total',
  'FastCast connections opened again, by reason (closed, silent, refused, error)',
  ['reason'],
);

export const fastcastSkippedOps = registered(
  Counter,
  'courtside_fastcast_skipped_operations_total',
  'FastCast patch operations that failed on a part of the document courtside does not read and were skipped, by part (odds, pickcenter, ..., other)',
  ['part'],
);

export const fastcastNoTopic = registered(
  Counter,
  'courtside_fastcast_no_topic_total',
  'FastCast subscriptions answered without a checkpoint (H) in time: the game stays on polling and is subscribed again later',
);

export const fastcastOversize = registered(
  Counter,
  'courtside_fastcast_oversize_payloads_total',
  'FastCast payloads refused for their size: a frame over the socket limit (frame) or a compressed patch inflating past 16 MiB (inflated)',
  ['kind'],
);

export const fastcastUnknownOps = registered(
  Counter,
  'courtside_fastcast_unknown_ops_total',
  'FastCast frames with an op courtside does not know (ignored)',
);

export const fastcastMaintenance = registered(
  Counter,
  'courtside_fastcast_maintenance_total',
  'FastCast maintenance (M) messages: the socket is closed and opened again after a backoff',
);

export const fastcastCheckpointFailures = registered(
  Counter,
  'courtside_fastcast_checkpoint_failures_total',
  'FastCast checkpoints not used, by reason (download, not_object, bad_wrapper, no_header, other_game)',
  ['reason'],
);

export const fastcastPushLag = new Histogram({
  name: 'courtside_fastcast_push_lag_seconds',
  help: "Delay between a FastCast patch's publication time (its ts) and its receipt",
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
  registers: [registry],
});

// Labelled so that a daemon without Redis exports no series at all (an unlabelled gauge reads 0).
export const redisUp = registered(
  Gauge,
  'courtside_redis_up',
  'Whether Redis answered a ping within 1 s at the last scrape (1) or not (0), by topology (standalone, sentinel, cluster); absent without Redis',
  ['topology'],
);

export const eventLogRetention = registered(
  Gauge,
  'courtside_event_log_retention',
  'Events the event log keeps before it trims the oldest (COURTSIDE_RETENTION times the leagues)',
);

export const eventLogRetentionSeconds = registered(
  Gauge,
  'courtside_event_log_retention_window_seconds',
  'How long the event log keeps events before it trims them by age (COURTSIDE_RETENTION_HOURS)',
);

export const eventLogCapped = registered(
  Counter,
  'courtside_event_log_capped_events_total',
  'Events younger than the retention window that the count cap (COURTSIDE_RETENTION) trimmed',
);

export const eventLogTrimmed = registered(
  Gauge,
  'courtside_event_log_trimmed',
  'Whether the event log has reached its retention and trims its oldest events (1) or not yet (0)',
);

export const eventLogSpan = registered(
  Gauge,
  'courtside_event_log_span_seconds',
  'Age of the oldest event the log still holds: how far back a client can resume with since',
);

export const liveBudgetRate = registered(
  Gauge,
  'courtside_live_budget_requests_per_second',
  'Summary requests a second the live lane may send upstream, shared by every live game (COURTSIDE_LIVE_BUDGET)',
);

// Observed at each summary request, never labelled by game (ids would grow the series without
// bound): the spread of a league's effective intervals shows how far the budget stretches them.
export const pollIntervalEffective = new Histogram({
  name: 'courtside_poll_interval_effective_seconds',
  help: 'Effective summary interval of a game when its summary is requested (stretched past the configured one when the live budget binds)',
  labelNames: ['league'] as const,
  buckets: [1, 2, 3, 5, 8, 12, 15, 20, 30, 60],
  registers: [registry],
});
