import type { GameSnapshot, SnapshotSource } from '../../model/events.js';
import { isLeague, type League } from '../../core/leagues.js';
import type { RouteHandler } from '../http-types.js';

/**
 * `GET /overlay/<league>/live` (and `/overlay/<league>/live/lower-third`): a redirect to the page
 * of the league's current game, its query kept. Game ids change every evening (and with every
 * slate of the demo), so a URL written down once, in a README or an OBS scene, names the game
 * that is on now instead: the first game in progress, else the next one scheduled, else the one
 * that ended last. The choice is made when the page is loaded; a browser source reloaded later
 * moves on to the game on then. With no game of the league known, a short page says so and
 * reloads itself.
 */
const LIVE_PATH = /^\/overlay\/([a-z]+)\/live(\/lower-third)?\/?$/;
// A page showing "no game yet" asks again this often (seconds).
const RETRY_S = 15;

const byDate = (a: GameSnapshot, b: GameSnapshot): number =>
  (a.date ?? '').localeCompare(b.date ?? '') || a.gameId.localeCompare(b.gameId);

/** The league's current game: in progress, else next scheduled, else last finished. */
export function currentGame(games: readonly GameSnapshot[], league: League): GameSnapshot | undefined {
  const ours = games.filter((g) => g.league === league);
  const live = ours.filter((g) => g.state === 'in').sort(byDate);
  if (live[0]) return live[0];
  const next = ours.filter((g) => g.state === 'pre').sort(byDate);
  if (next[0]) return next[0];
  return ours
    .filter((g) => g.state === 'post')
    .sort(byDate)
    .at(-1);
}

export function createOverlayLiveRoute(options: { snapshots: SnapshotSource }): RouteHandler {
  return async (req, res, url) => {
    const match = LIVE_PATH.exec(url.pathname);
    // Other methods fall through to the overlay route, which answers them 405.
    if (!match || !isLeague(match[1]) || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const league = match[1];
    const game = currentGame(await options.snapshots.list(), league);
    if (game) {
      const location = `/overlay/${league}/${encodeURIComponent(game.gameId)}${match[2] ?? ''}${url.search}`;
      res.writeHead(302, { location, 'cache-control': 'no-store' });
      res.end();
      return true;
    }
    const body = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_S}"><title>No ${league} game</title></head><body style="background:transparent;color:#fff;font:24px system-ui,sans-serif">No ${league} game on the daemon's scoreboards yet: this page looks again every ${RETRY_S} s.</body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
