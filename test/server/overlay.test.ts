import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GameSnapshot } from '../../src/model/events.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { scorebugColors } from '../../src/server/overlay/colors.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type SimulatedGame } from '../../src/simulator/index.js';
import { MENS_FINAL, startDaemon } from '../cli/harness.js';
import { waitFor } from '../support/wait-for.js';
import { ARTIFACTS, HAVE_CHROMIUM, NO_CHROMIUM_REASON, launchChromium } from '../support/chromium.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, describeRecorded } from '../support/fixtures.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * The broadcast overlay in a real headless Chromium (Debian's, never a downloaded one) against a
 * real daemon and simulator. The simulator runs on a hand-driven clock, so the test decides when
 * the next plays exist upstream: the page must show the snapshot, then the new score, then catch
 * up after the daemon is replaced by a new one on the same port.
 */
const SKIP_REASON = HAVE_CHROMIUM ? NO_FIXTURES_REASON : NO_CHROMIUM_REASON;

interface PageScore {
  home: string;
  away: string;
  homeAbbr: string;
  awayAbbr: string;
  plays: number;
  state: string;
}

async function shown(page: Page): Promise<PageScore> {
  return page.evaluate(() => {
    const text = (id: string): string =>
      document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
    return {
      home: text('home-score'),
      away: text('away-score'),
      homeAbbr: text('home-abbr'),
      awayAbbr: text('away-abbr'),
      plays: document.querySelectorAll('[data-testid="plays"] li').length,
      state: document.getElementById('overlay')?.dataset.state ?? '',
    };
  });
}

async function snapshotOf(daemon: Daemon, game: SimulatedGame): Promise<GameSnapshot | undefined> {
  const res = await fetch(`${daemon.url}/v1/games/${game.league}/${game.id}`);
  return res.ok ? ((await res.json()) as GameSnapshot) : undefined;
}

/** The first moment after `from` at which the simulated game's score is higher. */
function nextScoreChange(game: SimulatedGame, from: number): number {
  const total = (t: number): number => {
    const v = game.state(t);
    return v.homeScore + v.awayScore;
  };
  const before = total(from);
  // A game-second at a time: fine enough not to skip a basket, and the game ends within ~10k steps.
  for (let t = from + 1_000; t <= game.endAt; t += 1_000) if (total(t) > before) return t;
  throw new Error('no score change left in the game');
}

describeRecorded(!HAVE_CHROMIUM || !HAVE_FIXTURES || !MENS_FINAL)(
  `overlay page in Chromium ${SKIP_REASON}`,
  () => {
    let browser: Browser | undefined;
    let upstream: RunningUpstream | undefined;
    let daemon: Daemon | undefined;
    let game: SimulatedGame;
    // The simulator's clock: the test moves it; the game only advances when it does.
    // The game is moved on by hours: its day starts at noon Eastern (easternNoonToday), so it stays
    // on one Eastern day's board.
    let now = easternNoonToday();
    const clock = { now: () => now };

    beforeAll(async () => {
      upstream = await startUpstream({
        replay: [MENS_FINAL?.file ?? ''],
        speed: 1,
        clock,
        logger: silentLogger,
      });
      const first = upstream.games[0];
      if (!first) throw new Error('the simulator serves no game');
      game = first;
      // Mid first quarter: some plays and a score exist, most of the game is still to come.
      now = game.startAt + (game.endAt - game.startAt) * 0.08;
      daemon = await startDaemon(upstream.url);
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await daemon?.close();
      await upstream?.close();
    });

    it('serves the page and its assets from the daemon, nothing from elsewhere', async () => {
      const url = daemon?.url ?? '';
      const page = await fetch(`${url}/overlay/${game.league}/${game.id}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      // Every script and stylesheet is local: no CDN.
      expect(html).not.toMatch(/(src|href)="https?:/);
      for (const asset of ['overlay.js', 'overlay.css']) {
        const res = await fetch(`${url}/overlay/assets/${asset}`);
        expect(res.status).toBe(200);
        const etag = res.headers.get('etag') ?? '';
        const again = await fetch(`${url}/overlay/assets/${asset}`, { headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
      }
      // Every page's scripts and styles, and every module they import, are served (none missing).
      const seen = new Set<string>();
      const queue: string[] = [];
      for (const path of [
        `/overlay/${game.league}/${game.id}`,
        `/overlay/${game.league}/${game.id}/lower-third`,
        '/overlay/ticker',
      ]) {
        const html = await (await fetch(`${url}${path}`)).text();
        for (const m of html.matchAll(/(?:src|href)="(\/[^"]+)"/g)) queue.push(m[1] ?? '');
      }
      while (queue.length > 0) {
        const path = queue.shift() ?? '';
        if (seen.has(path)) continue;
        seen.add(path);
        const res = await fetch(`${url}${path}`);
        expect(res.status, path).toBe(200);
        if (!path.endsWith('.js')) continue;
        for (const m of (await res.text()).matchAll(/from '([^']+)'/g)) {
          const spec = m[1] ?? '';
          queue.push(spec.startsWith('/') ? spec : new URL(spec, `http://x${path}`).pathname);
        }
      }
      expect([...seen].filter((p) => p.endsWith('.js')).length).toBeGreaterThanOrEqual(8);
      expect((await fetch(`${url}/overlay/nhl/1`)).status).toBe(404);
      expect((await fetch(`${url}/overlay/assets/secret.txt`)).status).toBe(404);
      expect((await fetch(`${url}/overlay/mens/1`, { method: 'POST' })).status).toBe(405);
    });

    it('shows the snapshot, updates when a play arrives, and catches up after a server restart', async () => {
      const url = daemon?.url ?? '';
      // The engine has polled the game at the frozen moment: that is the snapshot the page gets.
      let snap: GameSnapshot | undefined;
      await waitFor(
        async () => {
          snap = daemon && (await snapshotOf(daemon, game));
          return snap !== undefined && snap.state === 'in' && snap.score.home + snap.score.away > 0;
        },
        30_000,
        'the daemon to hold a live snapshot of the game',
      );
      const first = snap as GameSnapshot;

      const page = await (browser as Browser).newPage({ viewport: { width: 480, height: 420 } });
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${url}/overlay/${game.league}/${game.id}`);

      // 1. The snapshot's teams and score.
      await waitFor(
        async () => {
          const s = await shown(page);
          return (
            s.state === 'live' && s.home === String(first.score.home) && s.away === String(first.score.away)
          );
        },
        20_000,
        `the page to show ${JSON.stringify(first.score)}`,
      );
      const atSnapshot = await shown(page);
      expect(atSnapshot.homeAbbr).toBe(first.teams.home.abbreviation);
      expect(atSnapshot.awayAbbr).toBe(first.teams.away.abbreviation);
      expect(atSnapshot.plays).toBeGreaterThan(0);
      // Team colours are applied to the scorebug, by the colour rule (test/server/overlay-colors.test.ts).
      const colors = await page.evaluate(() => {
        const bg = (sel: string): string =>
          getComputedStyle(document.querySelector(sel) as Element).backgroundColor;
        return { home: bg('.team.home'), away: bg('.team.away') };
      });
      const rgb = (hex: string): string => {
        const n = parseInt(hex, 16);
        return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
      };
      const expected = scorebugColors(first.teams.home, first.teams.away);
      expect(colors).toEqual({ home: rgb(expected.home.background), away: rgb(expected.away.background) });
      if (expected.changed === null && first.teams.home.color && first.teams.away.color)
        expect(colors).toEqual({ home: rgb(first.teams.home.color), away: rgb(first.teams.away.color) });

      // 2. A scoring play happens upstream: the page moves to the daemon's new score by itself.
      now = nextScoreChange(game, now);
      const upstreamNow = game.state(now);
      await waitFor(
        async () => {
          const s = await shown(page);
          return s.home === String(upstreamNow.homeScore) && s.away === String(upstreamNow.awayScore);
        },
        30_000,
        `the page to show ${upstreamNow.awayScore}-${upstreamNow.homeScore} after the play`,
      );
      expect(
        await page.evaluate(() => (window as unknown as { __overlay: { events: number } }).__overlay.events),
      ).toBeGreaterThan(0);
      await page.screenshot({ path: join(ARTIFACTS, 'overlay.png') });

      // 3. The daemon goes away; the game moves on meanwhile; a new daemon comes up on the same port.
      const port = Number(new URL(url).port);
      await daemon?.close();
      daemon = undefined;
      await waitFor(
        async () => (await shown(page)).state === 'reconnecting',
        10_000,
        'the page to notice the restart',
      );
      now = nextScoreChange(game, nextScoreChange(game, now));
      const later = game.state(now);
      let lastShown: PageScore | undefined;
      daemon = await startDaemon(upstream?.url ?? '', port);
      await waitFor(
        async () => {
          lastShown = await shown(page);
          return (
            lastShown.state === 'live' &&
            lastShown.home === String(later.homeScore) &&
            lastShown.away === String(later.awayScore)
          );
        },
        45_000,
        () =>
          `the page to reconnect and show ${later.awayScore}-${later.homeScore}, shows ${JSON.stringify(lastShown)}`,
      );
      const latest = await snapshotOf(daemon, game);
      expect(latest?.score).toEqual({ home: later.homeScore, away: later.awayScore });
      // The newest play is on top, not one the new daemon re-sent from earlier in the game.
      const newest = [...(latest?.recentPlays ?? [])].sort(
        (a, b) => Number(a.sequence_number) - Number(b.sequence_number),
      )[(latest?.recentPlays.length ?? 0) - 1];
      await waitFor(
        async () =>
          (await page.evaluate(() =>
            document.querySelector('[data-testid="plays"] li')?.getAttribute('data-play-id'),
          )) === newest?.id,
        10_000,
        `the newest play ${newest?.id} on top`,
      );

      // Nothing was fetched from anywhere but the daemon, and the page threw nothing.
      const origin = new URL(url).origin;
      expect(requests.filter((r) => !r.startsWith(origin))).toEqual([]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'overlay-after-restart.png') });
      await page.close();
    }, 180_000);

    it('?transparent=1 makes the background transparent; ?delay= asks the daemon for a spoiler delay', async () => {
      const url = daemon?.url ?? '';
      const page = await (browser as Browser).newPage({ viewport: { width: 480, height: 420 } });
      const sent: string[] = [];
      page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
      await page.goto(`${url}/overlay/${game.league}/${game.id}?transparent=1&delay=30`);
      await waitFor(
        async () => (await shown(page)).state === 'live',
        20_000,
        'the transparent page to connect',
      );
      const backgrounds = await page.evaluate(() => ({
        body: getComputedStyle(document.body).backgroundColor,
        html: getComputedStyle(document.documentElement).backgroundColor,
      }));
      expect(backgrounds).toEqual({ body: 'rgba(0, 0, 0, 0)', html: 'rgba(0, 0, 0, 0)' });
      const subscribe = sent
        .map((f) => JSON.parse(f) as Record<string, unknown>)
        .find((f) => f.op === 'subscribe');
      expect(subscribe).toMatchObject({
        games: [game.id],
        leagues: [game.league],
        snapshot: true,
        delay: 30,
      });
      await page.screenshot({ path: join(ARTIFACTS, 'overlay-transparent.png'), omitBackground: true });

      // Without it the page has a solid background, so the scorebug is readable in a browser tab.
      const plain = await (browser as Browser).newPage();
      await plain.goto(`${url}/overlay/${game.league}/${game.id}`);
      expect(await plain.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
        'rgba(0, 0, 0, 0)',
      );
      await plain.close();
      await page.close();
    }, 60_000);
  },
);
