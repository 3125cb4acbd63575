import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameSnapshot } from '../../src/model/events.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type SimulatedGame } from '../../src/simulator/index.js';
import { startDaemon } from '../cli/harness.js';
import { waitFor } from '../support/wait-for.js';
import { HAVE_CHROMIUM, launchChromium } from '../support/chromium.js';
import {
  TICKER_MINIMUMS,
  expectClean,
  layoutProblems,
  openPage,
  screenshot,
  type OpenPage,
} from './overlay-harness.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * The slate ticker in Debian's Chromium against a real daemon and a simulated evening of five
 * games in both leagues, tipping off an hour apart: at the frozen moment one game is over, three
 * are live and the rest to come. The ticker must list every one, live first, with the daemon's
 * scores, and move when the games do.
 */
interface Cell {
  id: string;
  league: string;
  state: string;
  away: string;
  home: string;
  detail: string;
}

async function cells(page: Page): Promise<Cell[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-testid="ticker-games"] .game')).map((li) => {
      const el = li as HTMLElement;
      const side = (s: string): string =>
        `${el.querySelector(`.${s} .abbr`)?.textContent ?? ''} ${el.querySelector(`.${s} .score`)?.textContent ?? ''}`;
      return {
        id: el.dataset.gameId ?? '',
        league: el.dataset.league ?? '',
        state: el.dataset.state ?? '',
        away: side('away'),
        home: side('home'),
        detail: el.querySelector('.detail')?.textContent ?? '',
      };
    }),
  );
}

