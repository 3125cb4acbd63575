import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GameEvent } from '../../src/model/events.js';
import {
  FIXTURES_DIR,
  HAVE_FIXTURES,
  loadFixture,
  NO_FIXTURES_REASON,
  itRecorded,
} from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';
import { MENS_FINAL, runCli, type CliRun } from './harness.js';

/**
 * `courtside demo` as a child process: no network, no Redis. It prints the overlay URLs and a
 * watch command that work, events flow, and SIGTERM ends it with exit code 0.
 */
function collectEvents(base: string): { events: GameEvent[]; ws: WebSocket } {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/stream`);
  const events: GameEvent[] = [];
  ws.on('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all' })));
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
    if (frame.type === 'event' && frame.event) events.push(frame.event);
  });
  return { events, ws };
}

describe('courtside demo', () => {
  const runs: CliRun[] = [];
  afterEach(() => {
    for (const r of runs.splice(0)) r.kill();
  });

  it('prints the overlay URL and a watch command, events flow, and SIGTERM exits 0', async () => {
    // An empty REDIS_URL in the parent must not matter either: the demo never uses Redis.
    const demo = runCli(['demo', '--port', '0', '--games', '2', '--seed', '3'], {
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    runs.push(demo);
    const [, base = ''] = await demo.waitForStdout(/^daemon at (http:\/\/\S+)$/m);
    const [overlayLine, overlayUrl = ''] = await demo.waitForStdout(
      /^overlay: (http:\/\/\S+\/overlay\/(mens|womens)\/\S+)$/m,
    );
    expect(overlayLine).toBeTruthy();
    const [, watchArgs = ''] = await demo.waitForStdout(/^watch: +npx courtside (watch .+)$/m);
    expect(demo.stdout()).toMatch(/2 game\(s\) at 20x/);

    // The overlay page is served by the demo's daemon.
    const page = await fetch(overlayUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/overlay/assets/overlay.js');

    // Events flow over the WebSocket.
    const { events, ws } = collectEvents(base);
    await waitFor(() => events.some((e) => e.type === 'play.added'), 60_000, 'a play from the demo');
    ws.close();

    // The printed watch command works as printed.
    const watch = runCli(watchArgs.split(' '));
    runs.push(watch);
    await watch.waitForStdout(/^\[(1st|2nd|3rd|4th|OT)/m, 60_000);
    watch.child.kill('SIGTERM');
    expect((await watch.exited).code).toBe(0);

    const started = Date.now();
    demo.child.kill('SIGTERM');
    const exit = await demo.exited;
    expect(exit.code, demo.stderr()).toBe(0);
    expect(Date.now() - started).toBeLessThan(6_000);
  }, 150_000);

  it('runs until stopped: a new slate follows the one that ended, and finished games stay linked', async () => {
    // At 3000x a synthetic game lasts seconds: the first slate ends soon after the start.
    const demo = runCli(['demo', '--port', '0', '--games', '2', '--seed', '11', '--speed', '3000']);
    runs.push(demo);
    const [, base = ''] = await demo.waitForStdout(/^daemon at (http:\/\/\S+)$/m);
    // The first slate's lines end with the Ctrl-C line; a pipe can deliver them in several chunks,
    // and at 3000x the next slate's lines may already follow.
    await demo.waitForStdout(/^Ctrl-C to stop\.$/m);
    const head = demo.stdout().split(/^Ctrl-C to stop\.$/m)[0] ?? '';
    const first = [...head.matchAll(/^overlay: \S+\/overlay\/(mens|womens)\/(\d+)$/gm)].map((m) => m[2]);
    expect(first).toHaveLength(2);
    // The slate's lines come together, its watch command last.
    const [slate2 = ''] = await demo.waitForStdout(
      /^slate 2: the previous slate has ended; 2 new game\(s\) at 3000x, the first tipping off in \d+ s.*\n(?:.*\n)*?watch: .*$/m,
      90_000,
    );
    const second = [...slate2.matchAll(/^overlay: \S+\/overlay\/(mens|womens)\/(\d+)$/gm)].map((m) => ({
      league: m[1] ?? '',
      id: m[2] ?? '',
    }));
    // New synthetic games: new ids, made-up ones (starting with 9).
    expect(second).toHaveLength(2);
    for (const game of second) {
      expect(first).not.toContain(game.id);
      expect(game.id).toMatch(/^9\d{8}$/);
    }
    expect(slate2).toMatch(/^watch: +npx courtside watch --url \S+ --league (mens|womens) --game 9\d{8}$/m);

    // The daemon follows the new games, and the home page links the first slate's as finished.
    const newGame = second[0] ?? { league: '', id: '' };
    // Listed ahead of its tip-off, it is found on the daemon's next scoreboard poll (a minute at most).
    await waitFor(
      async () => (await fetch(`${base}/v1/games/${newGame.league}/${newGame.id}`)).ok,
      120_000,
      'the new slate on the daemon',
    );
    const home = await (await fetch(`${base}/`)).text();
    const finished = home.split('<h2>Finished games</h2>')[1]?.split('<h2>')[0] ?? '';
    for (const id of first) expect(finished).toMatch(new RegExp(`href="/overlay/(mens|womens)/${id}"`));
    const overlay = await fetch(`${base}/overlay/${newGame.league}/${newGame.id}`);
    expect(overlay.status).toBe(200);

    demo.child.kill('SIGTERM');
    expect((await demo.exited).code, demo.stderr()).toBe(0);
  }, 240_000);

  itRecorded(!HAVE_FIXTURES || !MENS_FINAL)(
    `--replay plays a recorded game ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
    async () => {
      const file = MENS_FINAL?.file ?? '';
      const id = loadFixture<{ header: { id: string } }>(file.split(/[/\\]/).slice(-2).join('/')).header.id;
      const demo = runCli(['demo', '--port', '0', '--replay', file]);
      runs.push(demo);
      const [, base = ''] = await demo.waitForStdout(/^daemon at (http:\/\/\S+)$/m);
      await demo.waitForStdout(new RegExp(`^overlay: \\S+/overlay/mens/${id}$`, 'm'));
      expect(demo.stdout()).toMatch(/1 game\(s\) at 20x/);
      const { events, ws } = collectEvents(base);
      await waitFor(
        () => events.some((e) => e.gameId === id && e.type === 'play.added'),
        60_000,
        'a play of the replay',
      );
      ws.close();
      demo.child.kill('SIGINT');
      expect((await demo.exited).code).toBe(0);
    },
    150_000,
  );

  itRecorded(!HAVE_FIXTURES)(
    `--replay refuses the summary of a game still in progress, saying why ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
    async () => {
      const live = join(FIXTURES_DIR, 'mens', 'summary__401705066_live.json');
      const demo = runCli(['demo', '--port', '0', '--replay', live]);
      runs.push(demo);
      expect((await demo.exited).code).toBe(2);
      expect(demo.stderr()).toContain(
        `courtside demo: replay: ${live} is the summary of a game not finished yet (its status: 8:10 - 4th Quarter); a replay needs a finished game's summary: save it again once the game is final`,
      );
      expect(demo.stdout()).not.toMatch(/^daemon at/m);
    },
    60_000,
  );

  it('refuses bad flags with exit code 2', async () => {
    const demo = runCli(['demo', '--games', '0']);
    runs.push(demo);
    expect((await demo.exited).code).toBe(2);
    expect(demo.stderr()).toMatch(/--games: expected an integer from 1 to 30/);
  }, 60_000);
});
