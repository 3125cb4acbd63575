import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Queue } from 'bullmq';
import { connectRedis, type RedisConnection } from '../bus/redis-connection.js';
import type { Subscription } from 'rxjs';
import type { Engine } from '../../streams/engine.js';
import { createEngine } from '../../streams/engine.js';
import { createEventProducer } from '../../workers/producer.js';
import { bullPrefix, createRedisConnection, EVENTS_QUEUE, WEBHOOKS_QUEUE } from '../../workers/queues.js';
import { createBus } from '../bus/index.js';
import { parseRedisUrl } from '../bus/redis-url.js';
import { createStoreProbe } from './store-metrics.js';
import type { Bus } from '../bus/types.js';
import { describeConfig, type Config } from './config.js';
import type { PushConfig } from './push-config.js';
import { createFastcastClient } from '../espn/fastcast-client.js';
import { fastcastClientOptions } from './fastcast-options.js';
import type { EnginePush, PollerStatus, PushFeedStatus } from '../../streams/engine-types.js';
import { DEFAULT_LEAGUES, LEAGUES } from '../core/leagues.js';
import { createClient, type CourtsideClient } from '../client/client.js';
import { silentLogger, type Logger } from '../core/log.js';
import { eventLogCapped, gamesFed, instanceRole, onDemandBudgetTokens, queueDepth } from '../core/metrics.js';
import { polls, servesViewers } from '../core/role.js';
import {
  createApiRoutes,
  createHealthRoute,
  createMetricsRoute,
  createUpstreamTracker,
  describeUpstreamFailure,
  OFFLINE_HINT,
  type UpstreamHealth,
} from '../server/routes/index.js';
import type { RouteHandler } from '../server/http-types.js';
import { createDaemonServer, type DaemonServer } from '../server/server.js';
import { createFirstPaint } from '../server/overlay-first-paint.js';
import { createProbeServer } from '../server/probe-server.js';
import { overlayRoute } from '../server/overlay-page.js';
import { clientScriptRoute } from '../server/live-client-script.js';
import { alertMomentRules } from './moment-rules.js';
import type { RuleSettings } from '../../workers/rules-file.js';

/**
 * The daemon: one client, one bus, one engine, the job producer (with Redis), and one HTTP
 * server carrying the WebSocket gateway, SSE and the HTTP API. `close()` takes it down in the
 * order that loses nothing: pollers stop, queued jobs and the log are flushed, clients are told
 * (1001 "going away"), leases are released, connections closed.
 */
export interface Daemon {
  /** `http://127.0.0.1:PORT` once started. */
  readonly url: string;
  readonly engine: Engine;
  readonly bus: Bus;
  readonly server: DaemonServer;
  readonly client: CourtsideClient;
  readonly instanceId: string;
  start(): Promise<void>;
  /** Idempotent; resolves within `closeTimeoutMs` whatever a component does. */
  close(): Promise<void>;
}

export interface DaemonOptions {
  logger?: Logger;
  /** Extra routes tried after the HTTP API's and the overlay page's. */
  routes?: RouteHandler[];
  /** Client overrides (tests shorten timeouts and retries). */
  client?: { timeoutMs?: number; retries?: number; cache?: boolean };
  instanceId?: string;
  closeTimeoutMs?: number;
  /** The lower thirds' rule settings when a page names none (default: every rule, its defaults). */
  momentRules?: RuleSettings;
  /**
   * Live games over FastCast, with the summary poll as reconciliation and safety net; absent or
   * null: polling only. `courtside serve` turns it on unless COURTSIDE_PUSH=off (push-config.ts).
   */
  push?: PushConfig | null;
  /** What push does, as said at start-up (push-plan.ts): shown on the home page. */
  pushNotice?: string;
}

// SIGTERM must end the process within 5 s (orchestrators kill after that); 4.5 s leaves room to exit.
const DEFAULT_CLOSE_TIMEOUT_MS = 4_500;
// A health check answers in under a second or counts Redis as down.
const REDIS_PING_TIMEOUT_MS = 1_000;

