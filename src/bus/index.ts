import type { Logger } from '../core/log.js';
import { createMemoryBus } from './memory.js';
import { createRedisBus } from './redis.js';
import type { Bus } from './types.js';

export interface BusOptions {
  /** Redis when set; otherwise the in-memory bus (single process). */
  redisUrl?: string;
  prefix?: string;
  /** Events kept in the log at most, all leagues together; default 250,000 per league. */
  retention?: number;
  /** Events younger than this (ms) are kept unless the `retention` cap cuts them; default 36 h. */
  retentionMs?: number;
  /** Told how many events younger than `retentionMs` the cap cut. */
  onCapped?: (events: number) => void;
  logger?: Logger;
  /** Redis replicas that must acknowledge each commit (see `RedisBusOptions.waitReplicas`). */
  waitReplicas?: number;
}

/** The bus the daemon runs on: Redis Streams when `redisUrl` is given, else memory. */
export function createBus(options: BusOptions = {}): Bus {
  const { redisUrl, prefix, retention, retentionMs, onCapped, logger, waitReplicas } = options;
  const shared = {
    ...(retention !== undefined ? { retention } : {}),
    ...(retentionMs !== undefined ? { retentionMs } : {}),
    ...(onCapped !== undefined ? { onCapped } : {}),
  };
  if (redisUrl) {
    return createRedisBus({
      url: redisUrl,
      ...(prefix !== undefined ? { prefix } : {}),
      ...shared,
      ...(logger !== undefined ? { logger } : {}),
      ...(waitReplicas !== undefined ? { waitReplicas } : {}),
    });
  }
  return createMemoryBus(shared);
}

export { createMemoryBus, type MemoryBusOptions } from './memory.js';
export { createRedisBus, type RedisBusOptions } from './redis.js';
export { DEFAULT_RETENTION, DEFAULT_RETENTION_PER_LEAGUE, retentionForLeagues } from './options.js';
export { DEFAULT_PREFIX } from './redis-keys.js';
export { compareOffsets, OFFSET_PATTERN } from './types.js';
export type {
  Bus,
  CopyOffer,
  GameKey,
  GameStateDelta,
  LeaseGrant,
  LogBounds,
  NewGameEvent,
  Offset,
  StoredGame,
} from './types.js';
