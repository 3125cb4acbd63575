import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameSnapshot } from '../../src/model/events.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import {
  generateFinishedSummary,
  startUpstream,
  type RunningUpstream,
  type SimulatedGame,
} from '../../src/simulator/index.js';
import { startDaemon } from '../cli/harness.js';
import { waitFor } from '../support/wait-for.js';
import { ARTIFACTS, HAVE_CHROMIUM, launchChromium } from '../support/chromium.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * The overlay's edge states in a real headless Chromium (Debian's, never a downloaded one) against
 * a real daemon and simulator: a game the daemon has not seen (an unknown id, and a real game while
 * upstream fails), the move to the live game when its first events arrive, and the colour rule on
 * a game between two teams in nearly the same blue. The game is a synthetic one whose header
 * teams are given the Knicks' and Mavericks' ESPN colours; the simulator's clock stands still, so
 * what the daemon holds does not change while the test compares it with the page.
 */
const GAME_ID = '900000042';
const UNKNOWN_ID = '999999999';
const NY = { abbreviation: 'NY', displayName: 'New York Knicks', color: '1d428a', alternateColor: 'f58426' };
const DAL = {
  abbreviation: 'DAL',
  displayName: 'Dallas Mavericks',
  color: '0064b1',
  alternateColor: 'bbc4ca',
};

interface Shown {
  game: string;
  state: string;
  colors: string;
  winprob: string;
  home: string;
  away: string;
  homeAbbr: string;
  awayAbbr: string;
  plays: number;
  waiting: string;
  visible: { waiting: boolean; scorebug: boolean; winprob: boolean; plays: boolean };
  text: string;
  background: { home: string; away: string };
}

async function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => {
    const q = (sel: string): Element | null => document.querySelector(sel);
    const text = (id: string): string => q(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
    const visible = (sel: string): boolean => (q(sel)?.getClientRects().length ?? 0) > 0;
    const overlay = document.getElementById('overlay') as HTMLElement;
    const bg = (sel: string): string => getComputedStyle(q(sel) as Element).backgroundColor;
    return {
      game: overlay.dataset.game ?? '',
      state: overlay.dataset.state ?? '',
      colors: overlay.dataset.colors ?? '',
      winprob: overlay.dataset.winprob ?? '',
      home: text('home-score'),
      away: text('away-score'),
      homeAbbr: text('home-abbr'),
      awayAbbr: text('away-abbr'),
      plays: document.querySelectorAll('[data-testid="plays"] li').length,
      waiting: text('waiting'),
      visible: {
        waiting: visible('.waiting'),
        scorebug: visible('.scorebug'),
        winprob: visible('.winprob'),
        plays: visible('.plays li'),
      },
      text: document.body.innerText,
      background: { home: bg('.team.home'), away: bg('.team.away') },
    };
  });
}

