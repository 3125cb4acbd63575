import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import type { GameSnapshot } from '../../src/model/events.js';
import { clientScriptRoute } from '../../src/server/live-client-script.js';
import type { DaemonServer } from '../../src/server/server.js';
import { connect, gameState, type LiveClient, type LiveGame } from '../../src/live-client/courtside.js';
import { MENS_FINAL, startStack, type Stack } from '../cli/harness.js';
import { commit, startServer } from '../server/gateway-harness.js';
import { HAVE_CHROMIUM, NO_CHROMIUM_REASON, launchChromium } from '../support/chromium.js';
import { game, makeEvent } from '../support/events.js';
import { HAVE_FIXTURES, itRecorded } from '../support/fixtures.js';

/**
 * The library as a page loads it, in Debian's Chromium: imported from the daemon
 * (`/client/courtside.js`, no build step), on the browser's own WebSocket, with the token in the
 * query (a browser cannot set headers on a WebSocket). It follows a replayed game to its end with
 * the same events and state as the Node client beside it.
 */
interface PageResult {
  ids: string[];
  game: LiveGame | undefined;
  states: string[];
}

describe.skipIf(!HAVE_CHROMIUM)(
  `client library in Chromium ${HAVE_CHROMIUM ? '' : NO_CHROMIUM_REASON}`,
  () => {
    let browser: Browser | undefined;
    let stack: Stack | undefined;
    let bus: Bus | undefined;
    let server: DaemonServer | undefined;
    let client: LiveClient | undefined;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });
    afterEach(async () => {
      await client?.close();
      await stack?.close();
      await server?.close();
      await bus?.close();
      client = stack = server = bus = undefined;
    });

    itRecorded(!HAVE_FIXTURES || !MENS_FINAL)(
      `follows a replayed game to its end, as the Node client does`,
      async () => {
        stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 400 });
        const gameId = stack.upstream.games[0]?.id ?? '';
        const page = await browser!.newPage();
        // Any page of the daemon's origin; the library is imported from it by path.
        await page.goto(`${stack.daemon.url}/client/courtside.js`);

        // The Node client beside it, for comparison.
        client = connect(stack.daemon.url);
        const nodeIds: string[] = [];
        const nodeGames = gameState();
        const nodeSub = client.subscribe({ games: [gameId], since: '0-0' });
        const nodeDone = (async () => {
          for await (const e of nodeSub) {
            nodeIds.push(e.id);
            nodeGames.apply(e);
            if (e.type === 'game.ended') break;
          }
        })();

        // Plain JavaScript the page runs as written (the test runner would rewrite a function's import()).
        const result = (await page.evaluate(`(async () => {
        const lib = await import('/client/courtside.js');
        const c = lib.connect('/');
        const states = [];
        c.on('state', (s) => states.push(s.state));
        const games = lib.gameState();
        const ids = [];
        for await (const e of c.subscribe({ games: [${JSON.stringify(gameId)}], since: '0-0' })) {
          ids.push(e.id);
          games.apply(e);
          if (e.type === 'game.ended') break;
        }
        await c.close();
        return { ids, game: games.get('mens', ${JSON.stringify(gameId)}), states };
      })()`)) as PageResult;
        await nodeDone;

        expect(result.states).toEqual(['open', 'closed']);
        expect(result.ids.length).toBeGreaterThan(500);
        expect(result.ids).toEqual(nodeIds);
        expect(result.game).toEqual(nodeGames.get('mens', gameId));
        const res = await fetch(`${stack.daemon.url}/v1/games/mens/${gameId}`);
        const daemonState = (await res.json()) as GameSnapshot;
        expect(result.game?.score).toEqual(daemonState.score);
        expect(result.game?.recentPlays).toEqual(daemonState.recentPlays);
        await page.close();
      },
      90_000,
    );

    it('sends the token in the query, and says why when the daemon refuses it', async () => {
      bus = createMemoryBus();
      server = await startServer({ bus, tokens: ['s3cret'], routes: [clientScriptRoute()] });
      const G = game('mens', '401000001', ['13', 'LAL'], ['2', 'BOS']);
      const page = await browser!.newPage();
      await page.goto(`${server.url}/client/courtside.js`);
      const refused = await page.evaluate(`(async () => {
      const lib = await import('/client/courtside.js');
      const c = lib.connect('/', { retry: { minMs: 10, maxMs: 20 } });
      return new Promise((resolve) =>
        c.on('state', (s) => {
          if (s.state === 'closed') resolve({ state: s.state, code: s.code });
        }),
      );
    })()`);
      expect(refused).toEqual({ state: 'closed', code: 'unauthorized' });

      const delivered = page.evaluate(`(async () => {
      const lib = await import('/client/courtside.js');
      const c = lib.connect('/', { token: 's3cret' });
      const sub = c.subscribe({ games: [${JSON.stringify(G.gameId)}] });
      window.subActive = () => sub.active;
      for await (const e of sub) {
        await c.close();
        return { url: c.url.search, type: e.type };
      }
    })()`);
      await page.waitForFunction(() => (window as unknown as { subActive?: () => boolean }).subActive?.());
      await commit(bus, G, [makeEvent(G, 'score.changed', 0, 1)]);
      // The token is added to the URL the socket opens, not to the client's own `url`.
      expect(await delivered).toEqual({ url: '', type: 'score.changed' });
      await page.close();
    }, 60_000);
  },
);
