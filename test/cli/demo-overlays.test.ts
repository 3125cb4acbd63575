import type { Browser, Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import type { GameSituation, GameSnapshot } from '../../src/model/events.js';
import { HAVE_CHROMIUM, NO_CHROMIUM_REASON, launchChromium } from '../support/chromium.js';
import { HAVE_FIXTURES, loadFixture, NO_FIXTURES_REASON, describeRecorded } from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';
import { expectClean, openPage, screenshot, type OpenPage } from '../server/overlay-harness.js';
import { MENS_FINAL, runCli, type CliRun } from './harness.js';

/**
 * `courtside demo --replay <recorded game>` as a user runs it, and the three pages it prints opened
 * in Debian's Chromium: the scorebug shows the daemon's score and game situation, the ticker lists
 * the game with its score, and the lower third fires on the game's lead changes. Each page matches
 * the daemon at some moment of the live replay, with no console error and no request elsewhere.
 */
const SKIP_REASON = HAVE_CHROMIUM ? NO_FIXTURES_REASON : NO_CHROMIUM_REASON;
// 60x: the recorded game's first quarter, with fouls, timeouts and lead changes, in about a minute.
const SPEED = '60';

interface Shown {
  score: string;
  fouls: string;
  bonus: boolean;
}

async function scorebugSides(page: Page): Promise<{ home: Shown; away: Shown }> {
  return page.evaluate(() => {
    const q = (id: string): Element | null => document.querySelector(`[data-testid="${id}"]`);
    const side = (s: string) => ({
      score: q(`${s}-score`)?.textContent?.trim() ?? '',
      fouls: q(`${s}-fouls`)?.textContent?.trim() ?? '',
      bonus: (q(`${s}-bonus`)?.getClientRects().length ?? 0) > 0,
    });
    return { home: side('home'), away: side('away') };
  });
}

async function tickerCell(page: Page, gameId: string): Promise<{ away: string; home: string } | undefined> {
  return page.evaluate((id) => {
    const li = document.querySelector(`[data-testid="ticker-games"] .game[data-game-id="${id}"]`);
    if (!li) return undefined;
    const side = (s: string): string =>
      `${li.querySelector(`.${s} .abbr`)?.textContent ?? ''} ${li.querySelector(`.${s} .score`)?.textContent ?? ''}`;
    return { away: side('away'), home: side('home') };
  }, gameId);
}

describeRecorded(!HAVE_CHROMIUM || !HAVE_FIXTURES || !MENS_FINAL)(
  `courtside demo --replay in Chromium ${SKIP_REASON}`,
  () => {
    let demo: CliRun | undefined;
    let browser: Browser | undefined;
    afterEach(async () => {
      await browser?.close();
      demo?.kill();
    });

    it('prints a scorebug, a ticker and a lower third, and each shows the replayed game', async () => {
      const file = MENS_FINAL?.file ?? '';
      const id = loadFixture<{ header: { id: string } }>(file.split(/[/\\]/).slice(-2).join('/')).header.id;
      demo = runCli(['demo', '--port', '0', '--replay', file, '--speed', SPEED]);
      const [, base = ''] = await demo.waitForStdout(/^daemon at (http:\/\/\S+)$/m);
      const [, scorebugUrl = ''] = await demo.waitForStdout(
        new RegExp(`^overlay: (\\S+/overlay/mens/${id})$`, 'm'),
      );
      const [, tickerUrl = ''] = await demo.waitForStdout(/^ticker: +(\S+\/overlay\/ticker)$/m);
      const [, lowerUrl = ''] = await demo.waitForStdout(
        new RegExp(`^lower third: +(\\S+/overlay/mens/${id}/lower-third\\?\\S*)$`, 'm'),
      );

      browser = await launchChromium();
      const scorebug: OpenPage = await openPage(browser, scorebugUrl, { width: 480, height: 420 });
      const ticker: OpenPage = await openPage(browser, tickerUrl, { width: 1920, height: 48 });
      const lower: OpenPage = await openPage(browser, lowerUrl, { width: 800, height: 200 });

      const snapshot = async (): Promise<GameSnapshot | undefined> => {
        const res = await fetch(`${base}/v1/games/mens/${id}`);
        return res.ok ? ((await res.json()) as GameSnapshot) : undefined;
      };

      // The scorebug: at a moment with team fouls on the floor, the daemon's score, fouls and bonus.
      let want: unknown;
      let shown: unknown;
      await waitFor(
        async () => {
          const snap = await snapshot();
          const situation = snap?.situation as GameSituation | null | undefined;
          if (!snap || !situation || situation.home.fouls + situation.away.fouls === 0) return false;
          const side = (s: 'home' | 'away'): Shown => ({
            score: String(snap.score[s]),
            fouls: `Fouls ${situation[s].fouls}`,
            bonus: situation[s].bonus,
          });
          want = { home: side('home'), away: side('away') };
          shown = await scorebugSides(scorebug.page);
          return JSON.stringify(shown) === JSON.stringify(want);
        },
        90_000,
        () => `the scorebug to show ${JSON.stringify(want)}, shows ${JSON.stringify(shown)}`,
      );
      await screenshot(scorebug, 'demo-replay-scorebug.png', '#overlay');

      // The ticker: the game, with the daemon's score.
      let cell: unknown;
      await waitFor(
        async () => {
          const snap = await snapshot();
          if (!snap) return false;
          const { home, away } = snap.teams;
          want = {
            away: `${away.abbreviation} ${snap.score.away}`,
            home: `${home.abbreviation} ${snap.score.home}`,
          };
          cell = await tickerCell(ticker.page, id);
          return JSON.stringify(cell) === JSON.stringify(want);
        },
        60_000,
        () => `the ticker to show ${JSON.stringify(want)}, shows ${JSON.stringify(cell)}`,
      );
      await screenshot(ticker, 'demo-replay-ticker.png');

      // The lower third: a lead change card, one of the daemon's moments for the printed rules.
      await waitFor(
        async () =>
          (await lower.page.evaluate(() => document.getElementById('lower-third')?.dataset.showing)) !== '',
        90_000,
        'a lower third',
      );
      await lower.page.waitForTimeout(600);
      await screenshot(lower, 'demo-replay-lower-third.png');
      const card = await lower.page.evaluate(() => ({
        id: document.getElementById('lower-third')?.dataset.showing ?? '',
        rule: document.querySelector('[data-testid="card-rule"]')?.textContent ?? '',
        headline: document.querySelector('[data-testid="card-headline"]')?.textContent ?? '',
      }));
      expect(card.rule).toBe('Lead change');
      expect(card.headline).toMatch(/^\S+ take the lead$/);
      const rules = new URL(lowerUrl).search.slice(1);
      const res = await fetch(
        `${base}/overlay/mens/${id}/moments?through=${encodeURIComponent('9999999999999-0')}&${rules}`,
      );
      const body = (await res.json()) as { moments: Array<{ id: string; rule: string }> };
      expect(body.moments.find((m) => m.id === card.id)?.rule).toBe('lead_change');

      for (const page of [scorebug, ticker, lower]) expectClean(page, base);
    }, 240_000);
  },
);
