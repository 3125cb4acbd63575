import { BusClosedError } from '../core/errors.js';
import { commitToken } from './commit-token.js';
import { gameMember } from './game-member.js';
import { createMemoryCopies } from './memory-copies.js';
import { createMemoryGames } from './memory-games.js';
import { createMemoryLeases } from './memory-leases.js';
import { createMemoryLog } from './memory-log.js';
import { checkOffset, resolveRetention } from './options.js';
import { serialiseDelta } from './state-json.js';
import type { Bus, GameStateDelta, LogBounds } from './types.js';

export interface MemoryBusOptions {
  /** Events kept in the log at most (all leagues together); default 250,000 per league. */
  retention?: number;
  /** Events younger than this are kept (unless `retention` caps them); default 36 h. */
  retentionMs?: number;
  /** Told how many events younger than `retentionMs` the count cap cut. */
  onCapped?: (events: number) => void;
  /** Wall clock in ms, for offsets and lease expiry; default `Date.now` (tests pass a virtual one). */
  now?: () => number;
}

/**
 * The single-process bus: the log is a bounded ring (memory-log.ts), game state, leases and copy
 * offers live in maps (memory-games.ts, memory-leases.ts, memory-copies.ts). It keeps the Redis
 * implementation's semantics (JSON copies of state, lease owner/TTL fencing, offsets `<ms>-<n>`)
 * so the engine and gateway behave the same on either.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const { retention, retentionMs } = resolveRetention(options);
  const now = options.now ?? Date.now;
  const log = createMemoryLog({ retention, retentionMs, now, onCapped: options.onCapped });
  const games = createMemoryGames(now);
  const leases = createMemoryLeases(now);
  const copies = createMemoryCopies(now);
  let closed = false;

  function ensureOpen(operation: string): void {
    if (closed) throw new BusClosedError(operation);
  }

  return {
    kind: 'memory',
    retention,
    retentionMs,

    async commit(game, events, delta: GameStateDelta, owner) {
      ensureOpen('commit');
      const member = gameMember(game);
      if (owner !== undefined && !leases.holds(member, owner)) return null;
      const token = commitToken(events);
      const resent = games.resent(member, token);
      if (resent) return resent;
      const serialised = serialiseDelta(delta);
      const committed = games.write(member, game, serialised, token, () => events.map(log.append));
      if (committed.length > 0) log.wake();
      return committed;
    },

    async loadGame(game) {
      ensureOpen('loadGame');
      return games.load(gameMember(game));
    },

    async listGames() {
      ensureOpen('listGames');
      return games.list();
    },

    async deleteGame(game) {
      ensureOpen('deleteGame');
      games.delete(gameMember(game));
    },

    async expireGame(game, ttlMs) {
      ensureOpen('expireGame');
      games.expire(gameMember(game), ttlMs);
    },

    async read(after, limit) {
      ensureOpen('read');
      checkOffset(after, 'read');
      return log.read(after, limit);
    },

    async bounds(): Promise<LogBounds> {
      ensureOpen('bounds');
      return log.bounds();
    },

    tail(after, signal) {
      checkOffset(after, 'tail');
      // "From now on" is fixed when tail() is called, not when iteration starts.
      return log.tail(after ?? log.lastOffset(), () => closed, signal);
    },

    async acquireLease(game, owner, ttlMs) {
      ensureOpen('acquireLease');
      return leases.acquire(gameMember(game), owner, ttlMs);
    },

    async releaseLease(game, owner) {
      ensureOpen('releaseLease');
      leases.release(gameMember(game), owner);
    },

    async offerCopy(game, owner, seq, ttlMs) {
      ensureOpen('offerCopy');
      const member = gameMember(game);
      if (games.has(member)) return 'stored';
      return copies.offer(member, owner, seq, ttlMs);
    },

    onDataLost() {
      return () => undefined;
    },

    async close() {
      if (closed) return;
      closed = true;
      log.wake();
      log.clear();
      games.clear();
      leases.clear();
      copies.clear();
    },
  };
}
