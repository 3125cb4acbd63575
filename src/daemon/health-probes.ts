import { Queue } from 'bullmq';
import type { Engine } from '../../streams/engine.js';
import type { PollerStatus, PushFeedStatus } from '../../streams/engine-types.js';
import { bullPrefix, createRedisConnection, EVENTS_QUEUE, WEBHOOKS_QUEUE } from '../../workers/queues.js';
import { connectRedis, type RedisConnection } from '../bus/redis-connection.js';
import { parseRedisUrl } from '../bus/redis-url.js';
import type { Bus } from '../bus/types.js';
import type { EspnClient } from '../espn-client/client.js';
import { LEAGUES } from '../core/leagues.js';
import type { Logger } from '../core/log.js';
import { gamesFed, onDemandBudgetTokens, queueDepth } from '../core/metrics.js';
import type { HealthRouteOptions, UpstreamTracker } from '../server/routes/index.js';
import type { Config } from './config.js';
import { createStoreProbe } from './store-metrics.js';

// A health check answers in under a second or counts Redis as down.
const REDIS_PING_TIMEOUT_MS = 1_000;

/** What `/healthz` and `/metrics` read: Redis, the queues, the store, the pollers, the live lane. */
export interface Probes {
  pinger: ReturnType<typeof createPinger> | undefined;
  depth: ReturnType<typeof createQueueDepthProbe> | undefined;
  health: HealthRouteOptions;
  beforeMetricsScrape(): Promise<void>;
}

export function createProbes(
  config: Config,
  parts: { bus: Bus; engine: Engine; client: EspnClient; tracker: UpstreamTracker },
  logger: Logger,
): Probes {
  const { bus, engine, client, tracker } = parts;
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
  return { pinger, depth, health, beforeMetricsScrape };
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

const FEED_SOURCES: ReadonlyArray<PushFeedStatus['source']> = ['push', 'polling', 'standby'];

/** The games-fed gauge: the running summary pollers by league and feed, zero where none. */
function countFeeds(statuses: readonly PollerStatus[]): void {
  for (const league of LEAGUES) for (const source of FEED_SOURCES) gamesFed.set({ league, source }, 0);
  for (const s of statuses)
    if (s.feed && s.state !== 'stopped' && s.state !== 'idle')
      gamesFed.inc({ league: s.league, source: s.feed.source });
}