const rgb = (hex: string): string => {
  const n = parseInt(hex, 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

interface OpenPage {
  page: Page;
  frames: string[];
  requests: string[];
  errors: string[];
}

/** A finished synthetic game, NY at home to DAL, written where the simulator can replay it. */
function writeCloseColoursGame(dir: string): string {
  // A JSON copy: the payload is edited as ESPN's free-form JSON, whatever the simulator's types.
  const summary = JSON.parse(JSON.stringify(generateFinishedSummary('mens', GAME_ID, { seed: 42 }))) as {
    header: { competitions: Array<{ competitors: Array<{ homeAway: string; team: object }> }> };
  };
  for (const c of summary.header.competitions[0]?.competitors ?? [])
    Object.assign(c.team, c.homeAway === 'home' ? NY : DAL);
  const file = join(dir, `summary__${GAME_ID}_final.json`);
  writeFileSync(file, JSON.stringify(summary));
  return file;
}

describe.skipIf(!HAVE_CHROMIUM)('overlay edge states in Chromium', () => {
  let browser: Browser | undefined;
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  let game: SimulatedGame;
  let dir = '';
  // The game is moved on by hours: its day starts at noon Eastern (easternNoonToday), so it stays
  // on one Eastern day's board.
  let now = easternNoonToday();
  const clock = { now: () => now };
  const pages: Page[] = [];

  async function open(path: string): Promise<OpenPage> {
    const page = await (browser as Browser).newPage({ viewport: { width: 480, height: 300 } });
    pages.push(page);
    const opened: OpenPage = { page, frames: [], requests: [], errors: [] };
    page.on('websocket', (ws) => ws.on('framereceived', (f) => opened.frames.push(String(f.payload))));
    page.on('request', (r) => opened.requests.push(r.url()));
    page.on('pageerror', (e) => opened.errors.push(e.message));
    await page.goto(`${daemon?.url ?? ''}${path}`);
    return opened;
  }

  const snapshotOf = async (): Promise<GameSnapshot | undefined> => {
    const res = await fetch(`${daemon?.url ?? ''}/v1/games/mens/${GAME_ID}`);
    return res.ok ? ((await res.json()) as GameSnapshot) : undefined;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'courtside-overlay-'));
    upstream = await startUpstream({
      replay: [writeCloseColoursGame(dir)],
      speed: 1,
      clock,
      logger: silentLogger,
    });
    game = upstream.games[0] as SimulatedGame;
    // Mid first quarter: a score, plays and a win-probability series exist.
    now = game.startAt + (game.endAt - game.startAt) * 0.1;
    // Every upstream answer fails until the test clears it: the daemon cannot see the game yet.
    upstream.faults.set({ error: 1 });
    daemon = await startDaemon(upstream.url);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const page of pages) await page.close();
    await browser?.close();
    await daemon?.close();
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('waits for a game the daemon has not seen, then shows it once its first events arrive', async () => {
    const unknown = await open(`/overlay/mens/${UNKNOWN_ID}`);
    const pending = await open(`/overlay/mens/${GAME_ID}`);
    for (const { page, frames } of [unknown, pending]) {
      await waitFor(
        async () =>
          frames.some((f) => f.includes('"type":"subscribed"')) && (await shown(page)).state === 'live',
        20_000,
        'the page to connect and subscribe',
      );
    }
    // Subscribed, and the daemon still holds nothing of either game: no snapshot came.
    expect(await snapshotOf()).toBeUndefined();
    for (const [{ page }, id] of [
      [unknown, UNKNOWN_ID],
      [pending, GAME_ID],
    ] as const) {
      const s = await shown(page);
      expect(s.game).toBe('waiting');
      expect(s.waiting).toBe(`Waiting for game ${id}`);
      expect(s.visible).toEqual({ waiting: true, scorebug: false, winprob: false, plays: false });
      // No score, no invented percentage: the only digits on the page are the game id's.
      expect(s.text.replace(id, '')).not.toMatch(/\d/);
    }
    await unknown.page.screenshot({ path: join(ARTIFACTS, 'overlay-waiting.png') });

    // Upstream answers again: the daemon finds the game and the waiting page shows it.
    upstream?.faults.clear();
    let snap: GameSnapshot | undefined;
    let last: Shown | undefined;
    await waitFor(
      async () => {
        snap = await snapshotOf();
        last = await shown(pending.page);
        return (
          snap !== undefined &&
          snap.score.home + snap.score.away > 0 &&
          last.game === 'ready' &&
          last.home === String(snap.score.home) &&
          last.away === String(snap.score.away) &&
          last.winprob === 'shown' &&
          // The colours come with the snapshot the page fetches after the first event.
          last.colors !== 'own'
        );
      },
      60_000,
      () => `the page to show the daemon's ${JSON.stringify(snap?.score)}, shows ${JSON.stringify(last)}`,
    );
    const live = await shown(pending.page);
    expect(live.visible).toEqual({ waiting: false, scorebug: true, winprob: true, plays: true });
    expect([live.homeAbbr, live.awayAbbr]).toEqual(['NY', 'DAL']);
    // NY and DAL are nearly the same blue: the away side shows the Mavericks' silver.
    expect(live.colors).toBe('away-alternate');
    expect(live.background).toEqual({ home: rgb(NY.color), away: rgb(DAL.alternateColor) });
    // It learnt of the game from an event, then fetched the snapshot and the win-probability series.
    expect(pending.frames.some((f) => f.includes('"type":"snapshot"'))).toBe(false);
    expect(pending.requests.some((r) => r.includes(`/v1/games/mens/${GAME_ID}`))).toBe(true);
    await pending.page.screenshot({ path: join(ARTIFACTS, 'overlay-after-waiting.png') });

    // The unknown game is still only waited for, and nothing was asked about it.
    const still = await shown(unknown.page);
    expect(still.game).toBe('waiting');
    expect(unknown.requests.filter((r) => r.includes('/v1/'))).toEqual([]);
    expect([...unknown.errors, ...pending.errors]).toEqual([]);
  }, 120_000);

  it('a page opened on the live game starts from the snapshot, with the same colour rule', async () => {
    const late = await open(`/overlay/mens/${GAME_ID}?transparent=1`);
    // The snapshot comes in the page: the game is on its first render, before any stream frame.
    expect(await late.page.locator('#first-paint').count()).toBe(1);
    expect((await shown(late.page)).game).toBe('ready');
    // The stream's snapshot follows, and changes nothing.
    await waitFor(
      async () => late.frames.some((f) => f.includes('"type":"snapshot"')),
      20_000,
      "the stream's snapshot",
    );
    const s = await shown(late.page);
    expect(s.colors).toBe('away-alternate');
    expect(s.background).toEqual({ home: rgb(NY.color), away: rgb(DAL.alternateColor) });
    // Silver is light: the away side's text turns dark to stay readable.
    const awayText = await late.page.evaluate(
      () => getComputedStyle(document.querySelector('.team.away') as Element).color,
    );
    expect(awayText).toBe('rgb(17, 17, 17)');
    await late.page.screenshot({ path: join(ARTIFACTS, 'overlay-close-colours.png'), omitBackground: true });
  }, 60_000);
});
