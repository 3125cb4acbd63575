import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleClientLibrary } from './live-client-bundle.js';
import { sendError, type RouteHandler } from './http-types.js';

/**
 * `GET /client/courtside.js`: the client library (`src/live-client/`) as one ES module, so a page
 * without a build step imports it from the daemon it talks to (or saves the one file). The files
 * carry no data: no token is needed (server.ts lists the prefix as public).
 */
export const CLIENT_PATH = '/client/';

const JS = 'text/javascript; charset=utf-8';
const TS = 'text/plain; charset=utf-8';
// The joined library, and the .d.ts files that let an editor type a page's imports.
const TYPES = ['courtside.d.ts', 'events.d.ts'];

interface File {
  body: Buffer;
  type: string;
  etag: string;
}

function libraryDir(): string {
  // The library sits in src/live-client, and the build copies it to dist/src/live-client.
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'live-client');
  if (!existsSync(join(dir, 'courtside.js')))
    throw new Error(`client library not found: ${dir}/courtside.js`);
  return dir;
}

export function clientScriptRoute(): RouteHandler {
  const dir = libraryDir();
  const file = (body: Buffer, type: string): File => ({
    body,
    type,
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
  });
  const files = new Map<string, File>([
    ['courtside.js', file(Buffer.from(bundleClientLibrary(dir)), JS)],
    ...TYPES.map((name): [string, File] => [name, file(readFileSync(join(dir, name)), TS)]),
  ]);
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
