import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';

/**
 * Real Redis for tests. Order: REDIS_URL when set; else a Redis 7 container via testcontainers
 * when a Docker engine answers; else the tests skip with the reason. Every caller gets its own
 * key prefix and removes its keys afterwards, so runs never see each other's data.
 */
export interface TestRedis {
  url: string;
  /** Unique per call, ends with ':'. */
  prefix: string;
  /** Deletes every key under the prefix and closes helper connections. */
  cleanup(): Promise<void>;
}

let resolved: Promise<{ url: string } | { reason: string }> | undefined;

async function resolveRedis(): Promise<{ url: string } | { reason: string }> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) {
    const client = new Redis(fromEnv, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    try {
      await client.connect();
      await client.ping();
      return { url: fromEnv };
    } catch (err) {
      return { reason: `REDIS_URL=${fromEnv} does not answer: ${(err as Error).message}` };
    } finally {
      client.disconnect();
    }
  }
  try {
    const { GenericContainer } = await import('testcontainers');
    const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    process.once('exit', () => void container.stop());
    return { url: `redis://${container.getHost()}:${container.getMappedPort(6379)}` };
  } catch (err) {
    return {
      reason: `REDIS_URL is unset and no Docker engine is reachable for testcontainers (${(err as Error).message.split('\n')[0]})`,
    };
  }
}

/** Resolves once per test file. Use with `describe.skipIf(!redis)`. */
export async function getTestRedis(): Promise<TestRedis | undefined> {
  resolved ??= resolveRedis();
  const r = await resolved;
  if ('reason' in r) {
    console.warn(`[skip] Redis tests skipped: ${r.reason}`);
    return undefined;
  }
  const prefix = `courtside-test:${randomUUID().slice(0, 8)}:`;
  return {
    url: r.url,
    prefix,
    cleanup: () => deleteKeys(r.url, prefix),
  };
}

/**
 * Hooks for a `describe` on Redis: before each test `use` gets a fresh key prefix; after it the
 * returned closers run, newest first, and then the prefix's keys are deleted.
 */
export function redisPerTest(use: (redis: TestRedis) => void): Array<() => Promise<void>> {
  const closers: Array<() => Promise<void>> = [];
  let current: TestRedis | undefined;
  beforeEach(async () => {
    current = await getTestRedis();
    if (!current) throw new Error('Redis went away after the file found it');
    use(current);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await current?.cleanup();
  });
  return closers;
}

/** Deletes every key under `prefix` (tests and benchmarks leave nothing behind on a shared Redis). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
