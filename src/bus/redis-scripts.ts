/**
 * The bus's Lua scripts. Each runs atomically in Redis, so the lease check and the writes it
 * guards cannot be interleaved with another instance's commands (docs/decisions.md).
 */

/**
 * KEYS: lease, stream, meta, entries, games set, trimmed-through, last-commit.
 * ARGV: owner ('' = unfenced), retention, games-set member, meta JSON, #set, #delete, token,
 *       replace ('1': the entries are replaced by the set, not updated), keep-from ms, trim-below
 *       ms (both '' without a time window), then #set field/value
 *       pairs, #delete fields, and the events' JSON (one per stream entry).
 * Returns the stream ids assigned to the events, or nil (writing nothing) when `owner` does not
 * hold the lease.
 *
 * `token` names the commit's newest event (seq and id). When it equals the game's previous
 * commit's, this is that commit re-sent (ioredis re-sends unanswered commands after a reconnect;
 * a caller retries after an ambiguous error), so its ids are returned and nothing is written twice.
 *
 * Trimming is approximate like `XADD MAXLEN ~` (it waits until a chunk of up to 100 entries,
 * the default stream node size, is over the retention, so its cost is amortised), but done here
 * by hand: Redis 7.0 does not record what `MAXLEN` trims (`max-deleted-entry-id` only follows
 * XDEL), and a resuming client must know the newest trimmed id to detect a gap. So the script
 * reads the ids about to go, trims exactly those, and stores the newest in the trimmed-through key.
 *
 * Retention by time comes first: ARGV[9] is the oldest ms to keep ('' = no time window) and ARGV[10]
 * the ms below which the oldest entry must lie before a time trim runs (a little older than
 * ARGV[9], so that a trim removes a chunk rather than an entry per commit). Ids are `<ms>-<n>`, so
 * `XTRIM MINID` cuts by age. The count then acts as a cap: when it cuts entries younger than
 * ARGV[9] the reply ends with `capped:<n>` (n = such entries cut), for the caller to warn about.
 */
export const COMMIT_SCRIPT = `
if ARGV[1] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return false
end
local token = ARGV[7]
if token ~= '' then
  local last = redis.call('GET', KEYS[7])
  if last then
    local previous = cjson.decode(last)
    if previous.t == token then
      return previous.ids
    end
  end
end
local nset = tonumber(ARGV[5])
local ndel = tonumber(ARGV[6])
if ARGV[8] == '1' then
  redis.call('DEL', KEYS[4])
end
local i = 11
for _ = 1, nset do
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1])
  i = i + 2
end
for _ = 1, ndel do
  redis.call('HDEL', KEYS[4], ARGV[i])
  i = i + 1
end
redis.call('SET', KEYS[3], ARGV[4])
redis.call('PERSIST', KEYS[4])
redis.call('SADD', KEYS[5], ARGV[3])
local ids = {}
for j = i, #ARGV do
  ids[#ids + 1] = redis.call('XADD', KEYS[2], '*', 'e', ARGV[j])
end
local keepFrom = tonumber(ARGV[9])
local trimBelow = tonumber(ARGV[10])
local function msOf(id)
  return tonumber(string.match(id, '^(%d+)'))
end
if keepFrom and trimBelow then
  local oldest = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)[1]
  if oldest and msOf(oldest[1]) < trimBelow then
    local minId = string.format('%.0f', keepFrom) .. '-0'
    local newestOld = redis.call('XREVRANGE', KEYS[2], '(' .. minId, '-', 'COUNT', 1)[1]
    redis.call('XTRIM', KEYS[2], 'MINID', minId)
    redis.call('SET', KEYS[6], newestOld[1])
  end
end
local retention = tonumber(ARGV[2])
local excess = redis.call('XLEN', KEYS[2]) - retention
local capped = 0
if excess > 0 and excess >= math.min(100, retention) then
  local doomed = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', excess)
  redis.call('XTRIM', KEYS[2], 'MAXLEN', retention)
  redis.call('SET', KEYS[6], doomed[#doomed][1])
  if keepFrom then
    for k = #doomed, 1, -1 do
      if msOf(doomed[k][1]) < keepFrom then break end
      capped = capped + 1
    end
  end
end
if token ~= '' then
  redis.call('SET', KEYS[7], cjson.encode({ t = token, ids = ids }))
end
if capped > 0 then
  local reply = {}
  for k = 1, #ids do reply[k] = ids[k] end
  reply[#ids + 1] = 'capped:' .. capped
  return reply
end
return ids
`;

/**
 * KEYS: lease. ARGV: owner, ttl ms. Takes a free lease (SET NX PX): 2; renews our own: 1; another
 * owner holds it: 0.
 */
