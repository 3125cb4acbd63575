import { createDeflate } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEspnClient } from '../../src/espn-client/client.js';
import { silentLogger } from '../../src/core/log.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { loadPushConfig } from '../../src/daemon/push-config.js';
import { gameTopic } from '../../src/espn/fastcast-wire.js';
import type { GameEvent } from '../../src/model/events.js';
import { startUpstream } from '../../src/simulator/index.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { waitFor } from '../support/wait-for.js';
import { startScript, type ScriptOptions, type ScriptServer } from '../espn/fastcast-script.js';

/**
 * A daemon whose FastCast misbehaves for a live game (the site API is the simulator, push off;
 * FastCast is a scripted server, test/espn/fastcast-script.ts): whatever FastCast does, the game
 * is polled at the normal interval, its events keep coming, nothing is repeated, and its feed says
 * why push does not feed it.
 */

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** base64 of 256 MiB of zeros deflated: about 250 KiB on the wire. */
async function bomb(): Promise<string> {
  return new Promise((resolve, reject) => {
    const z = createDeflate();
    const parts: Buffer[] = [];
    z.on('data', (c: Buffer) => parts.push(c));
    z.on('end', () => resolve(Buffer.concat(parts).toString('base64')));
    z.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 256; i++) z.write(chunk);
    z.end();
  });
}

type Scenario = (ctx: {
  script: () => ScriptServer;
  summary: () => Promise<unknown>;
  gameId: string;
  bomb: string;
}) => ScriptOptions;

const SCENARIOS: Array<[string, Scenario, RegExp]> = [
  [
    'a subscription answered 200 and never an H',
    () => ({}),
    /^no topic: subscribed and no checkpoint \(H\) within 1 s/,
  ],
  [
    'a checkpoint of another game',
    ({ script }) => ({
      checkpoint: () => ({ header: { id: '1', competitions: [{ id: '1' }] } }),
      onSubscribe: (s, tc) => s.send({ op: 'H', tc, mid: 1, pl: script().checkpointUrl(tc) }),
    }),
    /^checkpoint failed: .*checkpoint refused \(other_game\)/,
  ],
  [
    'a checkpoint naming the game whose header does not read',
    ({ script, gameId }) => ({
      checkpoint: () => ({ header: { id: gameId, competitions: [{ id: gameId }] } }),
      onSubscribe: (s, tc) => s.send({ op: 'H', tc, mid: 1, pl: script().checkpointUrl(tc) }),
    }),
    /^bad document: pushed document unusable: .*competition has no status/,
  ],
  [
    'a patch inflating to 256 MiB right after each checkpoint',
    ({ script, summary, bomb }) => ({
      checkpoint: () => summary(),
      onSubscribe: (s, tc) => {
        // Read while the checkpoint downloads: refused before any document is handed out.
        s.send({ op: 'H', tc, mid: 1, pl: script().checkpointUrl(tc) });
        s.send({ op: 'P', tc, mid: 2, pl: JSON.stringify({ ts: Date.now(), '~c': 1, pl: bomb }) });
      },
    }),
    /^bad payload: .*inflates past 16 MiB/,
  ],
];

describe('a daemon whose FastCast misbehaves for a live game', () => {
  it.each(SCENARIOS)(
    '%s: the game is polled, its events keep coming, the feed says why',
    { timeout: 60_000 },
    async (_name, scenario, reason) => {
      const upstream = await startUpstream({
        simulate: { games: 1, seed: 5, leagues: ['mens'] },
        speed: 30,
        logger: silentLogger,
      });
      cleanup.push(() => upstream.close());
      const game = upstream.games[0]!;
      const site = createEspnClient({ upstream: upstream.url, timeoutMs: 2000 });
      cleanup.push(() => site.close());
      // The scenario names the server's checkpoint URLs; the server is started with the scenario.
      const started: { server?: ScriptServer } = {};
      const options = scenario({
        script: () => started.server as ScriptServer,
        summary: () => site.call('mens_summary', { event_id: game.id }, { returnParsed: false, fresh: true }),
        gameId: game.id,
        bomb: await bomb(),
      });
      const server = await startScript(options);
      started.server = server;
      cleanup.push(() => server.close());
      const push = loadPushConfig({
        env: { COURTSIDE_FASTCAST_URL: server.discoveryUrl, COURTSIDE_FASTCAST_SUBSCRIBE_TIMEOUT_MS: '1000' },
      });
      const rss = process.memoryUsage().rss;
      const daemon: Daemon = createDaemon(testDaemonConfig(upstream.url), { logger: silentLogger, push });
      cleanup.push(() => daemon.close());
      await daemon.start();
      const events: GameEvent[] = [];
      const ws = new WebSocket(`${daemon.url.replace(/^http/, 'ws')}/v1/stream`);
      cleanup.push(async () => ws.close());
      ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
        if (frame.type === 'event' && frame.event) events.push(frame.event);
      });
      type Health = {
        pollers: Array<{ poller: string; feed?: { source: string; state: string; reason: string } }>;
      };
      const feed = async () =>
        ((await (await fetch(`${daemon.url}/healthz`)).json()) as Health).pollers.find(
          (p) => p.poller === 'summary',
        )?.feed;
      await waitFor(
        async () => reason.test((await feed())?.reason ?? ''),
        30_000,
        `the feed's reason to match ${reason}`,
      );
      expect(server.subscribes.some((s) => s.topic === gameTopic('mens', game.id))).toBe(true);
      // Polled at the normal interval (1 s), and the game goes on.
      const summaries = (): number => upstream.requests.count((r) => r.path.endsWith('/summary'));
      const polledFrom = summaries();
      const plays = events.filter((e) => e.type === 'play.added').length;
      await new Promise((r) => setTimeout(r, 4_000));
      expect(summaries() - polledFrom).toBeGreaterThanOrEqual(3);
      expect(events.filter((e) => e.type === 'play.added').length).toBeGreaterThan(plays);
      expect((await feed())?.source).toBe('polling');
      // Nothing repeated, the log gapless, and no payload was ever held whole.
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
    },
  );
});
