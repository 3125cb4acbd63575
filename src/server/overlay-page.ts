import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidParamsError } from '../core/errors.js';
import { LEAGUES, isLeague, type League } from '../core/leagues.js';
import type { GameSnapshot } from '../model/events.js';
import { OFFSET_PATTERN, type Bus } from '../bus/types.js';
import { sendError, type RouteHandler } from './http-types.js';
import type { FirstPaint } from './overlay-first-paint.js';
import { createMomentsSource, type MomentRules, type MomentsSource } from './overlay-moments.js';
import { checkOverlayQuery, type OverlayPage } from './overlay-params.js';
import { overlayPeriodsScript } from './overlay-periods.js';

/**
 * The broadcast overlay pages, each a static page that feeds itself from the daemon's stream:
 *
 * - `GET /overlay/<league>/<gameId>`: the scorebug;
 * - `GET /overlay/<league>/<gameId>/lower-third`: graphics that fire on moments of the game;
 * - `GET /overlay/<league>/ticker` and `GET /overlay/ticker`: every game of the day, one league or both;
 * - `GET /overlay/<league>/<gameId>/moments?through=<offset>`: the moments the lower third shows
 *   (JSON), when the daemon gave the route its rules;
 * - `GET /overlay/assets/<file>`: the pages' scripts and styles.
 *
 * Assets are plain files served from memory, so the pages need no build step and nothing from
 * outside the daemon. The scorebug page carries the game's snapshot when the daemon has one, so
 * it shows the game on its first paint. A page's query is checked before it is served
 * (`overlay-params.ts`).
 * `sendOverlayRefusal` is the pages' answer to a request the token check refuses, for the server
 * to send in place of its JSON error.
 */
const SCRIPT = 'text/javascript; charset=utf-8';
const STYLE = 'text/css; charset=utf-8';
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'overlay.js': SCRIPT,
  'colors.js': SCRIPT,
  'params.js': SCRIPT,
  'stream.js': SCRIPT,
  'stale.js': SCRIPT,
  'situation.js': SCRIPT,
  'ticker.js': SCRIPT,
  'lower-third.js': SCRIPT,
  'base.css': STYLE,
  'overlay.css': STYLE,
  'ticker.css': STYLE,
  'lower-third.css': STYLE,
};
const GAME_PATH = /^\/overlay\/([a-z-]+)\/([A-Za-z0-9-]{1,64})\/?$/;
const LOWER_THIRD_PATH = /^\/overlay\/([a-z-]+)\/([A-Za-z0-9-]{1,64})\/lower-third\/?$/;
const MOMENTS_PATH = /^\/overlay\/([a-z-]+)\/([A-Za-z0-9-]{1,64})\/moments$/;
const TICKER_PATH = /^\/overlay\/(?:([a-z-]+)\/)?ticker\/?$/;
const LEAGUE_CHOICE = `<${LEAGUES.join('|')}>`;
const USAGE = `no overlay here: use /overlay/${LEAGUE_CHOICE}/<gameId>, /overlay/${LEAGUE_CHOICE}/<gameId>/lower-third, /overlay/${LEAGUE_CHOICE}/ticker or /overlay/ticker`;

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function assetDir(): string {
  // The assets sit beside this file, and the build copies them to dist/src/server/overlay.
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'overlay');
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`overlay assets not found: ${dir}/index.html`);
  return dir;
}

function load(dir: string, name: string, type: string): Asset {
  return asset(readFileSync(join(dir, name)), type);
}

