import { parseGameMember } from './game-member.js';
import { ttlArg, type CommandRedis, type Run } from './redis-commands.js';
import type { RedisKeys } from './redis-keys.js';
import { parseStoredGame } from './state-json.js';
import type { Bus, GameKey } from './types.js';

/**
 * The bus's per-game state on Redis, read, listed, deleted and expired (a commit writes it:
 * redis-commit.ts). Leases and copy offers are redis-leases.ts and redis-copies.ts.
 */
export type GameMethods = Pick<Bus, 'loadGame' | 'listGames' | 'deleteGame' | 'expireGame'>;

export function gameMethods(cmd: CommandRedis, keys: RedisKeys, run: Run): GameMethods {
  const gamesKey = keys.games;
  const { meta: metaKey, entries: entriesKey, lastCommit: lastCommitKey, member } = keys;
  return {
    async loadGame(game) {
      const [meta, entries] = await run('loadGame', async () => {
        const replies = await cmd.multi().get(metaKey(game)).hgetall(entriesKey(game)).exec();
        if (!replies) throw new Error('transaction aborted');
        for (const [err] of replies) if (err) throw err;
        return [replies[0]?.[1] as string | null, replies[1]?.[1] as Record<string, string>];
      });
      if (meta === null && Object.keys(entries).length === 0) return undefined;
      return parseStoredGame(meta, Object.entries(entries));
    },

    async listGames() {
      return run('listGames', async () => {
        const members = await cmd.smembers(gamesKey);
        const keys: GameKey[] = [];
        for (const m of members) {
          const key = parseGameMember(m);
          if (key) keys.push(key);
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
      const ms = ttlArg(ttlMs);
      await run('expireGame', () =>
        cmd
          .multi()
          .pexpire(metaKey(game), ms)
          .pexpire(entriesKey(game), ms)
          .pexpire(lastCommitKey(game), ms)
          .exec(),
      );
    },
  };
}
