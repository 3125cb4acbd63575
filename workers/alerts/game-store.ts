import { randomUUID } from 'node:crypto';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import type { League } from '../../src/core/leagues.js';
import type { GameEvent } from '../../src/model/events.js';
import type { GameRuleState } from './types.js';

// Evaluation holds the lock for a few Redis round trips; 10 s only matters when a worker dies
// holding it, and bounds how long the game's next event waits then.
const LOCK_TTL_MS = 10_000;
// Rule state outlives any game (overtimes, suspensions) and then expires by itself.
const STATE_TTL_SECONDS = 2 * 24 * 3600;
// Parked events wait milliseconds normally; an hour covers a worker fleet that stopped mid-game.
const PENDING_TTL_SECONDS = 3600;

// KEYS: lock, state, pending. ARGV: token, ttl ms. If the lock was taken: the state ('' when none)
// and how many events are parked; else nil.
const LOCK_AND_LOAD = `
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
  return {redis.call('get', KEYS[2]) or '', redis.call('hlen', KEYS[3])}
end
return false`;

// KEYS: lock, state, pending. ARGV: token, state JSON, ttl s, applied seqs...
// Writes only while the token still holds the lock: a worker that stalled past the lock TTL must
// not overwrite the state a successor has moved on (its alerts are de-duplicated by id anyway).
const COMMIT = `
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('set', KEYS[2], ARGV[2], 'EX', ARGV[3])
for i = 4, #ARGV do redis.call('hdel', KEYS[3], ARGV[i]) end
redis.call('del', KEYS[1])
return 1`;

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface Held {
  token: string;
  state: GameRuleState | undefined;
  /** Events parked for this game. Parking happens under the lock, so this holds while it is held. */
  parked: number;
}

/**
 * Per-game rule state in Redis, a short lock that serialises evaluation of one game, and a hash of
 * events parked until their predecessor has been applied. Taking the lock reads the state, and
 * committing writes it, drops the applied parked events and releases the lock: one round trip each.
 */
export class GameStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(kind: string, league: League, gameId: string): string {
    return `${this.prefix}alerts:${kind}:${league}:${gameId}`;
  }

  /** The lock and the current state, or null when another evaluation holds the lock. */
  async lockAndLoad(league: League, gameId: string): Promise<Held | null> {
    const token = randomUUID();
    const reply = (await this.redis.eval(
      LOCK_AND_LOAD,
      3,
      this.key('lock', league, gameId),
      this.key('state', league, gameId),
      this.key('pending', league, gameId),
      token,
      LOCK_TTL_MS,
    )) as [string, number] | null;
    if (reply === null) return null;
    const [raw, parked] = reply;
    return { token, state: raw === '' ? undefined : (JSON.parse(raw) as GameRuleState), parked };
  }

  /** Saves the state, un-parks `applied` and releases the lock; false if the lock was lost. */
  async commit(
    league: League,
    gameId: string,
    token: string,
    state: GameRuleState,
    applied: readonly number[],
  ): Promise<boolean> {
    const done = await this.redis.eval(
      COMMIT,
      3,
      this.key('lock', league, gameId),
      this.key('state', league, gameId),
      this.key('pending', league, gameId),
      token,
      JSON.stringify(state),
      STATE_TTL_SECONDS,
      ...applied.map(String),
    );
    return done === 1;
  }

  async release(league: League, gameId: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key('lock', league, gameId), token);
  }

  /** Parks an event that arrived before its predecessor; whoever applies seq - 1 applies it too. */
  async park(event: GameEvent): Promise<void> {
    const key = this.key('pending', event.league, event.gameId);
    await this.redis
      .multi()
      .hset(key, String(event.seq), JSON.stringify(event))
      .expire(key, PENDING_TTL_SECONDS)
      .exec();
  }

  async parked(league: League, gameId: string, seq: number): Promise<GameEvent | undefined> {
    const raw = await this.redis.hget(this.key('pending', league, gameId), String(seq));
    return raw ? (JSON.parse(raw) as GameEvent) : undefined;
  }

  async unpark(league: League, gameId: string, seqs: readonly number[]): Promise<void> {
    if (seqs.length > 0) await this.redis.hdel(this.key('pending', league, gameId), ...seqs.map(String));
  }
}
