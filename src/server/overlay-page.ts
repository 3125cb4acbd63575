import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLeague } from '../core/leagues.js';
import { sendError, type RouteHandler } from './http-types.js';

/**
 * The broadcast overlay: `GET /overlay/<league>/<gameId>` serves a static page that feeds itself
 * from the WebSocket. Assets are plain files served from memory, so the page needs no build step
 * and nothing from outside the daemon. `sendOverlayRefusal` is the page's answer to a request the
 * token check refuses, for the server to send in place of its JSON error.
 */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'overlay.js': 'text/javascript; charset=utf-8',
  'colors.js': 'text/javascript; charset=utf-8',
  'overlay.css': 'text/css; charset=utf-8',
};
const GAME_PATH = /^\/overlay\/([a-z]+)\/([A-Za-z0-9-]{1,64})\/?$/;

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function assetDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // From src/server (tsx) the assets sit beside this file; from dist/src/server they stay in src/.
  for (const dir of [join(here, 'overlay'), join(here, '..', '..', '..', 'src', 'server', 'overlay')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  throw new Error('overlay assets not found');
}

function load(dir: string, name: string, type: string): Asset {
  const body = readFileSync(join(dir, name));
  return { body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

export function overlayRoute(): RouteHandler {
  const dir = assetDir();
  const page = load(dir, 'index.html', 'text/html; charset=utf-8');
  const assets = new Map(Object.entries(ASSET_TYPES).map(([name, type]) => [name, load(dir, name, type)]));

  return (req, res, url) => {
    if (!url.pathname.startsWith('/overlay/')) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url.pathname}`, {
        headers: { allow: 'GET, HEAD' },
      });
      return true;
    }
    let asset: Asset | undefined;
    if (url.pathname.startsWith('/overlay/assets/')) {
      asset = assets.get(url.pathname.slice('/overlay/assets/'.length));
    } else {
      const m = GAME_PATH.exec(url.pathname);
      if (m && isLeague(m[1])) asset = page;
    }
    if (!asset) {
      sendError(res, 404, 'NOT_FOUND', 'no overlay here: use /overlay/<mens|womens>/<gameId>');
      return true;
    }
    if (req.headers['if-none-match'] === asset.etag) {
      res.writeHead(304, { etag: asset.etag });
      res.end();
      return true;
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
    return true;
  };
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

let refusedTemplate: string | undefined;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Answers a refused request for an overlay page (no token, a wrong one) with a small styled HTML
 * notice in place of the JSON error body: the page is opened by a broadcast browser source, where
 * JSON shows as a white box over the video. The status stays 401; with
 * `?transparent=1` the notice keeps the overlay's transparent background. Returns false, having
 * sent nothing, for requests that are not a GET or HEAD of an overlay page, so the caller sends
 * its usual error. The presented token is never echoed.
 */
export function sendOverlayRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  headers: Record<string, string> = {},
): boolean {
  const path = url.pathname;
  if (!path.startsWith('/overlay/') || path.startsWith('/overlay/assets/')) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const presented = Boolean(url.searchParams.get('token')) || req.headers.authorization !== undefined;
  const reason = presented ? REFUSALS.rejected : REFUSALS.missing;
  const game = GAME_PATH.exec(path);
  const where = game && isLeague(game[1]) ? `${game[1]} game ${game[2] ?? ''}` : path;
  refusedTemplate ??= readFileSync(join(assetDir(), 'refused.html'), 'utf8');
  const values: Record<string, string> = {
    htmlClass: url.searchParams.get('transparent') === '1' ? 'transparent' : '',
    title: reason.title,
    detail: reason.detail,
    where: `${where} · HTTP 401`,
  };
  const body = refusedTemplate.replace(/\{\{(\w+)\}\}/g, (_, key: string) => escapeHtml(values[key] ?? ''));
  res.writeHead(401, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // The notice needs its inline style and nothing else: no script, no request of any kind.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
