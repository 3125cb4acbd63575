import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { silentLogger } from '../src/core/log.js';
import { loadConfig } from '../src/daemon/config.js';
import { createDaemon, type Daemon } from '../src/daemon/daemon.js';
import type { GameSnapshot } from '../src/model/events.js';
import { startUpstream, type SimulatedGame } from '../src/simulator/index.js';
import { scorebugStates } from '../src/simulator/scorebug-states.js';

/**
 * The screenshots of docs/overlay.md, made from the project's own synthetic games: the simulator
 * plays an evening of five games in both leagues on a hand-moved clock, a daemon follows it, and
 * Debian's Chromium (never a downloaded browser) renders every overlay page and option. The
 * scorebug's hardest states (src/simulator/scorebug-states.ts) are stored on the daemon's bus as
 * the engine stores a snapshot, and shot in the compact layout.
 *
 *   npm run docs:overlay            # writes docs/images/overlay-*.png
 */
const CHROMIUM = '/usr/bin/chromium';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'images');
// The daemon's floor: one summary poll a second, so a moved clock shows within a second or two.
const SUMMARY_INTERVAL_MS = 1_000;

interface RawPlay {
  id: string;
  type?: { text?: string };
  homeScore?: number;
  awayScore?: number;
}

const playsAt = (game: SimulatedGame, t: number): RawPlay[] =>
  (game.summary(t).plays as unknown as RawPlay[] | undefined) ?? [];

/** The first clock time at which the upstream serves play `id`. */
function revealTime(game: SimulatedGame, id: string): number {
  let lo = game.startAt - 1;
  let hi = game.endAt + 60_000;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (playsAt(game, mid).some((p) => p.id === id)) hi = mid;
    else lo = mid;
  }
  return hi;
}

