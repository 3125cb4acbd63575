import { InvalidOptionsError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import { RepeatedErrorLog } from '../core/repeated-log.js';
import type { RedisConnection } from './redis-connection.js';
import { connectCommands } from './redis-commands.js';
import { redisCommit } from './redis-commit.js';
import { copyMethods } from './redis-copies.js';
import { prefixForTopology, redisKeys } from './redis-keys.js';
import { gameMethods } from './redis-games.js';
import { leaseMethods } from './redis-leases.js';
import { redisLog } from './redis-log.js';
import { tailFrom } from './redis-tail.js';
import { parseRedisUrl } from './redis-url.js';
import { pause, watchEpoch } from './redis-watch.js';
import { checkOffset, resolveRetention } from './options.js';
import type { Bus, Offset } from './types.js';

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
   * commit they do not acknowledge within `REPLICA_WAIT_MS` (redis-commit.ts) fails
   * (`BUS_UNAVAILABLE`), so the engine neither emits its events nor moves its state on, and
   * re-commits them (same events, same ids) on its next poll: onto the promoted replica if the
   * primary died before replicating them.
   */
  waitReplicas?: number;
}

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
 *
 * The parts, one module each: the command connection (redis-commands.ts), the commit
 * (redis-commit.ts), reading the log (redis-log.ts) and tailing it (redis-tail.ts), game state
 * (redis-games.ts), leases (redis-leases.ts), copy offers (redis-copies.ts), the epoch watch
 * (redis-watch.ts), all over the keys of redis-keys.ts and the scripts of redis-scripts.ts.
 */
export function createRedisBus(options: RedisBusOptions): Bus {
  // On a Cluster the prefix must carry a hash tag (the default becomes `{courtside}:`).
  // Parsed once: the command connection and every tail connection are opened from it.
  const target = parseRedisUrl(options.url);
  const { topology } = target;
  const prefix = prefixForTopology(topology, options.prefix);
  const { retention, retentionMs } = resolveRetention(options);
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const repeats = new RepeatedErrorLog(logger);
  const waitReplicas = options.waitReplicas ?? 0;
  if (waitReplicas > 0 && topology === 'cluster') {
    // WAIT names no key, so a Cluster client cannot send it to the node that holds the log.
    throw new InvalidOptionsError('waitReplicas is not supported on a Redis Cluster');
  }
  const keys = redisKeys(prefix);

  let closed = false;
  const { cmd, run } = connectCommands(target, logger, () => closed);
  const tails = new Set<RedisConnection>();
  const epochWatch = watchEpoch(cmd, cmd.courtsideEpoch.bind(cmd), keys, logger, repeats);
  const saw = (offset: Offset | null | undefined): void => epochWatch.saw(offset);
  const log = redisLog(cmd, keys, run, saw, logger);
  const tailContext = {
    target,
    streamKey: keys.stream,
    logger,
    repeats,
    tails,
    closed: () => closed,
    saw,
    lastGeneratedId: log.lastGeneratedId,
  };
  const commitContext = { cmd, keys, run, retention, retentionMs, now, waitReplicas, repeats, saw };

  return {
    kind: 'redis',
    retention,
    retentionMs,
    commit: redisCommit({ ...commitContext, onCapped: options.onCapped }),
    ...gameMethods(cmd, keys, run),
    ...leaseMethods(cmd, keys, run),
    ...copyMethods(cmd, keys, run),
    read: log.read,
    bounds: log.bounds,

    tail(after, signal) {
      checkOffset(after, 'tail');
      // "From now on" is fixed when tail() is called, not when iteration starts.
      const start = after !== null ? Promise.resolve(after) : log.lastGeneratedId();
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
