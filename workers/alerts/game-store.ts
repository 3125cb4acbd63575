import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { League } from '../../src/espn/leagues.js';
import type { GameRuleState } from './types.js';

// Evaluation holds the lock for a few Redis round trips; 10 s only matters when a worker dies
// holding it, and bounds how long the game's next event waits then.
const LOCK_TTL_MS = 10_000;
// Rule state outlives any game (overtimes, suspensions) and then expires by itself.
const STATE_TTL_SECONDS = 2 * 24 * 3600;

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Per-game rule state in Redis, and a short lock that serialises evaluation of one game. */
export class GameStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(kind: string, league: League, gameId: string): string {
    return `${this.prefix}alerts:${kind}:${league}:${gameId}`;
  }

  /** A token when the lock was taken, null when another evaluation holds it. */
  async lock(league: League, gameId: string): Promise<string | null> {
    const token = randomUUID();
    const ok = await this.redis.set(this.key('lock', league, gameId), token, 'PX', LOCK_TTL_MS, 'NX');
    return ok === 'OK' ? token : null;
  }

  async unlock(league: League, gameId: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key('lock', league, gameId), token);
  }

  async load(league: League, gameId: string): Promise<GameRuleState | undefined> {
    const raw = await this.redis.get(this.key('state', league, gameId));
    return raw ? (JSON.parse(raw) as GameRuleState) : undefined;
  }

  async save(league: League, gameId: string, state: GameRuleState): Promise<void> {
    await this.redis.set(this.key('state', league, gameId), JSON.stringify(state), 'EX', STATE_TTL_SECONDS);
  }
}
