import type { Command } from 'commander';
import { DEFAULT_PREFIX } from '../../workers/queues.js';
import { InvalidOptionsError } from '../core/errors.js';

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

/** `--redis`, else `REDIS_URL`; `InvalidOptionsError` when neither is set. */
export function redisUrlOf(flags: RedisFlags, env: NodeJS.ProcessEnv): string {
  const url = flags.redis ?? env.REDIS_URL;
  if (!url) throw new InvalidOptionsError('--redis or REDIS_URL is required');
  return url;
}

/** `--prefix`, else `COURTSIDE_PREFIX`, else the project's default. */
export function prefixOf(flags: RedisFlags, env: NodeJS.ProcessEnv): string {
  return flags.prefix ?? env.COURTSIDE_PREFIX ?? DEFAULT_PREFIX;
}
