import { isLeague } from '../core/leagues.js';
import type { GameKey } from './types.js';

/**
 * A game's name among the stored games: the member of the Redis `games` set and the key of the
 * memory bus's maps, so both implementations name a game alike.
 */
export function gameMember(game: GameKey): string {
  return `${game.league}:${game.gameId}`;
}

/** The game a member names, or undefined when it is not one of ours (no known league before ':'). */
export function parseGameMember(member: string): GameKey | undefined {
  const colon = member.indexOf(':');
  const league = member.slice(0, colon);
  return colon > 0 && isLeague(league) ? { league, gameId: member.slice(colon + 1) } : undefined;
}
