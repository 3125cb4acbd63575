import type { Bus } from '../bus/types.js';
import type { RedisTopology } from '../bus/redis-url.js';
import {
  eventLogRetention,
  eventLogRetentionSeconds,
  eventLogSpan,
  eventLogTrimmed,
  redisUp,
} from '../core/metrics.js';

/**
 * The gauges of the store, read when Prometheus scrapes: whether Redis answers, and how much of
 * its history the event log holds (its retention, whether it trims, the age of its oldest event).
 * Together they say when clients can no longer resume across an outage of a given length.
 */
export interface StoreProbe {
  refresh(): Promise<void>;
}

export interface StoreProbeOptions {
  bus: Pick<Bus, 'retention' | 'retentionMs' | 'bounds'>;
  /** Absent: no Redis, and no `courtside_redis_up`. */
  redis?: {
    /** Resolves when Redis answers, rejects when not. */
    ping: () => Promise<unknown>;
    topology: RedisTopology;
  };
  /** A scrape must not hang on a Redis that is away: the log read gives up after this long. */
  timeoutMs: number;
  now?: () => number;
}

export function createStoreProbe(options: StoreProbeOptions): StoreProbe {
  const now = options.now ?? Date.now;
  eventLogRetention.set(options.bus.retention);
  if (options.bus.retentionMs !== undefined) eventLogRetentionSeconds.set(options.bus.retentionMs / 1000);
  return {
    async refresh() {
      const [up] = await Promise.all([ping(options.redis?.ping), readLog()]);
      if (up !== undefined) redisUp.set({ topology: options.redis!.topology }, up ? 1 : 0);
    },
  };

  async function readLog(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), options.timeoutMs);
    });
    try {
      const bounds = await Promise.race([options.bus.bounds(), timeout]);
      // Unknown while the log cannot be read: the gauges keep their last value, as a gauge would.
      if (!bounds) return;
      eventLogTrimmed.set(bounds.trimmedThrough === null ? 0 : 1);
      const firstMs = bounds.first === null ? NaN : parseInt(bounds.first, 10);
      eventLogSpan.set(Number.isFinite(firstMs) ? Math.max(0, (now() - firstMs) / 1000) : 0);
    } catch {
      // Redis away: `courtside_redis_up` says so.
    } finally {
      clearTimeout(timer);
    }
  }
}

async function ping(redisPing: (() => Promise<unknown>) | undefined): Promise<boolean | undefined> {
  if (!redisPing) return undefined;
  try {
    await redisPing();
    return true;
  } catch {
    return false;
  }
}
