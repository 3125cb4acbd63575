import type { GameEvent } from '../model/events.js';
import { BusClosedError } from '../core/errors.js';
import { commitToken } from './commit-token.js';
import {
  checkOffset,
  checkRetention,
  checkRetentionMs,
  DEFAULT_RETENTION,
  DEFAULT_RETENTION_MS,
  TAIL_BATCH_LIMIT,
} from './options.js';
import type {
  Bus,
  CopyOffer,
  GameKey,
  GameStateDelta,
  LogBounds,
  NewGameEvent,
  Offset,
  StoredGame,
} from './types.js';

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

interface Entry {
  ms: number;
  n: number;
  event: GameEvent;
}

interface GameRecord {
  key: GameKey;
  /** JSON text, like Redis holds it: stored state never aliases the caller's objects. */
  meta: string;
  entries: Map<string, string>;
  /** The previous commit, so a re-send of it is applied once (see commit-token.ts). */
  lastToken: string;
  lastEvents: GameEvent[];
  /** Wall-clock ms after which the record is gone (finished games), or undefined. */
  expiresAt?: number | undefined;
}

interface Lease {
  owner: string;
  expiresAt: number;
}

/**
 * The single-process bus: the log is a bounded ring, game state and leases live in maps. It keeps
 * the Redis implementation's semantics (JSON copies of state, lease owner/TTL fencing, offsets
 * `<ms>-<n>`) so the engine and gateway behave the same on either.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const retention = checkRetention(options.retention ?? DEFAULT_RETENTION);
  const retentionMs = checkRetentionMs(options.retentionMs ?? DEFAULT_RETENTION_MS);
  const now = options.now ?? Date.now;

  // The ring: `ring[(start + i) % retention]` is the i-th oldest retained entry.
  const ring: Array<Entry | undefined> = [];
  let start = 0;
  let size = 0;
  let trimmedThrough: Offset | null = null;
  // Like Redis, 0-0 is never assigned, so it can stand for "before everything".
  let lastMs = 0;
  let lastN = 0;

  const games = new Map<string, GameRecord>();
  const leases = new Map<string, Lease>();
  const offers = new Map<string, CopyOffer & { expiresAt: number }>();
  const waiters = new Set<() => void>();
  let closed = false;

  const at = (i: number): Entry => ring[(start + i) % retention] as Entry;

  function dropOldest(): void {
    trimmedThrough = at(0).event.offset ?? null;
    // Emptied, so a quiet league's old events are not held until the ring comes round; a slot
    // set to undefined rather than deleted keeps the array dense (a holey one is slower to index).
    ring[start] = undefined;
    start = (start + 1) % retention;
    size -= 1;
  }

  function append(event: NewGameEvent): GameEvent {
    const ms = Math.max(Math.floor(now()), lastMs);
    if (ms === lastMs) lastN += 1;
    else {
      lastMs = ms;
      lastN = 0;
    }
    const stored = { ...event, offset: `${ms}-${lastN}` } as GameEvent;
    const entry: Entry = { ms, n: lastN, event: stored };
    // Same semantics as Redis, exactly rather than in chunks: older than the window goes first...
    const keepFrom = ms - retentionMs;
    while (size > 0 && at(0).ms < keepFrom) dropOldest();
    if (size < retention) {
      ring[(start + size) % retention] = entry;
      size += 1;
    } else {
      // ...and the count caps what is left, told when it cuts into the window.
      if (at(0).ms >= keepFrom) options.onCapped?.(1);
      trimmedThrough = at(0).event.offset ?? null;
      ring[start] = entry;
      start = (start + 1) % retention;
    }
    return stored;
  }

  /** Index of the oldest retained entry strictly after `after` (size when none). */
  function indexAfter(after: Offset | null): number {
    if (after === null) return 0;
    const [ms = 0, n = 0] = after.split('-').map(Number);
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = at(mid);
      if (e.ms < ms || (e.ms === ms && e.n <= n)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function readAfter(after: Offset | null, limit: number): GameEvent[] {
    const from = indexAfter(after);
    const to = Math.min(size, from + Math.max(0, limit));
    const out: GameEvent[] = [];
    for (let i = from; i < to; i++) out.push(at(i).event);
    return out;
  }

  function wake(): void {
    for (const waiter of [...waiters]) waiter();
  }

  function changed(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async function* tailFrom(cursor: Offset, signal?: AbortSignal): AsyncGenerator<GameEvent[]> {
    while (!closed && !signal?.aborted) {
      const batch = readAfter(cursor, TAIL_BATCH_LIMIT);
      const last = batch.at(-1);
      if (last?.offset === undefined) {
        await changed(signal);
        continue;
      }
      cursor = last.offset;
      yield batch;
    }
  }

  const gameKey = (game: GameKey): string => `${game.league}:${game.gameId}`;

  function holds(key: string, owner: string): boolean {
    const lease = leases.get(key);
    return lease !== undefined && lease.owner === owner && lease.expiresAt > now();
  }

  /** The game's record, deleting it first when its expiry has passed. */
  function liveGame(key: string): GameRecord | undefined {
    const record = games.get(key);
    if (record?.expiresAt !== undefined && record.expiresAt <= now()) {
      games.delete(key);
      return undefined;
    }
    return record;
  }

  function ensureOpen(operation: string): void {
    if (closed) throw new BusClosedError(operation);
  }

  return {
    kind: 'memory',
    retention,
    retentionMs,

    async commit(game, events, delta: GameStateDelta, owner) {
      ensureOpen('commit');
      const key = gameKey(game);
      if (owner !== undefined && !holds(key, owner)) return null;
      const token = commitToken(events);
      const previous = games.get(key);
      if (token !== '' && previous?.lastToken === token) return previous.lastEvents;
      // Serialise before touching anything, so a value JSON cannot encode leaves no partial write.
      const meta = JSON.stringify(delta.meta ?? null);
      const sets = (delta.set ?? []).map(([field, value]) => [field, JSON.stringify(value ?? null)] as const);
      let record = games.get(key);
      if (!record) {
        record = {
          key: { league: game.league, gameId: game.gameId },
          meta,
          entries: new Map(),
          lastToken: '',
          lastEvents: [],
        };
        games.set(key, record);
      }
      record.meta = meta;
      record.expiresAt = undefined;
      if (delta.replace === true) record.entries.clear();
      for (const [field, value] of sets) record.entries.set(field, value);
      for (const field of delta.delete ?? []) record.entries.delete(field);
      const committed = events.map(append);
      if (token !== '') {
        record.lastToken = token;
        record.lastEvents = committed;
      }
      if (committed.length > 0) wake();
      return committed;
    },

    async loadGame(game) {
      ensureOpen('loadGame');
      const record = liveGame(gameKey(game));
      if (!record) return undefined;
      const stored: StoredGame = { meta: JSON.parse(record.meta), entries: new Map() };
      for (const [field, value] of record.entries) stored.entries.set(field, JSON.parse(value));
      return stored;
    },

    async listGames() {
      ensureOpen('listGames');
      for (const key of games.keys()) liveGame(key);
      return [...games.values()].map((r) => ({ ...r.key, meta: JSON.parse(r.meta) as unknown }));
    },

    async deleteGame(game) {
      ensureOpen('deleteGame');
      games.delete(gameKey(game));
    },

    async expireGame(game, ttlMs) {
      ensureOpen('expireGame');
      const record = liveGame(gameKey(game));
      if (record) record.expiresAt = now() + ttlMs;
    },

    async read(after, limit) {
      ensureOpen('read');
      checkOffset(after, 'read');
      return readAfter(after, limit);
    },

    async bounds(): Promise<LogBounds> {
      ensureOpen('bounds');
      return {
        first: size > 0 ? (at(0).event.offset ?? null) : null,
        last: size > 0 ? (at(size - 1).event.offset ?? null) : null,
        trimmedThrough,
      };
    },

    tail(after, signal) {
      checkOffset(after, 'tail');
      // "From now on" is fixed when tail() is called, not when iteration starts.
      return tailFrom(after ?? `${lastMs}-${lastN}`, signal);
    },

    async acquireLease(game, owner, ttlMs) {
      ensureOpen('acquireLease');
      const key = gameKey(game);
      const lease = leases.get(key);
      const live = lease !== undefined && lease.expiresAt > now();
      if (live && lease.owner !== owner) return false;
      leases.set(key, { owner, expiresAt: now() + ttlMs });
      return live ? 'renewed' : 'taken';
    },

    async releaseLease(game, owner) {
      ensureOpen('releaseLease');
      const key = gameKey(game);
      if (leases.get(key)?.owner === owner) leases.delete(key);
    },

    async offerCopy(game, owner, seq, ttlMs) {
      ensureOpen('offerCopy');
      const key = gameKey(game);
      if (liveGame(key)) return 'stored';
      let best = offers.get(key);
      if (best !== undefined && best.expiresAt <= now()) {
        offers.delete(key);
        best = undefined;
      }
      if (seq !== null && (best === undefined || seq > best.seq || best.owner === owner)) {
        best = { owner, seq: Math.max(seq, best?.seq ?? seq), expiresAt: now() + ttlMs };
        offers.set(key, best);
      }
      return best === undefined ? null : { owner: best.owner, seq: best.seq };
    },

    onDataLost() {
      return () => undefined;
    },

    async close() {
      if (closed) return;
      closed = true;
      wake();
      ring.length = 0;
      size = 0;
      games.clear();
      leases.clear();
      offers.clear();
    },
  };
}
