import { Redis } from 'ioredis';

/** Deletes every key under `prefix`: a benchmark leaves nothing behind on a shared Redis. */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}