export const ACQUIRE_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 2
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/** KEYS: lease. ARGV: owner. Deletes the lease only if `owner` still holds it. */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/**
 * KEYS: offer, meta. ARGV: owner, seq ('' = only look), ttl (ms).
 * Returns 'stored' when the game's meta exists, else the best offer as `<seq>|<owner>`, or nil.
 * A higher seq replaces the standing offer; its owner's repeat renews it (see `Bus.offerCopy`).
 */
export const OFFER_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 'stored'
end
local best = redis.call('GET', KEYS[1])
if ARGV[2] ~= '' then
  local seq, owner = -1, nil
  if best then
    local s, o = string.match(best, '^(%d+)|(.*)$')
    seq, owner = tonumber(s), o
  end
  if tonumber(ARGV[2]) > seq then
    best = ARGV[2] .. '|' .. ARGV[1]
    redis.call('SET', KEYS[1], best, 'PX', ARGV[3])
  elseif owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
  end
end
return best
`;

/**
 * KEYS: epoch, trimmed-through, stream. ARGV: a new epoch, the epoch this instance knew ('' =
 * none), the newest id it has seen ('' = none). Returns the current epoch.
 *
 * The epoch key is created once per Redis dataset, as `<uuid>@<ms>` where `<ms>` is where the
 * dataset's log starts (its first entry, or the server's time when empty). If it differs from the
 * one an instance knew, Redis lost its data (a restart without persistence): every id up to what
 * the instance had seen is gone, so the trimmed-through mark is raised to it and a `since` from
 * before the loss is reported as a gap rather than silently resumed. The mark never reaches the
 * new dataset's start: an instance whose tail already read new entries must not hide them.
 */
export const EPOCH_SCRIPT = `
local function parse(id)
  local ms, n = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(n)
end
local function before(ams, an, bms, bn)
  return ams < bms or (ams == bms and an < bn)
end
local current = redis.call('GET', KEYS[1])
if not current then
  local start
  local first = redis.call('XRANGE', KEYS[3], '-', '+', 'COUNT', 1)[1]
  if first then
    start = parse(first[1])
  else
    start = tonumber(redis.call('TIME')[1]) * 1000
  end
  current = ARGV[1] .. '@' .. string.format('%.0f', start)
  redis.call('SET', KEYS[1], current)
end
if ARGV[2] ~= '' and ARGV[3] ~= '' and current ~= ARGV[2] then
  local hms, hn = parse(ARGV[3])
  local start = tonumber(string.match(current, '@(%d+)$'))
  if start and not before(hms, hn, start, 0) then
    hms, hn = start - 1, 999999999999999
  end
  local trimmed = redis.call('GET', KEYS[2])
  local raise = hms >= 0
  if trimmed then
    local tms, tn = parse(trimmed)
    raise = raise and before(tms, tn, hms, hn)
  end
  if raise then
    redis.call('SET', KEYS[2], string.format('%.0f-%.0f', hms, hn))
  end
end
return current
`;

/**
 * KEYS: stream. `XINFO STREAM`, or nil when the stream does not exist. In a script because XINFO
 * declares no key: a Cluster client would send it to any node, and a redirected XINFO can arrive
 * after commits sent later, making "from now on" start after events it should have included.
 */
export const STREAM_INFO_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
return redis.call('XINFO', 'STREAM', KEYS[1])
`;

/** The scripts as commands of the command connection (ioredis `defineCommand`). */
export interface BusCommands {
  courtsideCommit(...keysAndArgs: Array<string | number>): Promise<string[] | null>;
  courtsideAcquire(lease: string, owner: string, ttlMs: number): Promise<number>;
  courtsideRelease(lease: string, owner: string): Promise<number>;
  courtsideOffer(
    offer: string,
    meta: string,
    owner: string,
    seq: string,
    ttlMs: number,
  ): Promise<string | null>;
  courtsideEpoch(
    epoch: string,
    trimmed: string,
    stream: string,
    candidate: string,
    known: string,
    seen: string,
  ): Promise<string>;
  courtsideStreamInfo(stream: string): Promise<unknown[] | null>;
}

interface CommandDefiner {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
}

export function defineBusCommands(cmd: CommandDefiner): void {
  cmd.defineCommand('courtsideCommit', { numberOfKeys: 7, lua: COMMIT_SCRIPT });
  cmd.defineCommand('courtsideAcquire', { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
  cmd.defineCommand('courtsideRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  cmd.defineCommand('courtsideEpoch', { numberOfKeys: 3, lua: EPOCH_SCRIPT });
  cmd.defineCommand('courtsideOffer', { numberOfKeys: 2, lua: OFFER_SCRIPT });
  cmd.defineCommand('courtsideStreamInfo', { numberOfKeys: 1, lua: STREAM_INFO_SCRIPT });
}
