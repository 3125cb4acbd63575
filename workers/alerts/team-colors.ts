import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import type { League } from '../../src/core/leagues.js';
import { gameMetaKey } from '../../src/bus/redis.js';
import type { GameSnapshot } from '../../src/model/events.js';

type Colors = { home: string | null; away: string | null };

// Games tonight and a few nights back; colours never change within a game.
const CACHED_GAMES = 500;
const HEX = /^[0-9a-f]{6}$/i;

/**
 * The teams' colours of a game, for chat messages. The engine keeps each game's snapshot in its
 * state's meta on the bus (`gameMetaKey`), and the snapshot holds the colours ESPN gives. Alerts
 * are rare (hundreds a night), so one read per new game is nothing; when the state is not there (a
 * memory bus, an expired game) there are no colours and the messages go without.
 */
export class TeamColors {
  private readonly known = new Map<string, Colors>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async of(league: League, gameId: string): Promise<Colors | undefined> {
    const key = `${league}:${gameId}`;
    const cached = this.known.get(key);
    if (cached) return cached;
    let snapshot: GameSnapshot | undefined;
    try {
      const meta = await this.redis.get(gameMetaKey(this.prefix, { league, gameId }));
      snapshot = meta ? (JSON.parse(meta) as { snapshot?: GameSnapshot }).snapshot : undefined;
    } catch {
      return undefined;
    }
    const teams = snapshot?.teams;
    if (!teams) return undefined;
    const hex = (c: unknown): string | null =>
      typeof c === 'string' && HEX.test(c) ? c.toLowerCase() : null;
    const colors = { home: hex(teams.home?.color), away: hex(teams.away?.color) };
    if (this.known.size >= CACHED_GAMES) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, colors);
    return colors;
  }
}
