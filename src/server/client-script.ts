import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendError, type RouteHandler } from './http-types.js';

/**
 * `GET /client/courtside.js`: the client library (`src/live-client/`), served as the ES modules it
 * is, so a page without a build step imports it from the daemon it talks to. The files carry no
 * data: no token is needed (server.ts lists the prefix as public).
 */
export const CLIENT_PATH = '/client/';

const JS = 'text/javascript; charset=utf-8';
const TS = 'text/plain; charset=utf-8';
// The entry and the modules it imports; the .d.ts files let an editor type a page's imports.
const FILES: Readonly<Record<string, string>> = {
  'courtside.js': JS,
  'emitter.js': JS,
  'game-state.js': JS,
  'options.js': JS,
  'subscription.js': JS,
  'courtside.d.ts': TS,
  'events.d.ts': TS,
};

interface File {
  body: Buffer;
  type: string;
  etag: string;
}

function libraryDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // From src/server (tsx) the library sits in src/live-client; from dist/src/server it stays in src/.
  for (const dir of [join(here, '..', 'live-client'), join(here, '..', '..', '..', 'src', 'live-client')]) {
    if (existsSync(join(dir, 'courtside.js'))) return dir;
  }
  throw new Error('client library not found (src/live-client/courtside.js)');
}

export function clientScriptRoute(): RouteHandler {
  const dir = libraryDir();
  const files = new Map(
    Object.entries(FILES).map(([name, type]): [string, File] => {
      const body = readFileSync(join(dir, name));
      return [name, { body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` }];
    }),
  );
  return (req, res, url) => {
    if (!url.pathname.startsWith(CLIENT_PATH)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${url.pathname}`, {
        headers: { allow: 'GET, HEAD' },
      });
      return true;
    }
    const file = files.get(url.pathname.slice(CLIENT_PATH.length));
    if (!file) {
      sendError(res, 404, 'NOT_FOUND', `no such file; the client library is ${CLIENT_PATH}courtside.js`);
      return true;
    }
    const headers = {
      etag: file.etag,
      // Revalidate each load (a cheap 304): a page picks up a new daemon's library at once, and
      // the library always matches the protocol of the daemon that serves it.
      'cache-control': 'no-cache',
      // Module scripts are fetched with CORS: pages on other origins may import it too.
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    };
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    res.writeHead(200, { ...headers, 'content-type': file.type, 'content-length': file.body.length });
    res.end(req.method === 'HEAD' ? undefined : file.body);
    return true;
  };
}