describe.skipIf(!HAVE_CHROMIUM)('slate ticker in Chromium', () => {
  let browser: Browser | undefined;
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  let base = '';
  // The evening starts at noon Eastern (easternNoonToday), so its five games, four hours of
  // tip-offs, all fall on the one day the ticker's scoreboards list.
  let now = easternNoonToday();
  const clock = { now: () => now };

  beforeAll(async () => {
    upstream = await startUpstream({
      simulate: { games: 5, seed: 7, staggerMs: 60 * 60_000 },
      speed: 1,
      clock,
      logger: silentLogger,
    });
    // Two and a half hours after the first tip-off: the first game (about two hours long) is over.
    now = (upstream.games[0] as SimulatedGame).startAt + 150 * 60_000;
    daemon = await startDaemon(upstream.url);
    base = daemon.url;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
    await upstream?.close();
  });

  /** The daemon's snapshot of every live game, once each has its state at the frozen moment. */
  async function liveSnapshots(): Promise<GameSnapshot[]> {
    const live = (upstream?.games ?? []).filter((g) => g.state(now).state === 'in');
    const snaps: GameSnapshot[] = [];
    await waitFor(
      async () => {
        snaps.length = 0;
        for (const g of live) {
          const res = await fetch(`${base}/v1/games/${g.league}/${g.id}`);
          if (!res.ok) return false;
          const snap = (await res.json()) as GameSnapshot;
          const view = g.state(now);
          if (snap.score.home !== view.homeScore || snap.score.away !== view.awayScore) return false;
          snaps.push(snap);
        }
        return true;
      },
      30_000,
      'the daemon to hold every live game at the frozen moment',
    );
    return snaps;
  }

  function expectMatches(shown: Cell[], snaps: GameSnapshot[]): void {
    for (const snap of snaps) {
      const cell = shown.find((c) => c.id === snap.gameId);
      expect(cell, `game ${snap.gameId}`).toMatchObject({
        state: 'in',
        away: `${snap.teams.away.abbreviation} ${snap.score.away}`,
        home: `${snap.teams.home.abbreviation} ${snap.score.home}`,
      });
    }
  }

  it('both leagues: all five games, live first, with the daemon scores, moving live', async () => {
    const games = upstream?.games ?? [];
    const states = games.map((g) => g.state(now).state);
    expect(states.filter((s) => s === 'post').length).toBeGreaterThanOrEqual(1);
    expect(states.filter((s) => s === 'pre').length).toBeGreaterThanOrEqual(1);
    const snaps = await liveSnapshots();
    expect(snaps.length).toBeGreaterThanOrEqual(2);

    const opened: OpenPage = await openPage(browser as Browser, `${base}/overlay/ticker?speed=0`, {
      width: 1920,
      height: 64,
    });
    let shown: Cell[] = [];
    await waitFor(
      async () => {
        shown = await cells(opened.page);
        return (
          shown.length === 5 && snaps.every((s) => shown.some((c) => c.id === s.gameId && c.state === 'in'))
        );
      },
      20_000,
      () => `five games on the ticker, has ${JSON.stringify(shown)}`,
    );
    // Live games first, then those to come, then the finished ones.
    const order = { in: 0, pre: 1, post: 2 } as Record<string, number>;
    const ranks = shown.map((c) => order[c.state] ?? 9);
    expect([...ranks].sort()).toEqual(ranks);
    expect(new Set(shown.map((c) => c.league))).toEqual(new Set(['mens', 'womens']));
    expectMatches(shown, snaps);
    for (const cell of shown) {
      const game = games.find((g) => g.id === cell.id) as SimulatedGame;
      expect(cell.state, `game ${cell.id}`).toBe(game.state(now).state);
      if (cell.state === 'post') expect(cell.detail).toMatch(/^Final/);
    }
    await screenshot(opened, 'ticker-both-leagues.png');
    // Each cell and the label keep the scorebug's minimum sizes, and nothing leaves its box (the
    // strip itself runs past the window on purpose, to scroll).
    expect(await layoutProblems(opened.page, '.ticker-label, .ticker-games .game', TICKER_MINIMUMS)).toEqual(
      [],
    );

    // Twelve game minutes later: the live games' new scores arrive through the stream.
    now += 12 * 60_000;
    const later = await liveSnapshots();
    await waitFor(
      async () => {
        shown = await cells(opened.page);
        return later.every((s) =>
          shown.some((c) => c.id === s.gameId && c.home === `${s.teams.home.abbreviation} ${s.score.home}`),
        );
      },
      20_000,
      () => `the ticker to move to the new scores, has ${JSON.stringify(shown)}`,
    );
    expectMatches(shown, later);
    expectClean(opened, base);
    await opened.page.close();
  }, 120_000);

  it('one league, scrolling, with the theme and transparent options', async () => {
    const opened = await openPage(
      browser as Browser,
      `${base}/overlay/womens/ticker?theme=light&transparent=1`,
      {
        width: 320,
        height: 48,
      },
    );
    let shown: Cell[] = [];
    await waitFor(
      async () => (shown = await cells(opened.page)).length === 2,
      20_000,
      () => `the two WNBA games, has ${JSON.stringify(shown)}`,
    );
    expect(shown.every((c) => c.league === 'womens')).toBe(true);
    // Wider than its 320 px window: the strip scrolls.
    const offset = (): Promise<number> =>
      opened.page.evaluate(
        () =>
          (document.querySelector('[data-testid="ticker-track"]') as HTMLElement).getBoundingClientRect()
            .left,
      );
    expect(await opened.page.evaluate(() => document.getElementById('ticker')?.dataset.scrolling)).toBe('1');
    const first = await offset();
    await waitFor(async () => (await offset()) < first - 10, 5_000, 'the strip to move left');
    const backgrounds = await opened.page.evaluate(() => ({
      body: getComputedStyle(document.body).backgroundColor,
      html: getComputedStyle(document.documentElement).backgroundColor,
      theme: document.documentElement.dataset.theme,
    }));
    expect(backgrounds).toEqual({ body: 'rgba(0, 0, 0, 0)', html: 'rgba(0, 0, 0, 0)', theme: 'light' });
    await screenshot(opened, 'ticker-womens-light.png');
    expectClean(opened, base);
  }, 60_000);

  it('a bad parameter gets a notice naming it and the form it takes', async () => {
    const res = await fetch(`${base}/overlay/ticker?speed=fast`);
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(body).toContain('parameter &#34;speed&#34;');
    expect(body).toContain('an integer from 0 to 400');
    expect((await fetch(`${base}/overlay/nhl/ticker`)).status).toBe(404);
    expect((await fetch(`${base}/overlay/ticker?layout=full`)).status).toBe(400);
  });
});
