import { DEFAULT_PREFIX, hashTagOf, prefixForTopology } from '../src/bus/options.js';
import {
  connectRedis,
  type RedisConnection,
  type RedisConnectionOptions,
} from '../src/bus/redis-connection.js';
import { parseRedisUrl } from '../src/bus/redis-url.js';

/** The BullMQ queue every engine event is added to. */
export const EVENTS_QUEUE = 'courtside-events';
/** The BullMQ queue of webhook deliveries (one job per alert or event per subscriber). */
export const WEBHOOKS_QUEUE = 'courtside-webhooks';
/**
 * The name of a queue, shared or of one bot: `courtside-events` (every event, as the daemon adds
 * them), `courtside-events.<bot>` (the bot's copy of each), `courtside-webhooks.<bot>` (its
 * deliveries). Every queue name is made here, so a deployment that needs them shaped (hash tags
 * for Redis Cluster) changes one function.
 */
export function queueName(queue: typeof EVENTS_QUEUE | typeof WEBHOOKS_QUEUE, bot?: string): string {
  return bot === undefined ? queue : `${queue}.${bot}`;
}

/** The project's default Redis key prefix: the bus's, so that workers find the daemon's keys. */
export { DEFAULT_PREFIX };

/**
 * The project prefix a worker or producer uses on the Redis at `redisUrl`: as `serve` chooses it, so
 * a library caller on a Cluster who passes no prefix gets the hash-tagged one rather than keys
 * spread over slots (CROSSSLOT on every script), and an untagged prefix there is refused up front.
 */
export function prefixForRedis(redisUrl: string, prefix: string | undefined): string {
  return prefixForTopology(parseRedisUrl(redisUrl).topology, prefix);
}

/**
 * The BullMQ prefix of `queue`. BullMQ joins its prefix and the queue name with ':' itself, so the
 * project prefix loses its trailing ':' (`courtside:` gives keys `courtside:courtside-events:...`,
 * still under the prefix). A project prefix with a hash tag (a Redis Cluster, `{courtside}:`) gives
 * each queue a hash tag of its own (`courtside:{courtside-events}`): BullMQ's scripts touch many keys
 * of one queue, which must share a slot, and separate tags let the queues live on separate nodes.
 * Every queue is named here with its prefix, so producers and workers always agree on its keys.
 */
export function bullPrefix(prefix: string | undefined, queue: string): string {
  const base = (prefix ?? DEFAULT_PREFIX).replace(/:$/, '');
  if (hashTagOf(base) === undefined) return base;
  return `${base.replace(/[{}]/g, '')}:{${queue}}`;
}

/**
 * BullMQ 6 refuses custom job ids that contain ':' (unless split into exactly 3 parts) and ids that
 * parse as integers. Event ids look like `mens:401585607:play.added:40158560712`, so ':' and '%'
 * are percent-encoded; `fromJobId` reverses it exactly. The `e.` head keeps any id non-numeric.
 */
export function toJobId(eventId: string): string {
  return `e.${eventId.replace(/%/g, '%25').replace(/:/g, '%3A')}`;
}

export function fromJobId(jobId: string): string {
  const body = jobId.startsWith('e.') ? jobId.slice(2) : jobId;
  return body.replace(/%3A/g, ':').replace(/%25/g, '%');
}

/**
 * A Redis connection for BullMQ. BullMQ's ESM build cannot load ioredis from connection options,
 * so it is always handed an instance. Workers (blocking commands) need `maxRetriesPerRequest: null`.
 */
export function createRedisConnection(
  url: string,
  options: Partial<RedisConnectionOptions> = {},
): RedisConnection {
  const redis = connectRedis(url, { name: 'courtside-queue', maxRetriesPerRequest: null, ...options });
  // An 'error' event without a listener would throw; reconnects are ioredis' job, callers log.
  redis.on('error', () => undefined);
  return redis;
}
