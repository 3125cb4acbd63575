import { isLeague } from '../core/leagues.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import type { BusCommands } from './redis-scripts.js';
import type { Bus, GameKey, StoredGame } from './types.js';

/** The bus's per-game state and leases on Redis: everything of a game but its events. */
export type GameMethods = Pick<
  Bus,
  'loadGame' | 'listGames' | 'deleteGame' | 'expireGame' | 'acquireLease' | 'releaseLease' | 'offerCopy'
>;

/** Runs a command, turning its failure into the bus's errors (see `createRedisBus`). */
type Run = <T>(operation: string, fn: () => Promise<T>) => Promise<T>;

export function gameMethods(cmd: RedisConnection & BusCommands, keys: RedisKeys, run: Run): GameMethods {
  const gamesKey = keys.games;
  const { lease: leaseKey, offer: offerKey, meta: metaKey, entries: entriesKey } = keys;
  const { lastCommit: lastCommitKey, member } = keys;
  return {
    async loadGame(game) {
      const [meta, entries] = await run('loadGame', async () => {
        const replies = await cmd.multi().get(metaKey(game)).hgetall(entriesKey(game)).exec();
        if (!replies) throw new Error('transaction aborted');
        for (const [err] of replies) if (err) throw err;
        return [replies[0]?.[1] as string | null, replies[1]?.[1] as Record<string, string>];
      });
      if (meta === null && Object.keys(entries).length === 0) return undefined;
      const stored: StoredGame = { meta: meta === null ? null : JSON.parse(meta), entries: new Map() };
      for (const [field, value] of Object.entries(entries)) stored.entries.set(field, JSON.parse(value));
      return stored;
    },

    async listGames() {
      return run('listGames', async () => {
        const members = await cmd.smembers(gamesKey);
        const keys: GameKey[] = [];
        for (const m of members) {
          const colon = m.indexOf(':');
          const league = m.slice(0, colon);
          if (colon > 0 && isLeague(league)) keys.push({ league, gameId: m.slice(colon + 1) });
        }
        if (keys.length === 0) return [];
        const metas = await cmd.mget(keys.map(metaKey));
        const out: Array<GameKey & { meta: unknown }> = [];
        const gone: string[] = [];
        keys.forEach((key, i) => {
          const meta = metas[i];
          if (meta !== null && meta !== undefined) out.push({ ...key, meta: JSON.parse(meta) });
          else gone.push(member(key));
        });
        // Expired (or deleted) since it was listed: its member goes too. A commit re-adds it.
        if (gone.length > 0) await cmd.srem(gamesKey, ...gone);
        return out;
      });
    },

    async deleteGame(game) {
      await run('deleteGame', () =>
        cmd
          .multi()
          .del(metaKey(game), entriesKey(game), lastCommitKey(game))
          .srem(gamesKey, member(game))
          .exec(),
      );
    },

    async expireGame(game, ttlMs) {
      const ms = Math.max(1, Math.ceil(ttlMs));
      await run('expireGame', () =>
        cmd
          .multi()
          .pexpire(metaKey(game), ms)
          .pexpire(entriesKey(game), ms)
          .pexpire(lastCommitKey(game), ms)
          .exec(),
      );
    },

    async acquireLease(game, owner, ttlMs) {
      const held = await run('acquireLease', () =>
        cmd.courtsideAcquire(leaseKey(game), owner, Math.max(1, Math.ceil(ttlMs))),
      );
      return held === 2 ? 'taken' : held === 1 ? 'renewed' : false;
    },

    async releaseLease(game, owner) {
      await run('releaseLease', () => cmd.courtsideRelease(leaseKey(game), owner));
    },

    async offerCopy(game, owner, seq, ttlMs) {
      const reply = await run('offerCopy', () =>
        cmd.courtsideOffer(
          offerKey(game),
          metaKey(game),
          owner,
          seq === null ? '' : String(seq),
          Math.max(1, Math.ceil(ttlMs)),
        ),
      );
      if (reply === null || reply === 'stored') return reply;
      const bar = reply.indexOf('|');
      return { seq: Number(reply.slice(0, bar)), owner: reply.slice(bar + 1) };
    },
  };
}
