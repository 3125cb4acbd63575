import { RedisProcess, haveRedisServer } from './redis-process.js';

/**
 * Gives a fresh clone's `npm test` a real Redis: when REDIS_URL is unset and a `redis-server`
 * binary is on the PATH, one is started on a free port for the whole run (no persistence) and
 * stopped after it. Test files are forked after global setup, so they inherit REDIS_URL.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.REDIS_URL) return;
  if (!(await haveRedisServer())) {
    console.warn(
      '[redis] REDIS_URL is unset and no redis-server is on the PATH: tests that need Redis try testcontainers, then skip',
    );
    return;
  }
  const server = await RedisProcess.start();
  process.env.REDIS_URL = server.url;
  console.log(`[redis] started redis-server for this run at ${server.url}`);
  return () => server.stop();
}
