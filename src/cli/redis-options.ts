import type { Command } from 'commander';
import { prefixForTopology } from '../bus/redis-keys.js';
import { InvalidOptionsError } from '../core/errors.js';
import { InvalidRedisUrlError, parseRedisUrl } from '../bus/redis-url.js';

/** The Redis of the commands that work on the queues directly (`worker`, `webhooks`). */
export interface RedisFlags {
  redis?: string;
  prefix?: string;
}

/** `--redis` (required: these commands have nothing to work on without Redis) and `--prefix`. */
export function redisOptions(cmd: Command): Command {
  return cmd
    .option('--redis <url>', 'Redis URL (REDIS_URL, required)')
    .option('--prefix <prefix>', 'Redis key prefix (COURTSIDE_PREFIX, default courtside:)');
}

/**
 * `--redis`, else `REDIS_URL`, parsed as `serve` parses it; `InvalidOptionsError` when neither is
 * set or the URL is wrong (naming where it came from and the part at fault).
 */
export function redisUrlOf(flags: RedisFlags, env: NodeJS.ProcessEnv): string {
  const url = flags.redis ?? env.REDIS_URL;
  if (!url) throw new InvalidOptionsError('--redis or REDIS_URL is required');
  try {
    parseRedisUrl(url);
  } catch (err) {
    if (!(err instanceof InvalidRedisUrlError)) throw err;
    throw new InvalidOptionsError(`${flags.redis !== undefined ? '--redis' : 'REDIS_URL'}: ${err.message}`);
  }
  return url;
}

/**
 * `--prefix`, else `COURTSIDE_PREFIX`, else the project's default; on a Redis Cluster (see
 * `prefixForTopology`) the default has a hash tag and a prefix without one is refused.
 */
export function prefixOf(flags: RedisFlags, env: NodeJS.ProcessEnv): string {
  const prefix = flags.prefix ?? (env.COURTSIDE_PREFIX || undefined);
  const url = flags.redis ?? env.REDIS_URL;
  const topology = url ? parseRedisUrl(url).topology : 'standalone';
  try {
    return prefixForTopology(topology, prefix);
  } catch (err) {
    if (!(err instanceof InvalidOptionsError)) throw err;
    throw new InvalidOptionsError(
      `${flags.prefix !== undefined ? '--prefix' : 'COURTSIDE_PREFIX'}: ${err.message}`,
    );
  }
}
