import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';

// Redis' own clock in ms, so workers on several hosts agree.
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// How long a reservation must still wait for the platform's bucket (KEYS[3]): one numbered past
// what the bucket was last told to have left waits for its reset.
const BUCKET_WAIT = `
local function bucketWait(bucket, seq, from)
  local allow = tonumber(redis.call('HGET', bucket, 'allow') or '')
  local resetAt = tonumber(redis.call('HGET', bucket, 'resetAt') or '0')
  if allow ~= nil and seq > allow and resetAt > from then return resetAt - from end
  return 0
end`;

/**
 * Reserves the next send slot of one destination: at least `ARGV[1]` ms after the previous slot,
 * not before a hold (KEYS[2]), and past the bucket's reset when the bucket (KEYS[3]) is spent.
 * Returns how many ms from now the slot is, and the reservation's number.
 */
const RESERVE = `${NOW}${BUCKET_WAIT}
local nextAt = tonumber(redis.call('GET', KEYS[1]) or '0')
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
local at = math.max(now, nextAt, held)
at = at + bucketWait(KEYS[3], seq, at)
local following = at + tonumber(ARGV[1])
redis.call('SET', KEYS[1], following, 'PX', following - now + 60000)
redis.call('PEXPIRE', KEYS[3], math.max(following, tonumber(redis.call('HGET', KEYS[3], 'resetAt') or '0')) - now + 60000)
return {at - now, seq}`;

/**
 * What the platform said was left after reservation ARGV[1]: ARGV[2] requests until the bucket
 * refills ARGV[3] ms from now. Within a bucket an answer can only lower what is allowed (answers
 * arrive out of order across workers, and a late one knows of requests an early one did not);
 * once the bucket's reset has passed, the answer describes the new bucket.
 */
const ANSWERED = `${NOW}
local seq = tonumber(ARGV[1])
local allow = seq + tonumber(ARGV[2])
local resetAt = now + tonumber(ARGV[3])
local knownReset = tonumber(redis.call('HGET', KEYS[1], 'resetAt') or '0')
if knownReset > now then
  allow = math.min(allow, tonumber(redis.call('HGET', KEYS[1], 'allow') or allow))
  resetAt = math.max(resetAt, knownReset)
end
redis.call('HSET', KEYS[1], 'allow', allow, 'resetAt', resetAt)
redis.call('PEXPIRE', KEYS[1], resetAt - now + 60000)
return allow`;

/** Holds every send to one destination for `ARGV[1]` ms from now (a 429). */
const HOLD = `${NOW}
local untilAt = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], untilAt, 'PX', untilAt - now + 60000)
return untilAt - now`;

/** Ms reservation ARGV[1] must still wait for a hold (KEYS[1]) or the bucket (KEYS[2]); 0: none. */
const HELD = `${NOW}${BUCKET_WAIT}
local held = math.max(0, tonumber(redis.call('GET', KEYS[1]) or '0') - now)
return math.max(held, bucketWait(KEYS[2], tonumber(ARGV[1]), now))`;

interface PacingCommands {
  courtsidePaceReserve(
    pace: string,
    hold: string,
    bucket: string,
    spacingMs: number,
  ): Promise<[number, number]>;
  courtsidePaceAnswered(
    bucket: string,
    seq: number,
    remaining: number,
    resetAfterMs: number,
  ): Promise<number>;
  courtsidePaceHold(hold: string, ms: number): Promise<number>;
  courtsidePaceHeld(hold: string, bucket: string, seq: number): Promise<number>;
}

/** A send slot: when it is, and its number (what the bucket's answers are counted against). */
export interface Reservation {
  waitMs: number;
  seq: number;
}

/**
 * Per-destination pacing shared by every worker process: each destination has a Redis key with
 * the earliest time of its next slot (slots are `spacing` apart), one with a hold (a 429), and
 * the platform's bucket as its answers last described it. A busy night queues alerts behind the
 * spacing instead of tripping the platform's limit.
 *
 * The bucket is counted by reservation, not by answer: with several workers, requests are in
 * flight when an answer says what is left, so an answer to reservation n saying r remain allows
 * reservations up to n + r, and later ones wait for the reset. Waiting for the answer that says
 * 0 instead would let another worker send into the empty bucket in the meantime (a 429 whenever
 * an answer takes longer than the spacing). A hold or a bucket learnt of while a sender waited
 * for its slot sends it back for a new slot (`heldFor` before sending).
 */
export class Pacer {
  private readonly commands: Redis & PacingCommands;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.commands = redis as Redis & PacingCommands;
    this.commands.defineCommand('courtsidePaceReserve', { numberOfKeys: 3, lua: RESERVE });
    this.commands.defineCommand('courtsidePaceAnswered', { numberOfKeys: 1, lua: ANSWERED });
    this.commands.defineCommand('courtsidePaceHold', { numberOfKeys: 1, lua: HOLD });
    this.commands.defineCommand('courtsidePaceHeld', { numberOfKeys: 2, lua: HELD });
  }

  private keys(destination: string): { pace: string; hold: string; bucket: string } {
    const pace = `${this.prefix}pace:${destination}`;
    return { pace, hold: `${pace}:hold`, bucket: `${pace}:bucket` };
  }

  /** Reserves a slot: ms to wait before this request may go (0: now), and its number. */
  async reserve(destination: string, spacingMs: number): Promise<Reservation> {
    const { pace, hold, bucket } = this.keys(destination);
    const [waitMs, seq] = await this.commands.courtsidePaceReserve(pace, hold, bucket, spacingMs);
    return { waitMs: Number(waitMs), seq: Number(seq) };
  }

  /** The platform's answer to reservation `seq`: `remaining` requests left until its bucket refills. */
  async answered(destination: string, seq: number, remaining: number, resetAfterMs: number): Promise<void> {
    const { bucket } = this.keys(destination);
    await this.commands.courtsidePaceAnswered(
      bucket,
      seq,
      Math.max(0, remaining),
      Math.max(0, Math.ceil(resetAfterMs)),
    );
  }

  /** No request to `destination` before `ms` from now. */
  async hold(destination: string, ms: number): Promise<void> {
    await this.commands.courtsidePaceHold(this.keys(destination).hold, Math.max(0, Math.ceil(ms)));
  }

  /** How long reservation `seq` must still wait for a hold or the bucket, in ms (0: none). */
  async heldFor(destination: string, seq: number): Promise<number> {
    const { hold, bucket } = this.keys(destination);
    return Number(await this.commands.courtsidePaceHeld(hold, bucket, seq));
  }
}
