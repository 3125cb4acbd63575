import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GameSituation, GameSnapshot } from '../../src/model/events.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type SimulatedGame } from '../../src/simulator/index.js';
import { MENS_FINAL, startDaemon } from '../cli/harness.js';
import { waitFor } from '../support/wait-for.js';
import { HAVE_CHROMIUM, NO_CHROMIUM_REASON, launchChromium } from '../support/chromium.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, describeRecorded } from '../support/fixtures.js';
import {
  LOWER_THIRD_MINIMUMS,
  SCOREBUG_MINIMUMS,
  expectClean,
  layoutProblems,
  openPage,
  playsAt,
  revealTime,
  screenshot,
  text,
  type OpenPage,
  type RawPlay,
} from './overlay-harness.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * The broadcast graphics in Debian's Chromium against a real daemon replaying a recorded NBA
 * game. The simulator's clock is moved by hand to set moments (a timeout, a lead change, a team in
 * the bonus, a failing upstream, the final), and at each the page must show what the daemon's
 * game state says; screenshots of each go to artifacts/screenshots. Last, the daemon is stopped:
 * the scorebug keeps the final score on screen, marked stale.
 */
const SKIP_REASON = HAVE_CHROMIUM ? NO_FIXTURES_REASON : NO_CHROMIUM_REASON;
const LEAD_RULES = 'rules=lead_change&lead_change.fromPeriod=1';

interface ShownSide {
  score: string;
  fouls: string;
  bonus: boolean;
  reset: boolean;
  timeoutsText: string;
}

async function shownSides(
  page: Page,
): Promise<{ home: ShownSide; away: ShownSide; period: string; clock: string }> {
  return page.evaluate(() => {
    const q = (id: string): Element | null => document.querySelector(`[data-testid="${id}"]`);
    const side = (s: string) => ({
      score: q(`${s}-score`)?.textContent?.trim() ?? '',
      fouls: q(`${s}-fouls`)?.textContent?.trim() ?? '',
      bonus: (q(`${s}-bonus`)?.getClientRects().length ?? 0) > 0,
      reset: (q(`${s}-reset`)?.getClientRects().length ?? 0) > 0,
      timeoutsText: q(`${s}-timeouts`)?.textContent?.trim() ?? '',
    });
    return {
      home: side('home'),
      away: side('away'),
      period: q('period')?.textContent?.trim() ?? '',
      clock: q('clock')?.textContent?.trim() ?? '',
    };
  });
}

/** What the scorebug must show for a side of the daemon's situation. */
function expectedSide(snap: GameSnapshot, side: 'home' | 'away'): ShownSide {
  const team = (snap.situation as GameSituation)[side];
  const remaining = team.timeouts.remaining;
  return {
    score: String(snap.score[side]),
    fouls: `Fouls ${team.fouls}`,
    bonus: team.bonus,
    reset: team.timeouts.reset?.available ?? false,
    timeoutsText: remaining === null ? '' : `TOL ${remaining}`,
  };
}

/** A player's last name as a broadcast writes it: generational suffixes (Jr., III) are not names. */
function lastName(name: string): string {
  const words = name.trim().split(/\s+/);
  while (
    words.length > 1 &&
    ['jr', 'jr.', 'sr', 'sr.', 'ii', 'iii', 'iv', 'v'].includes(words.at(-1)!.toLowerCase())
  )
    words.pop();
  return words.at(-1)!;
}

/**
 * The foul-trouble line for the snapshot: every player with five fouls or more or out of the game,
 * away side first, those out first; "fouled out" at six fouls, "ejected" for one out on
 * technicals or flagrants.
 */
