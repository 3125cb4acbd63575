import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';

// Redis' own clock in ms, so workers on several hosts agree.
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Reserves the next send slot of one destination: at least `ARGV[1]` ms after the previous slot
 * and not before a hold (KEYS[2]). Returns how many ms from now the slot is.
 */
const RESERVE = `${NOW}
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
local at = math.max(now, nextAt, held)
local following = at + tonumber(ARGV[1])
redis.call('SET', KEYS[1], following, 'PX', following - now + 60000)
return at - now`;

/** Holds every send to one destination for `ARGV[1]` ms from now (a 429, an empty bucket). */
const HOLD = `${NOW}
local untilAt = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], untilAt, 'PX', untilAt - now + 60000)
return untilAt - now`;

/** Ms a hold on the destination still lasts (0: none). */
const HELD = `${NOW}
return math.max(0, tonumber(redis.call('GET', KEYS[1]) or '0') - now)`;

interface PacingCommands {
  courtsidePaceReserve(pace: string, hold: string, spacingMs: number): Promise<number>;
  courtsidePaceHold(hold: string, ms: number): Promise<number>;
  courtsidePaceHeld(hold: string): Promise<number>;
}

/**
 * Per-destination pacing shared by every worker process: each destination has a Redis key with
 * the earliest time of its next slot (slots are `spacing` apart) and one with a hold (a 429, or a
 * rate-limit bucket the platform says is empty). A busy night queues alerts behind the spacing
 * instead of tripping the platform's limit. A hold placed while a sender waited for its slot
 * sends it back for a new slot (`heldFor` before sending), so no one sends into a known limit.
 */
export class Pacer {
  private readonly commands: Redis & PacingCommands;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.commands = redis as Redis & PacingCommands;
    this.commands.defineCommand('courtsidePaceReserve', { numberOfKeys: 2, lua: RESERVE });
    this.commands.defineCommand('courtsidePaceHold', { numberOfKeys: 1, lua: HOLD });
    this.commands.defineCommand('courtsidePaceHeld', { numberOfKeys: 1, lua: HELD });
  }

  private keys(destination: string): { pace: string; hold: string } {
    return { pace: `${this.prefix}pace:${destination}`, hold: `${this.prefix}pace:${destination}:hold` };
  }

  /** Reserves a slot: ms to wait before this request may go (0: now). */
  async reserve(destination: string, spacingMs: number): Promise<number> {
    const { pace, hold } = this.keys(destination);
    return Number(await this.commands.courtsidePaceReserve(pace, hold, spacingMs));
  }

  /** No request to `destination` before `ms` from now. */
  async hold(destination: string, ms: number): Promise<void> {
    await this.commands.courtsidePaceHold(this.keys(destination).hold, Math.max(0, Math.ceil(ms)));
  }

  /** How long a hold placed on `destination` still lasts, in ms (0: none). */
  async heldFor(destination: string): Promise<number> {
    return Number(await this.commands.courtsidePaceHeld(this.keys(destination).hold));
  }
}