export function createDaemon(config: Config, options: DaemonOptions = {}): Daemon {
  const logger = options.logger ?? silentLogger;
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;

  const client = createClient({
    upstream: config.upstream,
    ...(config.userAgent !== undefined
      ? { userAgent: config.userAgent, forceUserAgent: config.forceUserAgent }
      : {}),
    onDemandRate: config.onDemandRate,
    onDemandBurst: config.onDemandBurst,
    logger: logger.child({ component: 'client' }),
    ...options.client,
  });
  const tracker = createUpstreamTracker({
    upstream: config.upstream,
    onHealthChange: firstOutcomeNotice(config.upstream, logger),
  });
  // The engine's polls decide the upstream health that /v1/games/live and / show; the routes'
  // calls count for reachability only.
  const pollingClient = tracker.wrap(client, { health: true });
  const trackedClient = tracker.wrap(client);

  const bus = createBus({
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    prefix: config.prefix,
    // The log is one stream for every league, so it keeps the per-league figure for each league
    // polled, and never less than for the two default ones (other instances may poll those).
    retention: config.retention * Math.max(config.leagues.length, DEFAULT_LEAGUES.length),
    retentionMs: config.retentionHours * 3_600_000,
    onCapped: (events) => eventLogCapped.inc(events),
    logger: logger.child({ component: 'bus' }),
    waitReplicas: config.waitReplicas,
  });

  const engine = createEngine({
    client: pollingClient,
    leagues: config.leagues,
    bus,
    instanceId,
    intervals: { summaryMs: config.summaryIntervalMs },
    liveBudget: config.liveBudget,
    // The server is made below, and asked only once games are polled.
    watched: (_league, gameId) => server.watches?.(gameId) ?? false,
    finishedGameTtlMs: config.finishedGameTtlS * 1_000,
    previousDayUntil: config.previousDayUntil,
    ...(options.push ? { push: enginePush(options.push, client, logger) } : {}),
    // The engine names itself in its logs (component: engine).
    logger,
  });

  // A gateway's engine is never started: it only reads game state from the shared log for snapshots.
  const polling = polls(config.role);
  instanceRole.reset();
  instanceRole.set({ role: config.role }, 1);

  const producer =
    config.redisUrl && polling
      ? createEventProducer({
          redisUrl: config.redisUrl,
          prefix: config.prefix,
          logger: logger.child({ component: 'producer' }),
        })
      : undefined;

  const pinger = config.redisUrl ? createPinger(config.redisUrl, logger) : undefined;
  const depth = config.redisUrl ? createQueueDepthProbe(config.redisUrl, config.prefix) : undefined;

  const store = createStoreProbe({
    bus,
    ...(pinger && config.redisUrl
      ? { redis: { ping: pinger.ping, topology: parseRedisUrl(config.redisUrl).topology } }
      : {}),
    timeoutMs: REDIS_PING_TIMEOUT_MS,
  });

  const health = {
    upstream: tracker,
    ...(pinger ? { redisPing: pinger.ping } : {}),
    pollers: () => engine.status(),
    liveLane: { stats: () => client.lanes().live, intervalMs: config.summaryIntervalMs },
    role: config.role,
  };
  const beforeMetricsScrape = async (): Promise<void> => {
    // The budget refills with time, not with requests: read it as of the scrape.
    onDemandBudgetTokens.set(client.budget().tokens);
    // A game's feed moves with what FastCast reports, between polls: counted as of the scrape.
    countFeeds(engine.status());
    await Promise.all([depth?.refresh().catch(() => undefined), store.refresh()]);
  };
  const server = servesViewers(config.role)
    ? createDaemonServer({
        port: config.port,
        host: config.host,
        bus,
        snapshots: engine.snapshots,
        routes: [
          ...createApiRoutes({
            client: trackedClient,
            snapshots: engine.snapshots,
            health,
            upstream: tracker,
            feeds: () => feedsOf(engine.status()),
            auth: config.tokens.length > 0,
            logger: logger.child({ component: 'http' }),
            beforeMetricsScrape,
            role: config.role,
            ...(options.pushNotice !== undefined ? { pushNotice: options.pushNotice } : {}),
          }),
          overlayRoute({
            moments: { rules: alertMomentRules(options.momentRules), bus },
            firstPaint: createFirstPaint(engine.snapshots, bus),
          }),
          clientScriptRoute(),
          ...(options.routes ?? []),
        ],
        tokens: config.tokens,
        origins: config.origins,
        viewerLimits: {
          rateLimit: config.rateLimit,
          tokenRateLimits: config.tokenRateLimits,
          trustedProxies: config.trustedProxies,
          streamConnectionsPerAddress: config.streamConnectionsPerAddress,
          subscribeRateLimit: config.subscribeRateLimit,
        },
        logger: logger.child({ component: 'server' }),
      })
    : createProbeServer({
        port: config.port,
        host: config.host,
        routes: [
          createHealthRoute(health),
          createMetricsRoute({ beforeScrape: beforeMetricsScrape }),
          ...(options.routes ?? []),
        ],
        tokens: config.tokens,
        logger: logger.child({ component: 'server' }),
      });

  let events: Subscription | undefined;
  let closing: Promise<void> | undefined;
  let started = false;

  async function start(): Promise<void> {
    if (started) return;
    started = true;
    logger.info({ config: describeConfig(config), instanceId }, 'starting courtside');
    await server.start();
    events = engine.events$.subscribe({
      next: (event) => {
        logger.debug({ event }, `${event.league} ${event.gameId} ${event.type}`);
        producer?.add(event);
      },
      // The engine's stream should not fail; if it does, say so rather than die.
      error: (err: unknown) => logger.error({ err }, 'engine event stream failed'),
    });
    if (polling) engine.start();
  }

  async function shutdown(): Promise<void> {
    const step = async (name: string, work: () => Promise<void> | void): Promise<void> => {
      try {
        await work();
      } catch (err) {
        logger.warn({ err, step: name }, 'shutdown step failed');
      }
    };
    // Pollers first (the engine releases its leases as it stops them), so nothing new arrives.
    await step('engine', () => engine.close());
    events?.unsubscribe();
    await step('producer', () => producer?.close());
    // Clients get 1001 after the last events were fanned out.
    await step('server', () => server.close());
    await step('bus', () => bus.close());
    await step('client', () => client.close());
    await step('redis ping', () => pinger?.close());
    await step('queue depth', () => depth?.close());
  }

  function close(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        logger.warn({ timeoutMs: closeTimeoutMs }, 'shutdown did not finish in time; giving up on the rest');
        resolve();
      }, closeTimeoutMs);
      timer.unref();
      void shutdown().finally(() => {
        clearTimeout(timer);
        logger.info('courtside stopped');
        resolve();
      });
    });
    return closing;
  }

  return {
    get url() {
      return server.url;
    },
    engine,
    bus,
    server,
    client,
    instanceId,
    start,
    close,
  };
}