function asset(body: Buffer, type: string): Asset {
  return { body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

export interface OverlayRouteOptions {
  /**
   * The alert rules as the lower thirds use them, and the log to read the moments from. Without
   * them the lower-third page is still served but finds no moments (`/moments` answers 404).
   */
  moments?: { rules: MomentRules; bus: Pick<Bus, 'read'> };
  /** The snapshot written into a scorebug page (`overlay-first-paint.ts`); without it, none is. */
  firstPaint?: FirstPaint;
}

// Where the scorebug page takes its first snapshot: a JSON script element read before its first
// render.
const FIRST_PAINT_SLOT = '<!-- first-paint -->';

type Target =
  | { page: OverlayPage; asset: Asset }
  | { moments: { league: League; gameId: string } }
  | { asset: Asset }
  | undefined;

export function overlayRoute(options: OverlayRouteOptions = {}): RouteHandler {
  const files = loadOverlayFiles();
  const moments = options.moments ? momentsEndpoint(options.moments) : undefined;
  const { firstPaint } = options;

  return async (req, res, url) => {
    if (!url.pathname.startsWith('/overlay/') && url.pathname !== '/overlay') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url.pathname}`, {
        headers: { allow: 'GET, HEAD' },
      });
      return true;
    }
    const target = resolveTarget(url.pathname, files, moments !== undefined);
    if (!target) {
      sendError(res, 404, 'NOT_FOUND', USAGE);
      return true;
    }
    if ('moments' in target) {
      await (moments as MomentsEndpoint).send(req, res, url, target.moments.league, target.moments.gameId);
      return true;
    }
    if ('page' in target && !pageQueryValid(req, res, url, target.page, moments?.ruleParams)) return true;
    const asset = target.asset;
    if ('page' in target && target.page === 'scorebug' && firstPaint) {
      const game = GAME_PATH.exec(url.pathname);
      const snapshot = await firstSnapshot(
        firstPaint,
        game?.[1] as League,
        game?.[2] ?? '',
        url.searchParams,
      );
      if (snapshot) {
        sendWithSnapshot(req, res, asset, snapshot);
        return true;
      }
    }
    sendAsset(req, res, asset);
    return true;
  };
}

/** The pages and their assets, read once from the files beside this module. */
interface OverlayFiles {
  pages: Record<OverlayPage, Asset>;
  assets: ReadonlyMap<string, Asset>;
}

function loadOverlayFiles(): OverlayFiles {
  const dir = assetDir();
  const pages: Record<OverlayPage, Asset> = {
    scorebug: load(dir, 'index.html', 'text/html; charset=utf-8'),
    ticker: load(dir, 'ticker.html', 'text/html; charset=utf-8'),
    'lower-third': load(dir, 'lower-third.html', 'text/html; charset=utf-8'),
  };
  const assets = new Map(Object.entries(ASSET_TYPES).map(([name, type]) => [name, load(dir, name, type)]));
  assets.set('periods.js', asset(Buffer.from(overlayPeriodsScript()), SCRIPT));
  return { pages, assets };
}

/** What a path asks for: a page, an asset, the moments of a game (only when there are rules), or nothing. */
function resolveTarget(path: string, { pages, assets }: OverlayFiles, hasMoments: boolean): Target {
  if (path.startsWith('/overlay/assets/')) {
    const asset = assets.get(path.slice('/overlay/assets/'.length));
    return asset ? { asset } : undefined;
  }
  const ticker = TICKER_PATH.exec(path);
  if (ticker)
    return ticker[1] === undefined || isLeague(ticker[1])
      ? { page: 'ticker', asset: pages.ticker }
      : undefined;
  const lower = LOWER_THIRD_PATH.exec(path);
  if (lower) return isLeague(lower[1]) ? { page: 'lower-third', asset: pages['lower-third'] } : undefined;
  const moments = MOMENTS_PATH.exec(path);
  if (moments)
    return isLeague(moments[1]) && hasMoments
      ? { moments: { league: moments[1], gameId: moments[2] ?? '' } }
      : undefined;
  const game = GAME_PATH.exec(path);
  return game && isLeague(game[1]) ? { page: 'scorebug', asset: pages.scorebug } : undefined;
}

/** The lower third's query takes the rules' settings too. */
type RuleParams = Parameters<typeof checkOverlayQuery>[2];

/** Checks a page's query; false, with the notice sent (400), when it is not valid. */
function pageQueryValid(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  page: OverlayPage,
  ruleParams: RuleParams,
): boolean {
  try {
    checkOverlayQuery(page, url.searchParams, page === 'lower-third' ? ruleParams : undefined);
    return true;
  } catch (err) {
    if (!(err instanceof InvalidParamsError)) throw err;
    sendNotice(req, res, url, 400, {
      title: 'Overlay parameter not valid',
      detail: err.message,
      where: `${url.pathname} · HTTP 400`,
    });
    return false;
  }
}

/** A page or asset as it is, or 304 when the browser holds it already. */
function sendAsset(req: IncomingMessage, res: ServerResponse, asset: Asset): void {
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, { etag: asset.etag });
    res.end();
    return;
  }
  res.writeHead(200, {
    'content-type': asset.type,
    'content-length': asset.body.length,
    etag: asset.etag,
    // Revalidate each load: a cheap 304, and a new daemon version is picked up at once.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}

async function firstSnapshot(
  firstPaint: FirstPaint,
  league: League,
  gameId: string,
  query: URLSearchParams,
): Promise<GameSnapshot | undefined> {
  try {
    return await firstPaint(league, gameId, Number(query.get('delay') ?? 0));
  } catch {
    // The bus is away: the page is served without it and its stream brings the game.
    return undefined;
  }
}

/** `/moments` of a game, and the rules' settings as the lower third's query takes them. */
interface MomentsEndpoint {
  ruleParams: NonNullable<RuleParams>;
  send(req: IncomingMessage, res: ServerResponse, url: URL, league: League, gameId: string): Promise<void>;
}

function momentsEndpoint({ rules, bus }: NonNullable<OverlayRouteOptions['moments']>): MomentsEndpoint {
  const source: MomentsSource = createMomentsSource({ bus, rules });
  const ruleParams = {
    accepts: (name: string) => rules.accepts(name),
    check: (query: URLSearchParams) => void rules.settings(query),
  };

  async function send(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    league: League,
    gameId: string,
  ): Promise<void> {
    const query = new URLSearchParams(url.searchParams);
    const through = query.get('through');
    query.delete('through');
    query.delete('token');
    let settings: { key: string; settings: unknown };
    try {
      if (through === null || !OFFSET_PATTERN.test(through))
        throw new InvalidParamsError('through', through ?? undefined, 'an event offset <ms>-<n>', 'overlay');
      for (const name of query.keys())
        if (!rules.accepts(name))
          throw new InvalidParamsError(
            name,
            query.get(name),
            'one of through, token, rules, <rule>.<setting>',
            'overlay',
          );
      settings = rules.settings(query);
    } catch (err) {
      if (!(err instanceof InvalidParamsError)) throw err;
      sendError(res, 400, 'INVALID_PARAMS', err.message);
      return;
    }
    const moments = await source.moments(league, gameId, through, settings);
    const body = JSON.stringify({ league, gameId, through, moments });
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      // The answer depends on the log at the moment of asking only through `through`; it is small.
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return { ruleParams, send };
}

/**
 * The page with the game's snapshot in its slot. The body changes with the game, so it is not
 * cached. `<` is escaped so no text of the game (a play's text) can close the script element.
 */
function sendWithSnapshot(
  req: IncomingMessage,
  res: ServerResponse,
  asset: Asset,
  snapshot: GameSnapshot,
): void {
  const json = JSON.stringify(snapshot).replace(/</g, '\\u003c');
  const tag = `<script type="application/json" id="first-paint">${json}</script>`;
  const body = Buffer.from(asset.body.toString('utf8').replace(FIRST_PAINT_SLOT, () => tag));
  res.writeHead(200, {
    'content-type': asset.type,
    'content-length': body.length,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Why an overlay page was refused, as an operator setting up a browser source reads it. */
const REFUSALS = {
  missing: {
    title: 'Token required',
    detail: 'This daemon needs a token: add ?token=<token> (one of COURTSIDE_TOKENS) to the overlay URL.',
  },
  rejected: {
    title: 'Token not accepted',
    detail:
      "The token in this overlay URL is not one of the daemon's tokens (COURTSIDE_TOKENS): check the URL.",
  },
} as const;

let noticeTemplate: string | undefined;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A small styled HTML notice in place of a JSON error body: the pages are opened by a broadcast
 * browser source, where JSON shows as a white box over the video. With `?transparent=1` the notice
 * keeps the overlay's transparent background.
 */
function sendNotice(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  status: number,
  text: { title: string; detail: string; where: string },
  headers: Record<string, string> = {},
): void {
  noticeTemplate ??= readFileSync(join(assetDir(), 'refused.html'), 'utf8');
  const values: Record<string, string> = {
    htmlClass: url.searchParams.get('transparent') === '1' ? 'transparent' : '',
    ...text,
  };
  const body = noticeTemplate.replace(/\{\{(\w+)\}\}/g, (_, key: string) => escapeHtml(values[key] ?? ''));
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // The notice needs its inline style and nothing else: no script, no request of any kind.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Answers a refused request for an overlay page (no token, a wrong one) with the notice. The status
 * stays 401. Returns false, having sent nothing, for requests that are not a GET or HEAD of an
 * overlay page, so the caller sends its usual error. The presented token is never echoed.
 */
export function sendOverlayRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  headers: Record<string, string> = {},
): boolean {
  const path = url.pathname;
  if (!path.startsWith('/overlay/') || path.startsWith('/overlay/assets/') || MOMENTS_PATH.test(path))
    return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const presented = Boolean(url.searchParams.get('token')) || req.headers.authorization !== undefined;
  const reason = presented ? REFUSALS.rejected : REFUSALS.missing;
  const game = GAME_PATH.exec(path);
  const where = game && isLeague(game[1]) ? `${game[1]} game ${game[2] ?? ''}` : path;
  sendNotice(
    req,
    res,
    url,
    401,
    { title: reason.title, detail: reason.detail, where: `${where} · HTTP 401` },
    headers,
  );
  return true;
}