async function until(what: string, test: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  let now = Date.now();
  const clock = { now: () => now };
  const upstream = await startUpstream({
    simulate: { games: 5, seed: 7, staggerMs: 60 * 60_000 },
    speed: 1,
    clock,
    logger: silentLogger,
  });
  const games = upstream.games;
  const [first, , live] = games as [SimulatedGame, SimulatedGame, SimulatedGame];
  // Two hours and five minutes into the evening: the first game over, the third just begun, two to come.
  now = first.startAt + 125 * 60_000;
  const config = loadConfig({
    env: {},
    flags: {
      upstream: upstream.url,
      port: 0,
      host: '127.0.0.1',
      summaryInterval: SUMMARY_INTERVAL_MS,
      logLevel: 'silent',
    },
  });
  let daemon: Daemon = createDaemon(config, { logger: silentLogger });
  await daemon.start();
  const base = daemon.url;
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const errors: string[] = [];

  const snapshot = async (game: SimulatedGame): Promise<GameSnapshot | undefined> => {
    const res = await fetch(`${base}/v1/games/${game.league}/${game.id}`);
    return res.ok ? ((await res.json()) as GameSnapshot) : undefined;
  };
  const settle = async (game: SimulatedGame, t: number): Promise<GameSnapshot> => {
    now = t;
    const newest = playsAt(game, t).at(-1)?.id;
    let snap: GameSnapshot | undefined;
    await until(
      `the daemon at play ${newest}`,
      async () => (snap = await snapshot(game))?.recentPlays.at(-1)?.id === newest,
    );
    return snap as GameSnapshot;
  };
  const open = async (path: string, viewport = { width: 1280, height: 720 }): Promise<Page> => {
    const page = await browser.newPage({ viewport });
    page.on('console', (m) => m.type() === 'error' && errors.push(`${path}: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    await page.goto(`${base}${path}`);
    return page;
  };
  /** The element and a margin around it, so the shadow shows. */
  const shoot = async (page: Page, selector: string, name: string, transparent = false): Promise<void> => {
    const box = await page.locator(selector).boundingBox();
    if (!box) throw new Error(`${selector} is not on ${name}`);
    const m = 12;
    await page.screenshot({
      path: join(OUT, name),
      omitBackground: transparent,
      clip: {
        x: Math.max(0, box.x - m),
        y: Math.max(0, box.y - m),
        width: box.width + 2 * m,
        height: box.height + 2 * m,
      },
    });
    console.log(`docs/images/${name}`);
  };
  const ready = (page: Page, id = 'overlay') =>
    until(
      `${id} live`,
      async () => (await page.evaluate((i) => document.getElementById(i)?.dataset.state, id)) === 'live',
    );
  const scorebugReady = async (page: Page): Promise<void> => {
    await ready(page);
    await until(
      'the game on the scorebug',
      async () => (await page.evaluate(() => document.getElementById('overlay')?.dataset.game)) === 'ready',
    );
    // The win-probability history and colours arrive just after the snapshot.
    await page.waitForTimeout(800);
  };

  // The ticker, both leagues and one.
  await until('the live games', async () => (await snapshot(live))?.state === 'in');
  for (const [path, name, width] of [
    ['/overlay/ticker?speed=0', 'overlay-ticker.png', 1600],
    ['/overlay/mens/ticker?speed=0&theme=light', 'overlay-ticker-mens-light.png', 900],
  ] as const) {
    const page = await open(path, { width, height: 64 });
    await ready(page, 'ticker');
    await until(
      'the games on the ticker',
      async () => Number(await page.evaluate(() => document.getElementById('ticker')?.dataset.games)) > 0,
    );
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(OUT, name) });
    console.log(`docs/images/${name}`);
    await page.close();
  }

  const game = `/overlay/${live.league}/${live.id}`;
  // A lower third: the next lead change, or the final score when the lead never changes again.
  const lower = await open(
    `${game}/lower-third?rules=lead_change,final_score&lead_change.fromPeriod=1&hold=20`,
    {
      width: 800,
      height: 200,
    },
  );
  await ready(lower, 'lower-third');
  let leader: string | null = null;
  let next: number | undefined;
  for (const play of playsAt(live, live.endAt + 60_000)) {
    if (play.homeScore == null || play.awayScore == null || play.homeScore === play.awayScore) continue;
    const side = play.homeScore > play.awayScore ? 'home' : 'away';
    const at = revealTime(live, play.id);
    if (leader !== null && side !== leader && at > now) {
      next = at;
      break;
    }
    leader = side;
  }
  now = next ?? live.endAt + 5_000;
  await until(
    'a lower third',
    async () => Boolean(await lower.evaluate(() => document.getElementById('lower-third')?.dataset.showing)),
    60_000,
  );
  await lower.waitForTimeout(800);
  await shoot(lower, '.card', 'overlay-lower-third.png');
  await lower.close();

  // The live game at the end of a period with a team in the bonus.
  for (const end of playsAt(live, live.endAt + 60_000).filter((p) => p.type?.text === 'End Period')) {
    const t = revealTime(live, end.id) - 1;
    if (t <= now) continue;
    const snap = await settle(live, t);
    if (snap.situation?.home.bonus || snap.situation?.away.bonus) break;
  }
  for (const [query, name] of [
    ['', 'overlay-scorebug-full.png'],
    ['layout=compact', 'overlay-scorebug-compact.png'],
    ['layout=vertical', 'overlay-scorebug-vertical.png'],
    ['theme=light', 'overlay-scorebug-light.png'],
    ['theme=team', 'overlay-scorebug-team.png'],
    ['plays=0&chart=0', 'overlay-scorebug-plays0-chart0.png'],
    ['layout=compact&scale=4k', 'overlay-scorebug-compact-4k.png'],
    ['layout=compact&transparent=1', 'overlay-scorebug-transparent.png'],
  ] as const) {
    const page = await open(query ? `${game}?${query}` : game, { width: 1400, height: 800 });
    await scorebugReady(page);
    await shoot(page, '#overlay', name, query.includes('transparent'));
    await page.close();
  }

  // The hard states, in the compact layout (and a pro and a college one in the full layout) on a
  // 1080p page.
  const states = scorebugStates();
  for (const { snapshot } of states)
    await daemon.bus.commit({ league: snapshot.league, gameId: snapshot.gameId }, [], { meta: { snapshot } });
  for (const [state, layout] of [
    ...states.map((s) => [s, 'compact'] as const),
    [states.find((s) => s.name === 'wnba-reset-bonus'), 'full'] as const,
    [states.find((s) => s.name === 'college-ranked-second-half'), 'full'] as const,
  ]) {
    if (!state) throw new Error('a scorebug state is missing');
    const { league, gameId } = state.snapshot;
    const page = await open(`/overlay/${league}/${gameId}?layout=${layout}`, { width: 1920, height: 1080 });
    await shoot(page, '#overlay', `overlay-state-${state.name}-${layout}.png`);
    await page.close();
  }

  // A game the daemon has not seen.
  const waiting = await open('/overlay/mens/900000404');
  await ready(waiting);
  await shoot(waiting, '#overlay', 'overlay-scorebug-waiting.png');
  await waiting.close();

  // The daemon goes away: the scorebug keeps its data, marked.
  const stale = await open(`${game}?stale=3`);
  await scorebugReady(stale);
  const port = Number(new URL(base).port);
  await daemon.close();
  await until(
    'the stale mark',
    async () =>
      (await stale.evaluate(() => document.getElementById('overlay')?.dataset.stale)) === 'connection',
  );
  await shoot(stale, '#overlay', 'overlay-scorebug-stale.png');
  await stale.close();

  // Back on the same port, the game plays out: the final.
  daemon = createDaemon({ ...config, port }, { logger: silentLogger });
  await daemon.start();
  // A new daemon follows only games it sees live: it joins in the last seconds, then the game ends.
  const last = playsAt(live, live.endAt + 60_000).at(-1) as RawPlay;
  await settle(live, revealTime(live, last.id) - 1);
  now = live.endAt + 5_000;
  await until('the final', async () => (await snapshot(live))?.state === 'post');
  const final = await open(game);
  await scorebugReady(final);
  await shoot(final, '#overlay', 'overlay-scorebug-final.png');
  await daemon.close();

  await browser.close();
  await upstream.close();
  // The built states are games upstream does not know: their pages' request for the
  // win-probability history is answered 404, which the browser logs.
  const built = new Set(states.map((s) => s.snapshot.gameId));
  const unexpected = errors.filter(
    (e) =>
      !/ERR_CONNECTION_REFUSED|WebSocket connection to .* failed/.test(e) &&
      !(/status of 404/.test(e) && [...built].some((id) => e.includes(`/${id}?`))),
  );
  if (unexpected.length > 0) throw new Error(`the pages logged errors:\n${unexpected.join('\n')}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
