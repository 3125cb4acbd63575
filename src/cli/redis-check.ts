import { connectRedis } from '../bus/redis-connection.js';
import { parseRedisUrl, type RedisTopology } from '../bus/redis-url.js';
import { CourtsideError } from '../core/errors.js';
import { redactUrl } from '../daemon/config.js';

/**
 * One attempt to reach Redis before a command starts what depends on it. The daemon's and the
 * workers' own connections retry forever (right for an outage while running), so without this a
 * wrong URL or a Redis that is not up shows as a stream of retries and failed calls instead of
 * one sentence.
 */

// Long enough for a Redis across a network, short enough that a typo is reported at once.
const CHECK_TIMEOUT_MS = 3_000;

/** Redis did not answer at start-up; the URL is shown without its password. */
export class RedisUnreachableError extends CourtsideError {
  readonly url: string;

  constructor(url: string, reason: string, options?: { cause?: unknown }) {
    super('BUS_UNAVAILABLE', `cannot reach Redis at ${redactUrl(url)}: ${reason}`, options);
    this.url = redactUrl(url);
  }
}

/** What a Redis answered: how it is reached, and the server's own word on its version and mode. */
export interface RedisProbe {
  readonly topology: RedisTopology;
  /** `redis_version` of the node that answered, when its INFO gave one. */
  readonly version: string | undefined;
  /** `redis_mode` (standalone, cluster) of that node, when given. */
  readonly mode: string | undefined;
}

/** Resolves once Redis at `url` answers a PING; throws `RedisUnreachableError` otherwise. */
export async function checkRedis(url: string, timeoutMs = CHECK_TIMEOUT_MS): Promise<void> {
  await probeRedis(url, timeoutMs);
}

/** `checkRedis`, and the server's version and mode from `INFO server`. */
export async function probeRedis(url: string, timeoutMs = CHECK_TIMEOUT_MS): Promise<RedisProbe> {
  const { topology } = parseRedisUrl(url);
  const redis = connectRedis(url, {
    name: 'courtside-check',
    lazyConnect: true,
    // One attempt: this is a question, the long-lived connections do the retrying.
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
  });
  // The first error says why (refused, unknown host, timed out); later ones only that it closed.
  let first: Error | undefined;
  redis.on('error', (err: Error) => (first ??= err));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const info = await Promise.race([
      redis
        .connect()
        .then(() => redis.ping())
        .then(() => redis.info('server')),
      timeout,
    ]);
    const field = (name: string): string | undefined =>
      new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim() || undefined;
    return { topology, version: field('redis_version'), mode: field('redis_mode') };
  } catch (err) {
    const cause = first ?? err;
    throw new RedisUnreachableError(url, cause instanceof Error ? cause.message : String(cause), { cause });
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
