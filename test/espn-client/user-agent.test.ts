import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEspnClient } from '../../src/espn-client/client.js';
import { InvalidConfigError, type UpstreamBlockedError } from '../../src/core/errors.js';
import { DEFAULT_USER_AGENT } from '../../src/core/version.js';
import { loadConfig } from '../../src/daemon/config.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { runCli } from '../cli/harness.js';

/** A User-Agent of a form ESPN's edge blocks: refused at start-up unless forced; blocked if sent. */

let upstream: RunningUpstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});

describe('a blocked User-Agent', () => {
  it('is refused when the client is created, naming the form and the accepted one', () => {
    for (const agent of ['MyApp/1.0', 'Mozilla/5.0 (X11; Linux x86_64)', 'Wget/1.21', 'PostmanRuntime/7.4']) {
      let error: unknown;
      try {
        createEspnClient({ upstream: upstream.url, userAgent: agent });
      } catch (e) {
        error = e;
      }
      expect(error, agent).toBeInstanceOf(InvalidConfigError);
      expect((error as InvalidConfigError).field).toBe('userAgent');
      expect((error as Error).message).toContain(JSON.stringify(agent));
      expect((error as Error).message).toContain('Name/version (+https://your.site)');
    }
    expect(upstream.requests.count()).toBe(0);
  });

  it('when forced, is sent and answered by the edge: UPSTREAM_BLOCKED, one request', async () => {
    const c = createEspnClient({
      upstream: upstream.url,
      userAgent: 'MyApp/1.0',
      forceUserAgent: true,
      cache: false,
    });
    try {
      const error = (await c.mens_scoreboard().catch((e: unknown) => e)) as UpstreamBlockedError;
      expect(error.code).toBe('UPSTREAM_BLOCKED');
      expect(error.userAgent).toBe('MyApp/1.0');
      expect(error.message).toContain(DEFAULT_USER_AGENT);
      expect(upstream.requests.entries.map((r) => r.status)).toEqual([403]);
    } finally {
      await c.close();
    }
  });

  it('is refused by the daemon configuration (COURTSIDE_USER_AGENT, --user-agent) unless forced', () => {
    expect(() => loadConfig({ env: { COURTSIDE_USER_AGENT: 'MyApp/1.0' } })).toThrow(
      /COURTSIDE_USER_AGENT: User-Agent "MyApp\/1.0" is a bare product token/,
    );
    expect(() => loadConfig({ env: {}, flags: { userAgent: 'Deno/2.0' } })).toThrow(/--user-agent: .*Deno/);
    const forced = loadConfig({
      env: { COURTSIDE_USER_AGENT: 'MyApp/1.0', COURTSIDE_FORCE_USER_AGENT: 'true' },
    });
    expect(forced).toMatchObject({ userAgent: 'MyApp/1.0', forceUserAgent: true });
    expect(loadConfig({ env: {}, flags: { userAgent: 'Deno/2.0', forceUserAgent: true } })).toMatchObject({
      userAgent: 'Deno/2.0',
      forceUserAgent: true,
    });
    expect(loadConfig({ env: {} })).toMatchObject({ userAgent: undefined, forceUserAgent: false });
    expect(
      loadConfig({ env: { COURTSIDE_USER_AGENT: 'acme-scores/2.1 (+https://acme.example)' } }).userAgent,
    ).toBe('acme-scores/2.1 (+https://acme.example)');
  });
});

describe('courtside serve with a blocked --user-agent', () => {
  it('exits 2 before starting anything, naming the form and the accepted one', async () => {
    upstream.requests.clear();
    const run = runCli(['serve', '--port', '0', '--upstream', upstream.url, '--user-agent', 'Wget/1.21']);
    const exit = await run.exited;
    expect(exit.code).toBe(2);
    expect(run.stderr()).toMatch(/^courtside serve: --user-agent: User-Agent "Wget\/1.21" is Wget/);
    expect(run.stderr()).toContain('Name/version (+https://your.site)');
    expect(upstream.requests.count()).toBe(0);
  }, 60_000);
});
