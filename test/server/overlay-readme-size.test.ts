import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { isLeague } from '../../src/core/leagues.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { scorebugStates } from '../../src/simulator/scorebug-states.js';
import { ROOT, startDaemon } from '../cli/harness.js';
import { HAVE_CHROMIUM, launchChromium } from '../support/chromium.js';
import {
  SCOREBUG_MINIMUMS,
  layoutProblems,
  openPage,
  screenshot,
  text,
  type OpenPage,
} from './overlay-harness.js';

/**
 * The README's OBS recipe as a user follows it: its scorebug URL opened in Chromium at the width
 * and height the README gives, both read from the README itself so that they cannot drift from
 * what is tested. Every one of the scorebug's hardest states (`src/simulator/scorebug-states.ts`:
 * the longest abbreviations, foul trouble on both sides, overtime, the final) is stored under the
 * README's game id and must show whole: the graphic inside the source's box, nothing that leaves
 * its parent, no text cut, the period, the clock and every play line on screen.
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = README.split(/^## The overlay in OBS$/m)[1]?.split(/^## /m)[0] ?? '';
const obsUrl = /^```\n(http:\/\/\S+\/overlay\/\S+)\n```$/m.exec(section)?.[1] ?? '';
const size = /with a width of (\d+) and a height of (\d+)/.exec(section);
const viewport = { width: Number(size?.[1]), height: Number(size?.[2]) };

describe('the README’s OBS recipe', () => {
  it('gives one scorebug URL and one size', () => {
    expect(obsUrl).toMatch(/\/overlay\/(mens|womens)\/(\d+|live)\?/);
    expect(viewport.width).toBeGreaterThan(0);
    expect(viewport.height).toBeGreaterThan(0);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the README’s OBS URL at the README’s size', () => {
  const url = new URL(obsUrl || 'http://localhost/overlay/mens/0');
  const [, , league = '', gameId = ''] = url.pathname.split('/');
  let browser: Browser | undefined;
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  const opened: OpenPage[] = [];

  beforeAll(async () => {
    upstream = await startUpstream({ simulate: { games: 0, seed: 1 }, logger: silentLogger });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const o of opened) await o.page.close();
    await browser?.close();
    await daemon?.close();
    await upstream?.close();
  });

  it.each(scorebugStates().map((s) => [s.name, s] as const))('%s shows whole', async (name, state) => {
    if (!isLeague(league)) throw new Error(`the README's URL names no league: ${obsUrl}`);
    // `/overlay/<league>/live` leads to the league's current game: here the only one the daemon has.
    const snap = { ...state.snapshot, league, gameId: gameId === 'live' ? state.snapshot.gameId : gameId };
    // A daemon of its own for each state: behind the URL's delay a page would show the state before.
    await daemon?.close();
    daemon = await startDaemon(upstream?.url ?? '');
    await daemon.bus.commit({ league, gameId: snap.gameId }, [], { meta: { snapshot: snap } });
    const o = await openPage(browser as Browser, `${daemon.url}${url.pathname}${url.search}`, viewport);
    opened.push(o);
    expect(await o.page.evaluate(() => document.getElementById('overlay')?.dataset.game)).toBe('ready');
    expect(await text(o.page, 'home-score')).toBe(String(snap.score.home));
    await o.page.evaluate(() => document.fonts.ready);
    const outside = await o.page.evaluate(({ width, height }) => {
      const out: string[] = [];
      const root = document.getElementById('overlay');
      if (!root) return ['#overlay is not on the page'];
      for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
        if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.left < -0.5 || box.top < -0.5 || box.right > width + 0.5 || box.bottom > height + 0.5)
          out.push(
            `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${Array.from(el.classList).join('.')} at ${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)}`,
          );
      }
      return out;
    }, viewport);
    await screenshot(o, `readme-obs-${name}.png`);
    expect(outside, `outside ${viewport.width}×${viewport.height}`).toEqual([]);
    expect(await layoutProblems(o.page, '#overlay', SCOREBUG_MINIMUMS)).toEqual([]);
    // What the recipe is for: the period and the clock (between periods and at the end, one says it).
    const period = o.page.locator('[data-testid="period"]');
    const clock = o.page.locator('[data-testid="clock"]');
    expect((await period.isVisible()) || (await clock.isVisible())).toBe(true);
    if (snap.state === 'in' && snap.clock !== '0.0') {
      expect(await period.isVisible()).toBe(true);
      expect(await clock.isVisible()).toBe(true);
    }
  });
});
