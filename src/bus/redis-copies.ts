import { ttlArg, type CommandRedis, type Run } from './redis-commands.js';
import type { RedisKeys } from './redis-keys.js';
import type { Bus, CopyOffer } from './types.js';

/** The copy offers on Redis (see `Bus.offerCopy`): one key per game holding the best, by script. */
export type CopyMethods = Pick<Bus, 'offerCopy'>;

export function copyMethods(cmd: CommandRedis, keys: RedisKeys, run: Run): CopyMethods {
  const { offer: offerKey, meta: metaKey } = keys;
  return {
    async offerCopy(game, owner, seq, ttlMs) {
      const reply = await run('offerCopy', () =>
        cmd.courtsideOffer(
          offerKey(game),
          metaKey(game),
          owner,
          seq === null ? '' : String(seq),
          ttlArg(ttlMs),
        ),
      );
      if (reply === null || reply === 'stored') return reply;
      return parseOffer(reply);
    },
  };
}

/** The offer script's `<seq>|<owner>`. */
function parseOffer(reply: string): CopyOffer {
  const bar = reply.indexOf('|');
  return { seq: Number(reply.slice(0, bar)), owner: reply.slice(bar + 1) };
}
