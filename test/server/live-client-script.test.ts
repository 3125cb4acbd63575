import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { bundleClientLibrary } from '../../src/server/live-client-bundle.js';
import { clientScriptRoute } from '../../src/server/live-client-script.js';
import type { DaemonServer } from '../../src/server/server.js';
import { ROOT } from '../cli/harness.js';
import { startServer } from './gateway-harness.js';

/**
 * `/client/courtside.js`: the client library served as is to pages without a build step, without
 * a token, importable from other origins, revalidated on every load.
 */
describe('GET /client/courtside.js', () => {
  let bus: Bus;
  let server: DaemonServer | undefined;
  afterEach(async () => {
    await server?.close();
    await bus?.close();
  });

  it('serves the library files as JavaScript, with an ETag, no token needed, CORS open', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, routes: [clientScriptRoute()], tokens: ['s3cret'] });
    const res = await fetch(`${server.url}/client/courtside.js`, {
      headers: { origin: 'https://obs.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(bundleClientLibrary(join(ROOT, 'src/live-client')));
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await fetch(`${server.url}/client/courtside.js`, {
      headers: { 'if-none-match': etag ?? '' },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    // Its types for an editor; the modules it was joined from are not served on their own.
    for (const name of ['courtside.d.ts', 'events.d.ts']) {
      const r = await fetch(`${server.url}/client/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await r.text()).toBe(readFileSync(join(ROOT, 'src/live-client', name), 'utf8'));
    }
    expect((await fetch(`${server.url}/client/emitter.js`)).status).toBe(404);
  });

  it('answers 404 for other files and 405 for other methods', async () => {
    bus = createMemoryBus();
    server = await startServer({ bus, routes: [clientScriptRoute()] });
    const missing = await fetch(`${server.url}/client/../package.json`);
    expect(missing.status).toBe(404);
    const other = await fetch(`${server.url}/client/index.js`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(
      /\/client\/courtside\.js/,
    );
    const post = await fetch(`${server.url}/client/courtside.js`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
