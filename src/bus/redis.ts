import type { GameEvent } from '../model/events.js';
import { BusClosedError, BusUnavailableError, InvalidOptionsError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import { RepeatedErrorLog } from '../core/repeated-log.js';
import { commitToken } from './commit-token.js';
import { connectRedis, type RedisConnection } from './redis-connection.js';
import { prefixForTopology, redisKeys } from './redis-keys.js';
import { gameMethods } from './redis-games.js';
import { defineBusCommands, type BusCommands } from './redis-scripts.js';
import { tailFrom, toEvents, type StreamEntry } from './redis-tail.js';
import { parseRedisUrl } from './redis-url.js';
import { pause, watchConnection, watchEpoch, withReason } from './redis-watch.js';
import {
  checkOffset,
  checkRetention,
  checkRetentionMs,
  DEFAULT_RETENTION,
  DEFAULT_RETENTION_MS,
  timeTrimSlackMs,
} from './options.js';
import { compareOffsets, type Bus, type LogBounds, type Offset } from './types.js';

export { gameMetaKey } from './redis-keys.js';

export interface RedisBusOptions {
  url: string;
  /** Key prefix, ends with ':'; default `courtside:` (`{courtside}:` on a Redis Cluster, which needs a hash tag). */
  prefix?: string;
  /** Events kept in the stream (all leagues together, approximately); default 100,000 per league. */
  retention?: number;
  /** Events younger than this are kept (unless `retention` caps them); default 36 h. */
  retentionMs?: number;
  /** Wall clock in ms, for the time window; default `Date.now` (tests pass a virtual one). */
  now?: () => number;
  /** Told how many events younger than `retentionMs` a commit's count trim cut (also logged). */
  onCapped?: (events: number) => void;
  logger?: Logger;
  /**
   * Replicas that must have every commit (Redis `WAIT`) before it counts as done; default 0. A
   * commit they do not acknowledge within `REPLICA_WAIT_MS` fails (`BUS_UNAVAILABLE`), so the engine
   * neither emits its events nor moves its state on, and re-commits them (same events, same ids)
   * on its next poll: onto the promoted replica if the primary died before replicating them.
   */
  waitReplicas?: number;
}

type CommandRedis = RedisConnection & BusCommands;

/** Normal commands give up after this many reconnect attempts, so callers see an error in < 1 s and back off. */
const MAX_RETRIES_PER_REQUEST = 2;
/** How long a commit waits for its replicas: a healthy replica acknowledges in milliseconds. */
const REPLICA_WAIT_MS = 1_000;
/** Shutdown must finish within the daemon's 5 s budget even if Redis does not answer QUIT. */
const QUIT_TIMEOUT_MS = 1_000;
/**
 * The bus on Redis. The log is one stream `<prefix>events` (ids are the offsets; trimmed in
 * chunks like `MAXLEN ~`, the newest trimmed id kept in `<prefix>events:trimmed`); game state is `<prefix>game:<league>:<id>:meta` (JSON) and `...:entries` (hash of
 * JSON), listed in the set `<prefix>games`; leases are `<prefix>lease:<league>:<id>`.
 *
 * A restart of a Redis without persistence empties the stream. New ids are time-based and so still
 * greater than every id handed out before, so tails carry on from their last id and receive every
 * event committed after the restart; but events committed before the crash that a tail had not yet
 * read are gone, and a client resuming with a `since` from before the restart cannot be told so by
 * the log by itself. So each instance remembers the newest id it has seen and the dataset's epoch
 * (`<prefix>epoch`); on reconnecting to a dataset with another epoch it raises the trimmed-through
 * mark to that id, and such a `since` is reported as a gap (`resume_gap` + snapshot) instead of
 * being resumed silently. Run Redis with AOF where resume must be exact across restarts.
 */
export function createRedisBus(options: RedisBusOptions): Bus {
  // On a Cluster the prefix must carry a hash tag (the default becomes `{courtside}:`).
  // Parsed once: the command connection and every tail connection are opened from it.
  const target = parseRedisUrl(options.url);
  const { topology } = target;
  const prefix = prefixForTopology(topology, options.prefix);
  const retention = checkRetention(options.retention ?? DEFAULT_RETENTION);
  const retentionMs = checkRetentionMs(options.retentionMs ?? DEFAULT_RETENTION_MS);
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const repeats = new RepeatedErrorLog(logger);
  const waitReplicas = options.waitReplicas ?? 0;
  if (waitReplicas > 0 && topology === 'cluster') {
    // WAIT names no key, so a Cluster client cannot send it to the node that holds the log.
    throw new InvalidOptionsError('waitReplicas is not supported on a Redis Cluster');
  }
  const keys = redisKeys(prefix);
  const streamKey = keys.stream;
  const gamesKey = keys.games;
  const trimmedKey = keys.trimmed;
  const { lease: leaseKey, meta: metaKey, entries: entriesKey } = keys;
  const { lastCommit: lastCommitKey, member } = keys;

  const cmd = connectRedis(target, {
    name: 'courtside-bus',
    maxRetriesPerRequest: MAX_RETRIES_PER_REQUEST,
  }) as CommandRedis;
  defineBusCommands(cmd);
  watchConnection(cmd, 'commands', logger, () => closed);
  /** Why the command connection is down: a failed command only says that ioredis gave up retrying. */
  let downReason: string | undefined;
  cmd.on('error', (err: Error) => (downReason = err.message));
  cmd.on('ready', () => (downReason = undefined));

  const tails = new Set<RedisConnection>();
  let closed = false;
  const epochWatch = watchEpoch(cmd, cmd.courtsideEpoch.bind(cmd), keys, logger, repeats);
  const saw = (offset: Offset | null | undefined): void => epochWatch.saw(offset);

  async function run<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    if (closed) throw new BusClosedError(operation);
    try {
      return await fn();
    } catch (err) {
      if (closed) throw new BusClosedError(operation);
      throw new BusUnavailableError(operation, { cause: withReason(err, downReason) });
    }
  }

  async function streamInfo(): Promise<Map<string, unknown> | undefined> {
    const flat = await cmd.courtsideStreamInfo(streamKey);
    if (!flat) return undefined;
    const info = new Map<string, unknown>();
    for (let i = 0; i + 1 < flat.length; i += 2) info.set(String(flat[i]), flat[i + 1]);
    return info;
  }

  /** The newest id ever assigned (even if trimmed), or 0-0: where "from now on" starts. */
  async function lastGeneratedId(): Promise<Offset> {
    const info = await streamInfo();
    const id = info?.get('last-generated-id');
    if (typeof id !== 'string') return '0-0';
    saw(id);
    return id;
  }

  const tailContext = {
    target,
    streamKey,
    logger,
    repeats,
    tails,
    closed: () => closed,
    saw,
    lastGeneratedId,
  };

  /** The ids of a commit's reply, after reporting a `capped:<n>` it ends with. */
  function capReport(reply: string[]): string[] {
    const last = reply.at(-1);
    if (last === undefined || !last.startsWith('capped:')) return reply;
    const cut = Number(last.slice('capped:'.length));
    // Folded while it lasts: a cap too small for the day cuts on every commit.
    repeats.log(
      'warn',
      'retention-capped',
      { events: cut, retention, retentionHours: retentionMs / 3_600_000 },
      'bus: the retention cap trimmed events younger than the retention window; raise COURTSIDE_RETENTION',
    );
    options.onCapped?.(cut);
    return reply.slice(0, -1);
  }

  const games = gameMethods(cmd, keys, run);

  return {
    kind: 'redis',
    retention,
    retentionMs,

    async commit(game, events, delta, owner) {
      // Serialised first: a value JSON cannot encode fails here, before anything is sent.
      const sets = delta.set ?? [];
      const deletes = delta.delete ?? [];
      const args: Array<string | number> = [
        leaseKey(game),
        streamKey,
        metaKey(game),
        entriesKey(game),
        gamesKey,
        trimmedKey,
        lastCommitKey(game),
        owner ?? '',
        retention,
        member(game),
        JSON.stringify(delta.meta ?? null),
        sets.length,
        deletes.length,
        commitToken(events),
        delta.replace === true ? '1' : '',
        Math.floor(now()) - retentionMs,
        Math.floor(now()) - retentionMs - timeTrimSlackMs(retentionMs),
      ];
      for (const [field, value] of sets) args.push(field, JSON.stringify(value ?? null));
      for (const field of deletes) args.push(field);
      for (const event of events) args.push(JSON.stringify(event));
      const reply = await run('commit', () => cmd.courtsideCommit(...args));
      if (reply === null) return null;
      const ids = capReport(reply);
      if (waitReplicas > 0) {
        const acked = await run('commit', () => cmd.wait(waitReplicas, REPLICA_WAIT_MS));
        if (acked < waitReplicas) {
          throw new BusUnavailableError('commit', {
            cause: new Error(
              `${acked} of ${waitReplicas} replica(s) acknowledged the commit within ${REPLICA_WAIT_MS} ms`,
            ),
          });
        }
      }
      saw(ids.at(-1));
      if (ids.length !== events.length) {
        throw new BusUnavailableError('commit', { cause: new Error('id count mismatch') });
      }
      return events.map((event, i) => ({ ...event, offset: ids[i] }) as GameEvent);
    },

    ...games,
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

    async bounds(): Promise<LogBounds> {
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

    tail(after, signal) {
      checkOffset(after, 'tail');
      // "From now on" is fixed when tail() is called, not when iteration starts.
      const start = after !== null ? Promise.resolve(after) : lastGeneratedId();
      start.catch(() => undefined);
      return tailFrom(tailContext, start, signal);
    },

    onDataLost(listener) {
      return epochWatch.onDataLost(listener);
    },

    async close() {
      if (closed) return;
      closed = true;
      repeats.flush();
      epochWatch.clear();
      for (const conn of tails) conn.disconnect();
      tails.clear();
      if (cmd.status === 'ready') {
        await Promise.race([cmd.quit().catch(() => undefined), pause(QUIT_TIMEOUT_MS)]);
      }
      cmd.disconnect();
    },
  };
}

function entryId(entry: unknown): Offset | null {
  return Array.isArray(entry) && typeof entry[0] === 'string' ? entry[0] : null;
}
