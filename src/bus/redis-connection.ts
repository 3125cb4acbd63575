import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { backoffDelay } from '../core/backoff.js';
import { parseRedisUrl, type RedisTarget } from './redis-url.js';

/**
 * The one place courtside opens a Redis connection (the bus and its readers, the daemon's probes,
 * the command line's check, the producer, the workers and their BullMQ queues), so every part
 * reaches a single server, a Sentinel-managed primary or a Cluster alike from one `REDIS_URL`.
 */
export type RedisConnection = Redis | Cluster;

export interface RedisConnectionOptions {
  /** Shown in `CLIENT LIST`, so an operator can tell courtside's connections apart. */
  name: string;
  /** Reconnect attempts a command waits through before failing; `null`: forever (blocking readers, BullMQ workers). */
  maxRetriesPerRequest?: number | null;
  /** `false`: commands fail at once while disconnected instead of queueing (health checks). */
  enableOfflineQueue?: boolean;
  lazyConnect?: boolean;
  connectTimeout?: number;
  /** Delay before reconnect attempt n, or `null` to give up; default `reconnectDelay`. */
  retryStrategy?: (attempt: number) => number | null;
}

/**
 * Reconnects back off from 100 ms to 1 s with jitter: a restarted or promoted Redis is found within
 * about 1 s. The sentinels' `+switch-master` does not cut a reconnect wait short (ioredis only acts
 * on it for a connected client), so during a failover this cap is what stands between the
 * promotion and every connection's return; a refused connection attempt costs nothing worth a
 * longer wait.
 */
export function reconnectDelay(attempt: number): number {
  // ioredis counts attempts from 1.
  return backoffDelay(attempt - 1, { baseMs: 100, maxMs: 1_000 });
}

// A node that stays a replica (a plain redis:// URL naming it) answers READONLY again after every
// reconnect: at most one reconnect per this long, so such a connection fails its writes (and its
// caller backs off) instead of reconnecting in a loop.
const READONLY_RECONNECT_EVERY_MS = 5_000;

/**
 * After a failover the old primary may come back as a replica while a connection still points at
 * it; it then answers every write with `READONLY`. Reconnecting (2: and re-sending the command)
 * makes Sentinel's current primary (or a DNS name's new target) be looked up again, instead of
 * repeating the error until the process restarts. One policy per connection.
 */
export function reconnectOnReadonly(now: () => number = Date.now): (err: Error) => 2 | false {
  let last = -Infinity;
  return (err) => {
    if (!err.message.startsWith('READONLY')) return false;
    if (now() - last < READONLY_RECONNECT_EVERY_MS) return false;
    last = now();
    return 2;
  };
}

/** Opens a connection to the Redis `url` names (see `parseRedisUrl` for the forms). */
export function connectRedis(url: string | RedisTarget, options: RedisConnectionOptions): RedisConnection {
  const target = typeof url === 'string' ? parseRedisUrl(url) : url;
  const retryStrategy = options.retryStrategy ?? reconnectDelay;
  const node: RedisOptions = {
    connectionName: options.name,
    reconnectOnError: reconnectOnReadonly(),
    ...(options.maxRetriesPerRequest !== undefined
      ? { maxRetriesPerRequest: options.maxRetriesPerRequest }
      : {}),
    ...(options.connectTimeout !== undefined ? { connectTimeout: options.connectTimeout } : {}),
    ...(target.username !== undefined ? { username: target.username } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
  };
  const queueing = {
    ...(options.enableOfflineQueue !== undefined ? { enableOfflineQueue: options.enableOfflineQueue } : {}),
    ...(options.lazyConnect !== undefined ? { lazyConnect: options.lazyConnect } : {}),
  };

  if (target.topology === 'cluster') {
    const clusterOptions: ClusterOptions = {
      redisOptions: node,
      ...queueing,
      clusterRetryStrategy: (attempt) => retryStrategy(attempt),
      // Replicas are never read from: the log's readers must see every write at once.
      scaleReads: 'master',
    };
    return new Cluster(
      target.hosts.map((h) => ({ host: h.host, port: h.port })),
      clusterOptions,
    );
  }
  if (target.topology === 'sentinel') {
    const conn = new Redis({
      ...node,
      ...queueing,
      retryStrategy,
      db: target.db,
      sentinels: target.hosts.map((h) => ({ host: h.host, port: h.port })),
      name: target.masterName!,
      role: 'master',
      // Sentinels announce a switch of primary; the connection moves at once instead of at its next error.
      failoverDetector: true,
      ...(target.sentinelUsername !== undefined ? { sentinelUsername: target.sentinelUsername } : {}),
      ...(target.sentinelPassword !== undefined ? { sentinelPassword: target.sentinelPassword } : {}),
      ...(target.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    });
    reconnectAfterUnaskedEnd(conn, retryStrategy);
    return conn;
  }
  const [server] = target.hosts;
  return new Redis({
    ...node,
    ...queueing,
    retryStrategy,
    host: server!.host,
    port: server!.port,
    db: target.db,
  });
}

/**
 * ioredis ends a Sentinel connection for good (status `end`, no further retry) when a reconnect's
 * connect fails rather than its socket: one way is a sentinel's `+switch-master` reaching the
 * failover detector while the connection looks the primary up again, which closes the connector in
 * the middle of the connect. Seen after a primary's SIGKILL, as the sentinels announce the switch
 * one after another: the job producer's connection answered `Connection is closed.` to every
 * command for the rest of the game. So an end this process did not ask for (`disconnect()` or
 * `quit()`) is followed by a new connect, at the connection's own reconnect pace; a retry strategy
 * that gives up (`null`) is respected.
 */
export function reconnectAfterUnaskedEnd(
  conn: Redis,
  retryStrategy: (attempt: number) => number | null,
): void {
  let asked = false;
  const disconnect = conn.disconnect.bind(conn);
  conn.disconnect = (reconnect = false): void => {
    if (!reconnect) asked = true;
    disconnect(reconnect);
  };
  const quit = conn.quit.bind(conn);
  conn.quit = ((...args: Parameters<Redis['quit']>) => {
    asked = true;
    return quit(...args);
  }) as Redis['quit'];
  let attempts = 0;
  conn.on('ready', () => (attempts = 0));
  conn.on('end', () => {
    if (asked) return;
    const delay = retryStrategy(++attempts);
    if (delay === null) return;
    setTimeout(() => {
      if (!asked && conn.status === 'end') conn.connect().catch(() => undefined);
    }, delay).unref();
  });
}