/**
 * One line when the very first poll fails, naming what failed and how to run without the upstream:
 * a newcomer without network otherwise sees only the engine's per-poll warnings. Said once; a
 * failure after the upstream has answered is the per-poll warnings' to tell.
 */
function firstOutcomeNotice(
  upstream: string,
  logger: Logger,
): (health: UpstreamHealth, error?: unknown) => void {
  let told = false;
  return (health, error) => {
    if (told) return;
    told = true;
    if (health.ok !== false) return;
    logger.warn(
      { code: health.lastError?.code },
      `${describeUpstreamFailure(upstream, error)}. The pollers keep retrying; ${OFFLINE_HINT}`,
    );
  };
}

/**
 * Queue depth for `/metrics`, read from BullMQ when Prometheus scrapes (the workers may run in
 * other processes, so this process's gauges would otherwise only know its own buffer).
 */
function createQueueDepthProbe(
  url: string,
  prefix: string,
): { refresh(): Promise<void>; close(): Promise<void> } {
  let queues: Queue[] | undefined;
  let connection: RedisConnection | undefined;
  return {
    async refresh() {
      if (!queues) {
        // Fail fast while Redis is away: a scrape must not hang on it.
        connection = createRedisConnection(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
        queues = [EVENTS_QUEUE, WEBHOOKS_QUEUE].map(
          (name) => new Queue(name, { connection: connection!, prefix: bullPrefix(prefix, name) }),
        );
        for (const queue of queues) queue.on('error', () => undefined);
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('queue depth timed out')), REDIS_PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([
          Promise.all(
            queues.map(async (queue) => {
              const counts = await queue.getJobCounts('waiting', 'delayed', 'prioritized');
              queueDepth.set(
                { queue: queue.name },
                Object.values(counts).reduce((a, b) => a + b, 0),
              );
            }),
          ),
          timeout,
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await Promise.all((queues ?? []).map((q) => q.close().catch(() => undefined)));
      connection?.disconnect();
    },
  };
}

/** A dedicated connection for `/healthz`, so a busy blocking reader never delays the answer. */
function createPinger(url: string, logger: Logger): { ping(): Promise<number>; close(): Promise<void> } {
  const redis = connectRedis(url, {
    name: 'courtside-health',
    lazyConnect: true,
    // Fail fast instead of queueing while disconnected: health must reflect now.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
  });
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    // ioredis reconnects by itself; one line a minute is enough to say Redis is away.
    if (Date.now() - lastLogged > 60_000) {
      lastLogged = Date.now();
      logger.warn({ err: err.message }, 'redis (health connection) unavailable');
    }
  });
  redis.connect().catch(() => undefined);
  return {
    async ping() {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      let onReady: (() => void) | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('redis did not answer within 1 s')), REDIS_PING_TIMEOUT_MS);
      });
      try {
        // Right after start (or a reconnect) the connection may not be ready yet: wait for it, within the timeout.
        const ready =
          redis.status === 'ready'
            ? Promise.resolve()
            : new Promise<void>((resolve) => {
                onReady = resolve;
                redis.once('ready', onReady);
              });
        await Promise.race([ready.then(() => redis.ping()), timeout]);
      } finally {
        clearTimeout(timer);
        if (onReady) redis.off('ready', onReady);
      }
      return Math.round((performance.now() - started) * 10) / 10;
    },
    async close() {
      redis.disconnect();
    },
  };
}

