import type { GameSnapshot } from '../model/events.js';
import { LEAGUES, type League } from '../core/leagues.js';

/**
 * What `watch --game <id>` says about each named game before its plays come: a game the daemon
 * does not know (not on its scoreboards yet, or a wrong id) and a game not started yet print
 * nothing on the stream, so without this line the command would sit silent. The subscription
 * stays: the game's events print once the daemon sees it.
 */
export interface GameLookup {
  /** The daemon's base URL, as given to `--url`. */
  url: string;
  token?: string | undefined;
  /** The leagues to look in: `--league`, or both. */
  leagues?: readonly League[] | undefined;
  timeoutMs?: number;
}

/** The game's state on the daemon; `unknown` when no league has it, undefined when the daemon did not answer. */
async function lookUp(id: string, lookup: GameLookup): Promise<GameSnapshot | 'unknown' | undefined> {
  for (const league of lookup.leagues ?? LEAGUES) {
    const url = new URL(`/v1/games/${league}/${encodeURIComponent(id)}`, lookup.url);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: lookup.token ? { authorization: `Bearer ${lookup.token}` } : {},
        signal: AbortSignal.timeout(lookup.timeoutMs ?? 5_000),
      });
    } catch {
      // Unreachable: the stream's own reconnect messages say so.
      return undefined;
    }
    if (res.status === 200) return (await res.json()) as GameSnapshot;
    await res.body?.cancel();
    // A refusal (401, 403) is reported by the stream, with the flag to fix it.
    if (res.status !== 404) return undefined;
  }
  return 'unknown';
}

/** A line for each named game that will not print at once, and why; none for a game in progress. */
export async function gameNotices(ids: readonly string[], lookup: GameLookup): Promise<string[]> {
  const notices: string[] = [];
  for (const id of ids) {
    const game = await lookUp(id, lookup);
    if (game === 'unknown') {
      notices.push(
        `game ${id} is not on the daemon's scoreboards (not yet, or not a game id): waiting for it; the games in progress are at ${new URL('/v1/games/live', lookup.url).href}`,
      );
    } else if (game?.state === 'pre') {
      const when = game.date ? `, scheduled ${game.date}` : '';
      notices.push(
        `game ${id} (${game.teams.away.abbreviation} at ${game.teams.home.abbreviation}) has not started yet${when}: waiting for tip-off`,
      );
    }
  }
  return notices;
}
