import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { loadPushConfig, type PushConfig } from '../../src/daemon/push-config.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { RedisProcess } from '../support/redis-process.js';
import { waitFor } from '../support/wait-for.js';

/**
 * One word per game, the same on every page: `push` when FastCast feeds the game here, `polling`
 * when its summary does, `standby` when another instance holds it. Checked through HTTP on real
 * daemons against the simulator: /healthz, /v1/games/live, the home page and /metrics.
 */
interface Feed {
  source: string;
  state: string;
  since: string;
  reason: string;
}
interface Poller {
  poller: string;
  gameId: string | null;
  state: string;
  feed?: Feed;
}

const json = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;
const summaryPoller = async (daemon: Daemon): Promise<Poller | undefined> =>
  (await json<{ pollers: Poller[] }>(`${daemon.url}/healthz`)).pollers.find((p) => p.poller === 'summary');
const liveFeed = async (daemon: Daemon): Promise<Feed | undefined> =>
  (await json<{ games: Array<{ feed?: Feed }> }>(`${daemon.url}/v1/games/live`)).games[0]?.feed;
const home = async (daemon: Daemon): Promise<string> => (await fetch(`${daemon.url}/`)).text();
const fedGauge = async (daemon: Daemon, source: string): Promise<number | undefined> => {
  const text = await (await fetch(`${daemon.url}/metrics`)).text();
  const m = new RegExp(`^courtside_games_fed\\{league="mens",source="${source}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
};

/** Every page of `daemon` says `word` for its one live game, with the same `since`. */
async function expectWord(
  daemon: Daemon,
  word: 'push' | 'polling' | 'standby',
  reason?: string,
): Promise<void> {
  const poller = await summaryPoller(daemon);
  expect(poller?.state).toBe(word);
  expect(poller?.feed?.source).toBe(word);
  if (reason !== undefined) expect(poller?.feed?.reason).toBe(reason);
  const feed = await liveFeed(daemon);
  expect(feed?.source).toBe(word);
  const since = feed?.since.slice(11, 19) ?? '';
  expect(since).toMatch(/^\d\d:\d\d:\d\d$/);
  const page = await home(daemon);
  expect(page).toContain(
    word === 'standby'
      ? `standby since ${since} UTC: another instance feeds it`
      : `${word} since ${since} UTC`,
  );
  const counted = { push: '1 by push (FastCast)', polling: '1 by polling', standby: '1 on standby' }[word];
  expect(page).toContain(`Live games here: ${counted}`);
  // The banner no longer claims a way of following that the rows may contradict.
  expect(page).not.toMatch(/Polling (ESPN|the upstream)/);
  for (const other of ['push', 'polling', 'standby'])
    expect(await fedGauge(daemon, other), other).toBe(other === word ? 1 : 0);
}

describe('one word per game', () => {
  let upstream: RunningUpstream | undefined;
  const daemons: Daemon[] = [];
  let redis: RedisProcess | undefined;
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const d of daemons.splice(0)) await d.close();
    for (const c of closing.splice(0)) await c();
    await upstream?.close();
    await redis?.stop();
    upstream = undefined;
    redis = undefined;
  });

  const start = async (push: PushConfig | null, flags: { redis?: string; prefix?: string } = {}) => {
    const daemon = createDaemon(testDaemonConfig(upstream!.url, flags), { logger: silentLogger, push });
    daemons.push(daemon);
    await daemon.start();
    return daemon;
  };
  const simulate = async (): Promise<RunningUpstream> =>
    startUpstream({ simulate: { games: 1, seed: 11, leagues: ['mens'] }, speed: 20, logger: silentLogger });
  const isLive = async (daemon: Daemon): Promise<boolean> => (await liveFeed(daemon)) !== undefined;

  it('push on: a game FastCast feeds says push everywhere, its poller included', async () => {
    upstream = await simulate();
    // FastCast found on the simulator from the upstream alone, as `serve --upstream` does.
    const daemon = await start(loadPushConfig({ env: {}, upstream: upstream.url }));
    await waitFor(async () => (await summaryPoller(daemon))?.state === 'push', 20_000, 'the game on push');
    await waitFor(() => isLive(daemon), 20_000, 'the game live');
    await expectWord(daemon, 'push', 'checkpoint');
  });

  it('push off: a polled game says polling everywhere, and why', async () => {
    upstream = await simulate();
    const daemon = await start(null);
    await waitFor(() => isLive(daemon), 20_000, 'the game live');
    await expectWord(daemon, 'polling', 'push off');
  });

  it('a standby instance says standby for the game another instance feeds, holds no FastCast subscription for it, stays quiet on Redis, and takes the word back when it takes the game', async () => {
    upstream = await simulate();
    // A private server: its command count is this test's alone.
    redis = await RedisProcess.start();
    const shared = { redis: redis.url, prefix: 'courtside-feed:' };
    const push = loadPushConfig({ env: {}, upstream: upstream.url });
    const leader = await start(push, shared);
    await waitFor(async () => (await summaryPoller(leader))?.state === 'push', 20_000, 'the leader on push');
    // The standby asks for FastCast through a discovery of its own, which counts its asks and
    // relays the simulator's answer: a client with a topic to follow asks before it connects.
    let standbyRequests = 0;
    const relay = createServer((req, res) => {
      standbyRequests++;
      void fetch(upstream!.fastcastUrl!).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    closing.push(() => new Promise((resolve) => relay.close(() => resolve())));
    const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/public/websockethost`;
    const standby = await start({ ...push!, fastcastUrl: relayUrl }, shared);
    await waitFor(async () => (await summaryPoller(standby))?.state === 'standby', 20_000, 'the standby');
    await waitFor(() => isLive(standby), 20_000, 'the game live on the standby');
    await expectWord(standby, 'standby', 'another instance holds the game');
    await expectWord(leader, 'push');
    // It does not feed the game: no topic subscribed, so no socket, no discovery, no checkpoint.
    expect(standbyRequests).toBe(0);

    // The standby receives the pushed documents too; it must not spin on them. Both instances
    // together poll one game: a few hundred commands a second at most (a spin made 40,000).
    const probe = new Redis(redis.url);
    const commands = async (): Promise<number> =>
      Number(/total_commands_processed:(\d+)/.exec(await probe.info('stats'))?.[1]);
    const before = await commands();
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const perSecond = ((await commands()) - before) / ((Date.now() - from) / 1000);
    probe.disconnect();
    expect(perSecond).toBeLessThan(1_000);
    expect(standbyRequests).toBe(0);

    // The leader goes: the standby takes the game and says so, since it took it.
    const left = Date.now();
    await daemons.shift()?.close();
    await waitFor(
      async () => (await summaryPoller(standby))?.state === 'push',
      30_000,
      'the game taken over on push',
    );
    await expectWord(standby, 'push');
    // Fed by push once it took the game: subscribed then.
    expect(standbyRequests).toBeGreaterThan(0);
    expect(Date.parse((await liveFeed(standby))?.since ?? '')).toBeGreaterThanOrEqual(left - 1_000);
  }, 90_000);
});
