import type { SnapshotSource } from '../../model/events.js';
import { isLeague, LEAGUES } from '../../core/leagues.js';
import { sendError, type RouteHandler } from '../http-types.js';
import { compactGame, filterGames, parseGamesQuery, type LiveGame } from './games-query.js';
import { isRead, JSON_TYPE, sendBody } from './respond.js';
import type { UpstreamHealth } from './upstream-tracker.js';
import type { PushFeedStatus } from '../../../streams/engine-types.js';

/** How this instance follows each game it tracks (`league:gameId`): push, polling or standby, since when. */
export type GameFeeds = () => ReadonlyMap<string, PushFeedStatus>;

/** A live game, with how this instance follows it when this instance tracks it. */
export type { LiveGame };

/**
 * `GET /v1/games/live` (snapshots of the games in progress) and `GET /v1/games/<league>/<id>`
 * (one game's current state). Snapshots come from the bus, so any instance answers for any game.
 */
export interface GamesRouteOptions {
  snapshots: SnapshotSource;
  /**
   * The polls' view of the upstream, sent beside the games: without it an empty list cannot tell
   * a quiet night from an upstream this instance cannot reach.
   */
  upstream?: { health(): UpstreamHealth };
  /** How this instance follows each game (push, polling, standby), added to its entry in `/v1/games/live`. */
  feeds?: GameFeeds;
}

const GAME_PATH = /^\/v1\/games\/([^/]+)\/([^/]+)$/;
const GAME_ID = /^[A-Za-z0-9-]{1,64}$/;
// Live state changes every few seconds: let caches revalidate with the ETag, never serve stale.
const LIVE_CACHE = 'no-cache';

/** The games in progress (state `in`), by league and id: what `/v1/games/live` and `/` list. */
export async function liveGames(snapshots: SnapshotSource, feeds?: GameFeeds): Promise<LiveGame[]> {
  const games = (await snapshots.list())
    .filter((g) => g.state === 'in')
    .sort((a, b) => a.league.localeCompare(b.league) || a.gameId.localeCompare(b.gameId));
  if (!feeds) return games;
  const known = feeds();
  return games.map((g) => {
    const feed = known.get(`${g.league}:${g.gameId}`);
    return feed ? { ...g, feed } : g;
  });
}

export function createGamesRoute(options: GamesRouteOptions): RouteHandler {
  return async (req, res, url) => {
    const path = url.pathname;
    if (path !== '/v1/games/live' && !path.startsWith('/v1/games/')) return false;
    if (!isRead(req)) {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method ?? '?'} is not allowed; use GET`, {
        headers: { allow: 'GET, HEAD' },
      });
      return true;
    }
    if (path === '/v1/games/live') {
      const parsed = parseGamesQuery(url.searchParams);
      if (!parsed.ok) {
        sendError(res, 400, 'INVALID_PARAMS', parsed.error.message);
        return true;
      }
      const kept = filterGames(await liveGames(options.snapshots, options.feeds), parsed.query);
      const games = parsed.query.view === 'compact' ? kept.map(compactGame) : kept;
      const body = options.upstream ? { games, upstream: options.upstream.health() } : { games };
      sendBody(req, res, JSON.stringify(body), { contentType: JSON_TYPE, cacheControl: LIVE_CACHE });
      return true;
    }
    const match = GAME_PATH.exec(path);
    if (!match) {
      sendError(res, 404, 'NOT_FOUND', `no route for ${path}; use /v1/games/live or /v1/games/<league>/<id>`);
      return true;
    }
    const league = match[1] ?? '';
    const gameId = match[2] ?? '';
    if (!isLeague(league)) {
      sendError(
        res,
        400,
        'INVALID_PARAMS',
        `league ${JSON.stringify(league.slice(0, 40))} is not one of ${LEAGUES.join(', ')}`,
      );
      return true;
    }
    if (!GAME_ID.test(gameId)) {
      sendError(res, 400, 'INVALID_PARAMS', 'game id must be 1-64 letters, digits or dashes');
      return true;
    }
    const snapshot = await options.snapshots.snapshot(league, gameId);
    if (!snapshot) {
      sendError(
        res,
        404,
        'UNKNOWN_GAME',
        `no state for ${league} game ${gameId} (not tracked, or not seen yet)`,
      );
      return true;
    }
    sendBody(req, res, JSON.stringify(snapshot), { contentType: JSON_TYPE, cacheControl: LIVE_CACHE });
    return true;
  };
}
