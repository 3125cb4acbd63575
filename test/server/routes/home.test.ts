import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../src/bus/memory.js';
import { createEspnClient } from '../../../src/espn-client/client.js';
import { createSnapshotSource } from '../../../streams/snapshot-source.js';
import { HOME_DOCS } from '../../../src/server/routes/index.js';

import { fixedSnapshots, snapshot, startApi, type ApiHarness } from './helpers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const live = snapshot('mens', '401', 'in', { home: 71, away: 66 });
// A team name that must come out escaped, not as markup.
live.teams.away = { ...live.teams.away, abbreviation: '<b>X' };
const GAMES = [live, snapshot('womens', '501', 'in'), snapshot('mens', '402', 'post')];

/** A call that fails for real: nothing listens on port 1. */
const unreachable = () =>
  createEspnClient({ upstream: 'http://127.0.0.1:1', retries: 0, timeoutMs: 2_000, cache: false });

describe('home page docs list', () => {
  it('names every document of docs/, and only those', () => {
    const files = readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3));
    expect(HOME_DOCS.map((d) => d.name).sort()).toEqual(files.sort());
  });
});

describe(`GET /`, () => {
  let api: ApiHarness | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('lists the live games with their overlays, the endpoints and the docs, loading nothing from outside', async () => {
    api = await startApi({ snapshots: fixedSnapshots(GAMES) });
    const res = await fetch(`${api.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toContain('href="/overlay/mens/401"');
    expect(html).toContain('href="/overlay/womens/501"');
    expect(html).toContain('href="/v1/games/mens/401"');
    // A finished game is not live: it is linked under its own heading, after the live ones.
    const [liveSection = '', finishedSection = ''] = html.split('<h2>Finished games</h2>');
    expect(liveSection).not.toContain('/overlay/mens/402');
    expect(finishedSection.split('<h2>')[0]).toContain('href="/overlay/mens/402"');
    expect(html).toContain('66 – 71');
    expect(html).toContain('&lt;b&gt;X');
    expect(html).not.toContain('<b>X');
    for (const path of ['/healthz', '/openapi.json', '/v1/asyncapi.json', '/v1/games/live', '/metrics']) {
      expect(html).toContain(`href="${path}"`);
    }
    for (const doc of HOME_DOCS) expect(html).toContain(`/docs/${doc.name}.md"`);
    // Nothing the browser would fetch: no script, stylesheet, image, font or frame.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|@import|url\(/i);
    const head = await fetch(`${api.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('says when the upstream cannot be reached, and how to run without it', async () => {
    api = await startApi({ snapshots: fixedSnapshots([]) });
    const page = async () => (await fetch(`${api?.url}/`)).text();
    expect(await page()).toContain('Waiting for the first poll');
    const offline = unreachable();
    await expect(api.tracker.wrap(offline, { health: true }).call('mens_scoreboard')).rejects.toMatchObject({
      code: 'UPSTREAM_NETWORK',
    });
    await offline.close();
    const down = await page();
    expect(down).toContain('Cannot get live data from the upstream');
    expect(down).toContain('UPSTREAM_NETWORK');
    expect(down).toContain('<code>npm run demo</code>');
    expect(down).toContain('No game in progress that this daemon can see');
    await api.tracker.wrap(api.client, { health: true }).call('mens_scoreboard', { dates: '20241201' });
    const up = await page();
    expect(up).toContain('answering since');
    expect(up).not.toContain('npm run demo');
  });

  it('keeps a finished game linked for the finished-game TTL, then drops it', async () => {
    // The engine's store: a finished game's state expires after the TTL (virtual clock).
    let now = Date.parse('2026-03-01T03:00:00Z');
    const bus = createMemoryBus({ now: () => now });
    const ttlMs = 86_400_000;
    const game = { league: 'mens' as const, gameId: '402' };
    const final = {
      ...snapshot('mens', '402', 'post', { home: 101, away: 99 }),
      updatedAt: new Date(now).toISOString(),
    };
    final.status = { name: 'STATUS_FINAL', detail: 'Final', description: 'Final' };
    await bus.commit(game, [], { meta: { snapshot: final } });
    await bus.expireGame(game, ttlMs);
    api = await startApi({ snapshots: createSnapshotSource(bus) });
    const page = async () => (await fetch(`${api?.url}/`)).text();

    now += ttlMs - 60_000;
    const during = await page();
    expect(during).toContain('No game in progress');
    expect(during).toContain('<h2>Finished games</h2>');
    expect(during).toContain('href="/overlay/mens/402"');
    expect(during).toContain('href="/v1/games/mens/402"');
    expect(during).toContain('99 – 101');
    expect(during).toContain('Final');

    now += 120_000;
    const after = await page();
    expect(after).toContain('No game in progress');
    expect(after).not.toContain('Finished games');
    expect(after).not.toContain('/overlay/mens/402');
    await bus.close();
  });

  it('needs a token like every endpoint, and carries a query token on to its links', async () => {
    api = await startApi({ snapshots: fixedSnapshots(GAMES), tokens: ['s3cret'] });
    const refused = await fetch(`${api.url}/`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    const html = await (await fetch(`${api.url}/?token=s3cret`)).text();
    expect(html).toContain('href="/overlay/mens/401?token=s3cret"');
    expect(html).toContain('href="/healthz?token=s3cret"');
    // The filter links keep the token after their own parameters.
    expect(html).toContain('href="/?league=womens&amp;token=s3cret"');
    // A token sent as a header is not written into the page.
    const header = await (await fetch(`${api.url}/`, { headers: { authorization: 'Bearer s3cret' } })).text();
    expect(header).toContain('href="/overlay/mens/401"');
    expect(header).not.toContain('s3cret');
  });

  it('refuses a bad filter with 400 INVALID_PARAMS, as /v1/games/live does', async () => {
    api = await startApi({ snapshots: fixedSnapshots(GAMES) });
    const res = await fetch(`${api.url}/?league=nba`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_PARAMS');
    expect(body.error.message).toContain('league "nba" is invalid');
    const womens = await (await fetch(`${api.url}/?league=womens`)).text();
    expect(womens).toContain('href="/overlay/womens/501"');
    expect(womens).not.toContain('href="/overlay/mens/401"');
    expect(womens).toContain('<strong>WNBA <small>1</small></strong>');
  });
});
