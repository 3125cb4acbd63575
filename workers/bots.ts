import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, extname } from 'node:path';
import type { RedisConnection as Redis } from '../src/bus/redis-connection.js';
import { InvalidConfigError } from '../src/core/errors.js';

/**
 * Alert bots. A bot is a rules file run by one or more `worker alerts` processes; it is named by the
 * file's `name` (default: the file's name without its extension). Every bot gets every event in a
 * queue of its own, and its processes share that queue, so two bots never take each other's events
 * and two processes of one bot never evaluate an event twice. A bot's processes announce themselves
 * in Redis with the fingerprint of their rules, so that a second, different rules file under a name
 * already running is refused at start-up instead of silently sharing (and splitting) its queue.
 */

/** What a bot name may contain: it is part of queue names and Redis keys. */
export const BOT_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** The bot of a worker started without a rules file (and of rules given in code without a name). */
export const DEFAULT_BOT = 'default';

// A process refreshes its entry this often; one silent for LIVE_MS is taken for gone (a crash).
export const HEARTBEAT_MS = 10_000;
const LIVE_MS = 3 * HEARTBEAT_MS;
/**
 * A bot none of whose processes has been seen for this long stops receiving events: a bot removed
 * for good must not grow a queue forever. An hour covers a restart, a deploy or a crash loop; events
 * of that hour wait in the bot's queue (those past the staleness horizon give no alert anyway).
 */
export const BOT_IDLE_MS = 3600_000;

/** The name of the bot a rules file runs when the file gives none: the file's name, made key-safe. */
export function botNameFromFile(file: string): string {
  const stem = basename(file, extname(file))
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .slice(0, 64);
  return stem === '' || stem === '.' || stem === '..' ? DEFAULT_BOT : stem;
}

/** The prefix of a bot's own keys (rule state, locks, fired marks) under the project prefix. */
export function botKeyPrefix(prefix: string, bot: string): string {
  return `${prefix}bot:${bot}:`;
}

/** A stable hash of a parsed rules file: equal files (whatever their key order) hash equal. */
export function rulesFingerprint(config: unknown): string {
  return createHash('sha256').update(canonical(config)).digest('hex').slice(0, 16);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface ProcessEntry {
  fingerprint: string;
  /** Where the rules came from, as the process was given it (a path, or `(no rules file)`). */
  source: string;
  host: string;
  pid: number;
  seen: number;
}

// KEYS: the bot's processes hash, the bots sorted set. ARGV: process id, entry JSON, fingerprint,
// now ms, live ms, bot name. Atomic, so two processes starting at once cannot both pass the check.
// Returns the entry of a live process with another fingerprint, or '' once registered.
const REGISTER = `
local entries = redis.call('hgetall', KEYS[1])
for i = 1, #entries, 2 do
  local entry = cjson.decode(entries[i + 1])
  if entries[i] ~= ARGV[1] and entry.fingerprint ~= ARGV[3]
    and tonumber(entry.seen) > tonumber(ARGV[4]) - tonumber(ARGV[5]) then
    return entries[i + 1]
  end
end
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
redis.call('zadd', KEYS[2], ARGV[4], ARGV[6])
return ''`;

/** The sorted set of bot names, scored by when a process of the bot was last seen. */
function botsKey(prefix: string): string {
  return `${prefix}bots`;
}

export interface BotRegistration {
  /** Stops the heartbeat and removes this process's entry. Idempotent. */
  close(): Promise<void>;
}

/**
 * Announces this process as one of `bot`'s, refusing (with an `InvalidConfigError` naming both
 * sources) when a live process of the same bot runs different rules; then keeps the entry fresh.
 */
export async function registerBot(
  redis: Redis,
  options: { prefix: string; bot: string; fingerprint: string; source: string; now?: () => number },
): Promise<BotRegistration> {
  const now = options.now ?? Date.now;
  const processesKey = `${botKeyPrefix(options.prefix, options.bot)}processes`;
  const id = randomUUID();
  const entry = (): string =>
    JSON.stringify({
      fingerprint: options.fingerprint,
      source: options.source,
      host: hostname(),
      pid: process.pid,
      seen: now(),
    } satisfies ProcessEntry);
  const register = async (): Promise<string> =>
    (await redis.eval(
      REGISTER,
      2,
      processesKey,
      botsKey(options.prefix),
      id,
      entry(),
      options.fingerprint,
      now(),
      LIVE_MS,
      options.bot,
    )) as string;

  const conflict = await register();
  if (conflict !== '') {
    const other = JSON.parse(conflict) as ProcessEntry;
    throw new InvalidConfigError(
      'name',
      `bot "${options.bot}" is already running with other rules (${other.source}, pid ${other.pid} on ${other.host}); ` +
        `${options.source} differs: give one of the two files its own \`name\`, or stop that bot's processes first`,
    );
  }
  const timer = setInterval(() => {
    // A heartbeat that finds a conflict only re-registers: the newcomer was the one refused.
    void redis
      .multi()
      .hset(processesKey, id, entry())
      .zadd(botsKey(options.prefix), now(), options.bot)
      .exec()
      .catch(() => undefined);
    void pruneDead(redis, processesKey, now() - LIVE_MS).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  let closing: Promise<void> | null = null;
  return {
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        await redis.hdel(processesKey, id).catch(() => undefined);
      })();
      return closing;
    },
  };
}

async function pruneDead(redis: Redis, processesKey: string, before: number): Promise<void> {
  const entries = await redis.hgetall(processesKey);
  const dead = Object.entries(entries)
    .filter(([, raw]) => (JSON.parse(raw) as ProcessEntry).seen < before)
    .map(([id]) => id);
  if (dead.length > 0) await redis.hdel(processesKey, ...dead);
}

/** Bots seen within `BOT_IDLE_MS`: the ones each event is handed to. */
export async function liveBots(redis: Redis, prefix: string, now: number = Date.now()): Promise<string[]> {
  return redis.zrangebyscore(botsKey(prefix), now - BOT_IDLE_MS, '+inf');
}

/** Every bot ever registered under the prefix (for the failed deliveries of bots since stopped). */
export async function knownBots(redis: Redis, prefix: string): Promise<string[]> {
  return redis.zrange(botsKey(prefix), 0, -1);
}