function expectedTrouble(snap: GameSnapshot): string {
  const situation = snap.situation as GameSituation;
  const parts: string[] = [];
  for (const side of ['away', 'home'] as const) {
    const players = Object.entries(situation[side].players)
      .filter(([, p]) => p.fouls >= 5 || p.disqualified)
      .sort(
        (a, b) =>
          Number(b[1].disqualified) - Number(a[1].disqualified) ||
          b[1].fouls - a[1].fouls ||
          a[0].localeCompare(b[0]),
      );
    for (const [id, p] of players) {
      const who = [p.jersey ? `#${p.jersey}` : '', p.name ? lastName(p.name) : `player ${id}`]
        .filter(Boolean)
        .join(' ');
      const standing = !p.disqualified ? String(p.fouls) : p.fouls >= 6 ? 'fouled out' : 'ejected';
      parts.push(`${snap.teams[side].abbreviation} ${who} ${standing}`);
    }
  }
  return parts.length ? `Foul trouble: ${parts.join(' · ')}` : '';
}

/** Waits until the scorebug shows the snapshot's score and situation, side by side. */
async function expectScorebugShows(opened: OpenPage, snap: GameSnapshot): Promise<void> {
  let shown: Awaited<ReturnType<typeof shownSides>> | undefined;
  const want = { home: expectedSide(snap, 'home'), away: expectedSide(snap, 'away') };
  await waitFor(
    async () => {
      shown = await shownSides(opened.page);
      return JSON.stringify({ home: shown.home, away: shown.away }) === JSON.stringify(want);
    },
    20_000,
    () => `the scorebug to show ${JSON.stringify(want)}, shows ${JSON.stringify(shown)}`,
  );
  expect(await text(opened.page, 'foul-trouble')).toBe(expectedTrouble(snap));
}

/** Plays in the final list where the lead changes hands (ties do not end a lead), after `from`. */
function leadChanges(game: SimulatedGame, from: number): RawPlay[] {
  const out: RawPlay[] = [];
  let leader: string | null = null;
  for (const play of playsAt(game, game.endAt + 60_000)) {
    if (play.homeScore == null || play.awayScore == null) continue;
    const now = play.homeScore > play.awayScore ? 'home' : play.awayScore > play.homeScore ? 'away' : null;
    if (now === null) continue;
    if (leader !== null && now !== leader && revealTime(game, play.id) > from) out.push(play);
    leader = now;
  }
  return out;
}

