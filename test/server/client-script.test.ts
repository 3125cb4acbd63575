import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { clientScriptRoute } from '../../src/server/client-script.js';
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
    expect(await res.text()).toBe(readFileSync(join(ROOT, 'src/live-client/courtside.js'), 'utf8'));
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await fetch(`${server.url}/client/courtside.js`, {
      headers: { 'if-none-match': etag ?? '' },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    // The modules it imports, and its types for an editor.
    for (const [name, type] of [
      ['emitter.js', 'text/javascript; charset=utf-8'],
      ['game-state.js', 'text/javascript; charset=utf-8'],
      ['options.js', 'text/javascript; charset=utf-8'],
      ['subscription.js', 'text/javascript; charset=utf-8'],
      ['courtside.d.ts', 'text/plain; charset=utf-8'],
    ]) {
      const r = await fetch(`${server.url}/client/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers.get('content-type')).toBe(type);
    }
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
