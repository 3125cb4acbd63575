import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlayRoute } from '../../src/server/overlay-page.js';
import { startApi, type ApiHarness } from './routes/helpers.js';
import { ARTIFACTS, HAVE_CHROMIUM, launchChromium } from '../support/chromium.js';

/**
 * The styled notice an overlay page gets instead of a JSON error when its token is missing or
 * wrong, in a real headless Chromium (Debian's). The daemon's server checks the token before
 * any route runs and answers overlay pages with the notice, everything else with the JSON error.
 */
const TOKEN = 's3cret';

describe.skipIf(!HAVE_CHROMIUM)('overlay refusal page in Chromium', () => {
  let api: ApiHarness | undefined;
  let browser: Browser | undefined;
  let base = '';

  beforeAll(async () => {
    // The daemon's own server, with a token required: it refuses before any route runs.
    api = await startApi({ tokens: [TOKEN], routes: [overlayRoute()] });
    base = api.url;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  async function visit(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ page: Page; status: number; type: string; text: string }> {
    const page = await (browser as Browser).newPage({
      viewport: { width: 480, height: 160 },
      extraHTTPHeaders: headers,
    });
    const response = await page.goto(`${base}${path}`);
    return {
      page,
      status: response?.status() ?? 0,
      type: response?.headers()['content-type'] ?? '',
      text: await page.evaluate(() => document.body.innerText),
    };
  }

  it('no token: 401, an HTML notice that says a token is needed and how to give it', async () => {
    const { page, status, type, text } = await visit('/overlay/mens/900007000');
    expect(status).toBe(401);
    expect(type).toMatch(/^text\/html/);
    expect(text).toContain('Token required');
    expect(text).toContain('?token=');
    expect(text).toContain('mens game 900007000');
    // A card on the page, not raw JSON.
    expect(text).not.toContain('{');
    expect(await page.isVisible('[data-testid="refused"]')).toBe(true);
    // Without ?transparent=1 the page background is solid, like the overlay's.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
      'rgba(0, 0, 0, 0)',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'overlay-token-missing.png') });
    await page.close();
  });

  it('a wrong token: 401, "not accepted", never echoing the token; transparent with ?transparent=1', async () => {
    const { page, status, type, text } = await visit(
      '/overlay/womens/900007001?token=guess-one&transparent=1&delay=30',
    );
    expect(status).toBe(401);
    expect(type).toMatch(/^text\/html/);
    expect(text).toContain('Token not accepted');
    expect(await page.content()).not.toContain('guess-one');
    const backgrounds = await page.evaluate(() => ({
      html: getComputedStyle(document.documentElement).backgroundColor,
      body: getComputedStyle(document.body).backgroundColor,
      card: getComputedStyle(document.querySelector('[data-testid="refused"]') as Element).backgroundColor,
    }));
    expect(backgrounds.html).toBe('rgba(0, 0, 0, 0)');
    expect(backgrounds.body).toBe('rgba(0, 0, 0, 0)');
    // The card itself stays opaque enough to read over video.
    expect(backgrounds.card).not.toBe('rgba(0, 0, 0, 0)');
    await page.screenshot({ path: join(ARTIFACTS, 'overlay-token-wrong.png'), omitBackground: true });
    await page.close();
  });

  it('headers: the caller’s WWW-Authenticate, no caching, a policy that allows no script or request', async () => {
    const res = await fetch(`${base}/overlay/mens/1`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const body = await res.text();
    expect(body).not.toMatch(/<script/i);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    const head = await fetch(`${base}/overlay/mens/1`, { method: 'HEAD' });
    expect(head.status).toBe(401);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await head.text()).toBe('');
    // The path is shown escaped (URL parsing percent-encodes < > and ", but not ' and &).
    const hostile = await fetch(`${base}/overlay/x'&y`);
    expect(hostile.status).toBe(401);
    const shown = await hostile.text();
    expect(shown).toContain('/overlay/x&#39;&#38;y');
    expect(shown).not.toContain("x'&y");
  });

  it('leaves everything else to the caller: other paths and methods keep the JSON error', async () => {
    for (const [path, method] of [
      ['/v1/games/live', 'GET'],
      ['/overlay/mens/1', 'POST'],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
    }
    // Assets stay public, and the right token gets the overlay page itself.
    expect((await fetch(`${base}/overlay/assets/colors.js`)).status).toBe(200);
    const page = await fetch(`${base}/overlay/mens/1?token=${TOKEN}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Waiting for game');
  });
});