describeRecorded(!HAVE_CHROMIUM || !HAVE_FIXTURES || !MENS_FINAL)(
  `broadcast overlays on a replayed recorded game in Chromium ${SKIP_REASON}`,
  () => {
    let browser: Browser | undefined;
    let upstream: RunningUpstream | undefined;
    let daemon: Daemon | undefined;
    let game: SimulatedGame;
    let base = '';
    // The game is moved on by hours: its day starts at noon Eastern (easternNoonToday), so it stays
    // on one Eastern day's board.
    let now = easternNoonToday();
    const clock = { now: () => now };
    const pages: OpenPage[] = [];
    let scorebug: OpenPage;

    const open = async (path: string, viewport?: { width: number; height: number }): Promise<OpenPage> => {
      const opened = await openPage(browser as Browser, `${base}${path}`, viewport);
      pages.push(opened);
      return opened;
    };

    async function snapshot(): Promise<GameSnapshot | undefined> {
      const res = await fetch(`${base}/v1/games/${game.league}/${game.id}`);
      return res.ok ? ((await res.json()) as GameSnapshot) : undefined;
    }

    /** Moves the upstream to `t` and waits until the daemon's state has its newest play. */
    async function settle(t: number): Promise<GameSnapshot> {
      now = t;
      const newest = playsAt(game, t).at(-1)?.id;
      let snap: GameSnapshot | undefined;
      await waitFor(
        async () => {
          snap = await snapshot();
          return snap !== undefined && snap.recentPlays.at(-1)?.id === newest && snap.situation != null;
        },
        30_000,
        () => `the daemon to reach play ${newest}, has ${snap?.recentPlays.at(-1)?.id}`,
      );
      return snap as GameSnapshot;
    }

    beforeAll(async () => {
      upstream = await startUpstream({
        replay: [MENS_FINAL?.file ?? ''],
        speed: 1,
        clock,
        logger: silentLogger,
      });
      game = upstream.games[0] as SimulatedGame;
      // A minute in: the game is live with its first plays, the first timeout still to come.
      now = game.startAt + 60_000;
      daemon = await startDaemon(upstream.url);
      base = daemon.url;
      browser = await launchChromium();
      await settle(now);
      scorebug = await open(`/overlay/${game.league}/${game.id}`);
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await daemon?.close();
      await upstream?.close();
    });

    it('a timeout: the team that took it has one timeout left less, as the daemon counts', async () => {
      const first = playsAt(game, game.endAt + 60_000).find((p) => p.type?.text === 'Full Timeout');
      if (!first) throw new Error('the recorded game has no Full Timeout play');
      const snap = await settle(revealTime(game, first.id));
      const side = snap.teams.home.id === first.team?.id ? 'home' : 'away';
      const situation = snap.situation as GameSituation;
      expect(situation[side].timeouts.taken).toBe(1);
      expect(situation[side === 'home' ? 'away' : 'home'].timeouts.taken).toBe(0);
      await expectScorebugShows(scorebug, snap);
      const shown = await shownSides(scorebug.page);
      // The side that called it shows one timeout left less than the other.
      const left = (t: string): number => Number(t.replace('TOL ', ''));
      expect(left(shown[side].timeoutsText)).toBe(
        left(shown[side === 'home' ? 'away' : 'home'].timeoutsText) - 1,
      );
      await screenshot(scorebug, 'scorebug-timeout.png', '#overlay');
      expectClean(scorebug, base);
    }, 60_000);

    it('a lead change fires a lower third: queued one at a time, and held back by the page delay', async () => {
      const hold = 3;
      const live = await open(`/overlay/${game.league}/${game.id}/lower-third?${LEAD_RULES}&hold=${hold}`, {
        width: 800,
        height: 200,
      });
      const delayed = await open(
        `/overlay/${game.league}/${game.id}/lower-third?${LEAD_RULES}&hold=${hold}&delay=4`,
        { width: 800, height: 200 },
      );
      // Each page notes when a card starts and ends showing, and what it showed.
      for (const opened of [live, delayed]) {
        await opened.page.evaluate(() => {
          const root = document.getElementById('lower-third') as HTMLElement;
          const log: Array<Record<string, unknown>> = [];
          (window as unknown as { __cards: unknown }).__cards = log;
          new MutationObserver(() => {
            const q = (id: string): string =>
              document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '';
            log.push({
              showing: root.dataset.showing ?? '',
              at: performance.now() + performance.timeOrigin,
              rule: q('card-rule'),
              headline: q('card-headline'),
              away: q('card-away'),
              home: q('card-home'),
            });
          }).observe(root, { attributes: true, attributeFilter: ['data-showing'] });
        });
        await waitFor(
          async () =>
            (await opened.page.evaluate(() => document.getElementById('lower-third')?.dataset.state)) ===
            'live',
          20_000,
          'the lower third to connect',
        );
      }
      // Two lead changes revealed in one poll: two moments at once, which must queue.
      const changes = leadChanges(game, now);
      expect(changes.length).toBeGreaterThanOrEqual(2);
      const [firstChange, secondChange] = changes as [RawPlay, RawPlay];
      const snap = await settle(revealTime(game, secondChange.id));

      type Card = { showing: string; at: number; rule: string; headline: string; away: string; home: string };
      const cardsOf = (opened: OpenPage): Promise<Card[]> =>
        opened.page.evaluate(() => (window as unknown as { __cards: Card[] }).__cards);
      await waitFor(async () => (await cardsOf(live)).filter((c) => c.showing).length >= 1, 20_000, 'a card');
      await live.page.waitForTimeout(600);
      await screenshot(live, 'lower-third-lead-change.png');
      expect(await layoutProblems(live.page, '.card', LOWER_THIRD_MINIMUMS)).toEqual([]);
      await waitFor(
        async () => (await cardsOf(delayed)).filter((c) => c.showing).length >= 2,
        40_000,
        'both cards on the delayed page',
      );
      const cards = await cardsOf(live);
      const shown = cards.filter((c) => c.showing);
      expect(shown.length).toBe(2);
      // Never two at once: each card is gone before the next one comes, and each stays `hold` seconds.
      const [a, gone, b] = cards as [Card, Card, Card];
      expect(gone.showing).toBe('');
      expect(gone.at - a.at).toBeGreaterThanOrEqual(hold * 1000 - 100);
      expect(b.at).toBeGreaterThan(gone.at);
      // What the cards show is the daemon's moments, which are the plays' scores at the lead changes.
      const abbr = { home: snap.teams.home.abbreviation, away: snap.teams.away.abbreviation };
      for (const [card, play] of [
        [shown[0], firstChange],
        [shown[1], secondChange],
      ] as const) {
        expect(card?.rule).toBe('Lead change');
        expect(card?.away).toBe(`${abbr.away} ${play.awayScore}`);
        expect(card?.home).toBe(`${abbr.home} ${play.homeScore}`);
        const leader = (play.homeScore ?? 0) > (play.awayScore ?? 0) ? abbr.home : abbr.away;
        expect(card?.headline).toBe(`${leader} take the lead`);
      }
      const res = await fetch(
        `${base}/overlay/${game.league}/${game.id}/moments?through=${encodeURIComponent('9999999999999-0')}&${LEAD_RULES}`,
      );
      const body = (await res.json()) as {
        moments: Array<{ id: string; score: { home: number; away: number } }>;
      };
      expect(body.moments.map((m) => m.id).slice(-2)).toEqual(shown.map((c) => c.showing));
      // The delayed page showed the same cards, four seconds later (the stream's delay, not before).
      const late = (await cardsOf(delayed)).filter((c) => c.showing);
      expect(late.map((c) => c.showing)).toEqual(shown.map((c) => c.showing));
      expect((late[0]?.at ?? 0) - (shown[0]?.at ?? 0)).toBeGreaterThanOrEqual(3_000);
      expectClean(live, base);
      expectClean(delayed, base);
    }, 120_000);

    it('the bonus: fouls and the bonus marker as the daemon counts them, in every layout and theme', async () => {
      const ends = playsAt(game, game.endAt + 60_000).filter((p) => p.type?.text === 'End Period');
      let snap: GameSnapshot | undefined;
      for (const end of ends) {
        // The moment before the period's last play: the fouls of the whole period are in.
        const t = revealTime(game, end.id) - 1;
        if (t <= now) continue;
        snap = await settle(t);
        const situation = snap.situation as GameSituation;
        if (situation.home.bonus || situation.away.bonus) break;
        snap = undefined;
      }
      if (!snap) throw new Error('no period of the recorded game ends with a team in the bonus');
      await expectScorebugShows(scorebug, snap);
      await screenshot(scorebug, 'scorebug-bonus.png', '#overlay');
      for (const [name, query] of [
        ['compact', 'layout=compact'],
        ['vertical-light', 'layout=vertical&theme=light'],
        ['team', 'theme=team&plays=3'],
        ['4k', 'layout=compact&scale=4k'],
      ] as const) {
        const variant = await open(`/overlay/${game.league}/${game.id}?${query}`, {
          width: 1400,
          height: 600,
        });
        await expectScorebugShows(variant, snap);
        await screenshot(variant, `scorebug-bonus-${name}.png`, '#overlay');
        // At the 1080p scale: readable sizes, and nothing out of its box.
        if (name !== '4k')
          expect(await layoutProblems(variant.page, '#overlay', SCOREBUG_MINIMUMS)).toEqual([]);
        expectClean(variant, base);
        await variant.page.close();
      }
      // The 4K page is the 1080p page twice as large, not a blurred copy: its box is twice as wide.
      const widths: number[] = [];
      for (const query of ['layout=compact', 'layout=compact&scale=4k']) {
        const p = await open(`/overlay/${game.league}/${game.id}?${query}`, { width: 1400, height: 600 });
        await expectScorebugShows(p, snap);
        widths.push(
          await p.page.evaluate(() => document.getElementById('overlay')?.getBoundingClientRect().width ?? 0),
        );
        await p.page.close();
      }
      expect(widths[1]).toBeCloseTo((widths[0] ?? 0) * 2, 0);
      expectClean(scorebug, base);
    }, 120_000);

    it('a failing upstream marks the data stale and keeps it on screen; recovery clears the mark', async () => {
      const before = await snapshot();
      upstream?.faults.set({ error: 1 });
      await waitFor(
        async () =>
          (await scorebug.page.evaluate(() => document.getElementById('overlay')?.dataset.stale)) ===
          'poller',
        45_000,
        'the scorebug to mark its data stale while the poller fails',
      );
      expect(await text(scorebug.page, 'stale')).toBe('Data delayed');
      expect(await text(scorebug.page, 'home-score')).toBe(String(before?.score.home));
      await screenshot(scorebug, 'scorebug-stale-upstream.png', '#overlay');
      upstream?.faults.clear();
      await waitFor(
        async () =>
          (await scorebug.page.evaluate(() => document.getElementById('overlay')?.dataset.stale)) === '',
        45_000,
        'the stale mark to go once the poller succeeds',
      );
      expectClean(scorebug, base);
    }, 120_000);

    it('the last seconds, then the final: final score, the winner marked, no clock', async () => {
      // Just before the end: the whole game's fouls are in, and the foul-trouble line lists them.
      const last = playsAt(game, game.endAt + 60_000).at(-1) as RawPlay;
      const late = await settle(revealTime(game, last.id) - 1);
      await expectScorebugShows(scorebug, late);
      await screenshot(scorebug, 'scorebug-last-seconds.png', '#overlay');
      now = game.endAt + 5_000;
      let snap: GameSnapshot | undefined;
      await waitFor(
        async () => (snap = await snapshot())?.state === 'post',
        30_000,
        'the daemon to see the game end',
      );
      const final = snap as GameSnapshot;
      await waitFor(
        async () =>
          (await scorebug.page.evaluate(() => document.getElementById('overlay')?.dataset.final)) === '1',
        20_000,
        'the scorebug to show the final',
      );
      const shown = await shownSides(scorebug.page);
      expect(shown.home.score).toBe(String(final.score.home));
      expect(shown.away.score).toBe(String(final.score.away));
      expect(shown.clock).toBe(
        (final.period ?? 4) > 4
          ? `Final/${(final.period ?? 5) === 5 ? 'OT' : `${(final.period ?? 5) - 4}OT`}`
          : 'Final',
      );
      const winner = final.score.home > final.score.away ? 'home' : 'away';
      expect(
        await scorebug.page.evaluate(
          (w) => document.querySelector(`.team.${w}`)?.classList.contains('winner'),
          winner,
        ),
      ).toBe(true);
      await screenshot(scorebug, 'scorebug-final.png', '#overlay');
      expectClean(scorebug, base);
    }, 60_000);

    it('the daemon stops: the last good data stays on screen, marked stale after the threshold', async () => {
      const last = await snapshot();
      const page = await open(`/overlay/${game.league}/${game.id}?stale=3`);
      await waitFor(
        async () => (await text(page.page, 'home-score')) === String(last?.score.home),
        20_000,
        'the page to show the final score',
      );
      expectClean(page, base);
      const errorsBefore = page.errors.length;
      await daemon?.close();
      daemon = undefined;
      await waitFor(
        async () =>
          (await page.page.evaluate(() => document.getElementById('overlay')?.dataset.stale)) ===
          'connection',
        15_000,
        'the scorebug to mark its data stale',
      );
      expect(await text(page.page, 'stale')).toBe('Connection lost');
      expect(await text(page.page, 'home-score')).toBe(String(last?.score.home));
      expect(await text(page.page, 'away-score')).toBe(String(last?.score.away));
      await screenshot(page, 'scorebug-stale-daemon-stopped.png', '#overlay');
      // With the daemon gone, the browser reports the refused reconnects, and nothing else.
      for (const error of page.errors.slice(errorsBefore))
        expect(error).toMatch(/ERR_CONNECTION_REFUSED|WebSocket connection to .* failed/);
      for (const opened of pages)
        expect(opened.requests.filter((r) => new URL(r).host !== new URL(base).host)).toEqual([]);
    }, 60_000);
  },
);
