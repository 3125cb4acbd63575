import { ttlArg, type CommandRedis, type Run } from './redis-commands.js';
import type { RedisKeys } from './redis-keys.js';
import type { Bus } from './types.js';

/** The leases on Redis: one key per game holding its owner, taken and released by script (redis-scripts.ts). */
export type LeaseMethods = Pick<Bus, 'acquireLease' | 'releaseLease'>;

export function leaseMethods(cmd: CommandRedis, keys: RedisKeys, run: Run): LeaseMethods {
  const leaseKey = keys.lease;
  return {
    async acquireLease(game, owner, ttlMs) {
      const held = await run('acquireLease', () =>
        cmd.courtsideAcquire(leaseKey(game), owner, ttlArg(ttlMs)),
      );
      return held === 2 ? 'taken' : held === 1 ? 'renewed' : false;
    },

    async releaseLease(game, owner) {
      await run('releaseLease', () => cmd.courtsideRelease(leaseKey(game), owner));
    },
  };
}