function enginePush(push: PushConfig, client: CourtsideClient, logger: Logger): EnginePush {
  return {
    reconcileMs: push.reconcileMs,
    connect: (listener) =>
      createFastcastClient(
        fastcastClientOptions(
          push,
          (request) => client.fetchDocument(request),
          logger.child({ component: 'fastcast' }),
        ),
        listener,
      ),
  };
}

const FEED_SOURCES: ReadonlyArray<PushFeedStatus['source']> = ['push', 'polling', 'standby'];

/** The games-fed gauge: the running summary pollers by league and feed, zero where none. */
function countFeeds(statuses: readonly PollerStatus[]): void {
  for (const league of LEAGUES) for (const source of FEED_SOURCES) gamesFed.set({ league, source }, 0);
  for (const s of statuses)
    if (s.feed && s.state !== 'stopped' && s.state !== 'idle')
      gamesFed.inc({ league: s.league, source: s.feed.source });
}

/** Each game's feed from the engine's statuses, by `league:gameId`. */
function feedsOf(statuses: readonly PollerStatus[]): Map<string, PushFeedStatus> {
  const out = new Map<string, PushFeedStatus>();
  for (const s of statuses) if (s.feed && s.gameId !== null) out.set(`${s.league}:${s.gameId}`, s.feed);
  return out;
}
