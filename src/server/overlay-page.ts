import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLeague } from '../core/leagues.js';
import { sendError, type RouteHandler } from './http-types.js';

/**
 * The broadcast overlay: `GET /overlay/<league>/<gameId>` serves a static page that feeds itself
 * from the WebSocket. Assets are plain files served from memory, so the page needs no build step
 * and nothing from outside the daemon.
 */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'overlay.js': 'text/javascript; charset=utf-8',
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
      sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}`, {
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
      sendError(res, 404, 'not_found', 'no overlay here: use /overlay/<mens|womens>/<gameId>');
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
