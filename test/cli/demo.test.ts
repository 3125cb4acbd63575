import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GameEvent } from '../../src/model/events.js';
import { HAVE_FIXTURES, loadFixture, NO_FIXTURES_REASON } from '../support/fixtures.js';
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

  it.skipIf(!HAVE_FIXTURES || !MENS_FINAL)(
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

  it('refuses bad flags with exit code 2', async () => {
    const demo = runCli(['demo', '--games', '0']);
    runs.push(demo);
    expect((await demo.exited).code).toBe(2);
    expect(demo.stderr()).toMatch(/--games: expected an integer from 1 to 30/);
  }, 60_000);
});
