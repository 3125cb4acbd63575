import type { Logger } from '../core/log.js';
import type { CommandRedis, Run } from './redis-commands.js';
import type { RedisKeys } from './redis-keys.js';
import { toEvents, type StreamEntry } from './redis-tail.js';
import { checkOffset } from './options.js';
import { compareOffsets, type Bus, type Offset } from './types.js';

/** Reading the log on Redis (its tail is redis-tail.ts): pages, bounds and where "now" is. */
export type RedisLog = Pick<Bus, 'read' | 'bounds'> & {
  /** The newest id ever assigned (even if trimmed), or 0-0: where "from now on" starts. */
  lastGeneratedId(): Promise<Offset>;
};

export function redisLog(
  cmd: CommandRedis,
  keys: RedisKeys,
  run: Run,
  saw: (offset: Offset | null | undefined) => void,
  logger: Logger,
): RedisLog {
  const { stream: streamKey, trimmed: trimmedKey } = keys;

  async function streamInfo(): Promise<Map<string, unknown> | undefined> {
    const flat = await cmd.courtsideStreamInfo(streamKey);
    if (!flat) return undefined;
    const info = new Map<string, unknown>();
    for (let i = 0; i + 1 < flat.length; i += 2) info.set(String(flat[i]), flat[i + 1]);
    return info;
  }

  return {
    async lastGeneratedId() {
      const info = await streamInfo();
      const id = info?.get('last-generated-id');
      if (typeof id !== 'string') return '0-0';
      saw(id);
      return id;
    },

    async read(after, limit) {
      checkOffset(after, 'read');
      if (limit <= 0) return run('read', async () => []);
      const entries = await run(
        'read',
        () =>
          cmd.xrange(streamKey, after === null ? '-' : `(${after}`, '+', 'COUNT', limit) as Promise<
            StreamEntry[]
          >,
      );
      saw(entries.at(-1)?.[0]);
      return toEvents(entries, logger);
    },

    async bounds() {
      const [info, trimmed] = await run('bounds', () => Promise.all([streamInfo(), cmd.get(trimmedKey)]));
      if (!info) return { first: null, last: null, trimmedThrough: trimmed };
      // Our trims are recorded in `trimmed`; an XDEL by hand would show in max-deleted-entry-id.
      const deleted = info.get('max-deleted-entry-id');
      const candidates = [trimmed, typeof deleted === 'string' && deleted !== '0-0' ? deleted : null];
      const known = candidates.filter((o): o is string => o !== null).sort(compareOffsets);
      const last = entryId(info.get('last-entry'));
      saw(last);
      return { first: entryId(info.get('first-entry')), last, trimmedThrough: known.at(-1) ?? null };
    },
  };
}

function entryId(entry: unknown): Offset | null {
  return Array.isArray(entry) && typeof entry[0] === 'string' ? entry[0] : null;
}
