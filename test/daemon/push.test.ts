import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testDaemonConfig } from '../support/daemon-config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { DEFAULT_FASTCAST_URL, loadPushConfig } from '../../src/daemon/push-config.js';
import { silentLogger } from '../../src/core/log.js';
import type { GameEvent } from '../../src/model/events.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { waitFor } from '../support/wait-for.js';

describe('push configuration', () => {
  it('is on by default with ESPN’s discovery URL, a browser agent and ESPN’s origin', () => {
    const push = loadPushConfig({ env: {} });
    expect(push).toMatchObject({
      fastcastUrl: DEFAULT_FASTCAST_URL,
      origin: 'https://www.espn.com',
      reconcileMs: 15_000,
      subscribeTimeoutMs: 10_000,
    });
    expect(
      loadPushConfig({ env: { COURTSIDE_FASTCAST_SUBSCRIBE_TIMEOUT_MS: '2500' } })?.subscribeTimeoutMs,
    ).toBe(2_500);
    expect(push?.userAgent).toMatch(/^Mozilla\/5\.0/);
  });

  it('is off with COURTSIDE_PUSH=off or --push off; flags win over the environment', () => {
    expect(loadPushConfig({ env: { COURTSIDE_PUSH: 'off' } })).toBeNull();
    expect(loadPushConfig({ env: { COURTSIDE_PUSH: 'on' }, flags: { push: 'off' } })).toBeNull();
    expect(
      loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: 'http://127.0.0.1:9/public/websockethost' } })
        ?.fastcastUrl,
    ).toBe('http://127.0.0.1:9/public/websockethost');
  });

  it('names the field and the expected form of a bad value', () => {
    expect(() => loadPushConfig({ env: { COURTSIDE_PUSH: 'yes' } })).toThrow(
      /COURTSIDE_PUSH: invalid value "yes"; expected on or off/,
    );
    expect(() => loadPushConfig({ flags: { fastcastUrl: 'ftp://x' } })).toThrow(/--fastcast-url: .*http/);
    expect(() => loadPushConfig({ env: { COURTSIDE_RECONCILE_MS: '10' } })).toThrow(
      /COURTSIDE_RECONCILE_MS: .*at least 1000/,
    );
    expect(() => loadPushConfig({ env: { COURTSIDE_FASTCAST_SUBSCRIBE_TIMEOUT_MS: '500' } })).toThrow(
      /COURTSIDE_FASTCAST_SUBSCRIBE_TIMEOUT_MS: .*milliseconds, 1000-120000/,
    );
    // The origin is sent as the upgrade's Origin header: an origin, not a page.
    expect(() => loadPushConfig({ env: { COURTSIDE_FASTCAST_ORIGIN: 'https://www.espn.com/nba' } })).toThrow(
      /COURTSIDE_FASTCAST_ORIGIN: .*an origin such as/,
    );
    expect(loadPushConfig({ env: { COURTSIDE_FASTCAST_ORIGIN: 'https://www.espn.com/' } })?.origin).toBe(
      'https://www.espn.com',
    );
  });
});

describe('a daemon on push', () => {
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    await upstream?.close();
  });

  it('feeds a live game by push, shows it on /healthz, /v1/games/live, / and /metrics, polls the summary only to reconcile, and polls it every interval while push is down', async () => {
    upstream = await startUpstream({
      simulate: { games: 1, seed: 5, leagues: ['mens'] },
      speed: 30,
      logger: silentLogger,
    });
    const config = testDaemonConfig(upstream.url);
    const push = loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: upstream.fastcastUrl as string } });
    daemon = createDaemon(config, { logger: silentLogger, push });
    await daemon.start();
    const url = daemon.url;
    const events: GameEvent[] = [];
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`);
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
      if (frame.type === 'event' && frame.event) events.push(frame.event);
    });
    type Health = { pollers: Array<{ poller: string; feed?: { source: string; since: string } }> };
    const fed = async (): Promise<boolean> => {
      const health = (await (await fetch(`${url}/healthz`)).json()) as Health;
      return health.pollers.some((p) => p.poller === 'summary' && p.feed?.source === 'push');
    };
    await waitFor(fed, 20_000, 'the game to be fed by push');
    await waitFor(() => events.filter((e) => e.type === 'play.added').length >= 5, 20_000, 'plays over push');
    const live = (await (await fetch(`${url}/v1/games/live`)).json()) as {
      games: Array<{ feed?: { source: string; state: string; since: string } }>;
    };
    expect(live.games[0]?.feed).toMatchObject({ source: 'push', state: 'push' });
    expect(Date.parse(live.games[0]?.feed?.since ?? '')).not.toBeNaN();
    expect(await (await fetch(`${url}/`)).text()).toMatch(/push since \d\d:\d\d:\d\d UTC/);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/courtside_fastcast_frames_total\{op="P"\} [1-9]/);
    expect(metrics).toMatch(/courtside_fastcast_push_lag_seconds_count [1-9]/);
    // Plays keep coming while the summary is polled for reconciliation only (every 15 s).
    const summaries = (): number => upstream!.requests.count((r) => r.path.endsWith('/summary'));
    const before = summaries();
    const plays = events.length;
    await new Promise((r) => setTimeout(r, 4000));
    expect(events.length).toBeGreaterThan(plays);
    expect(summaries() - before).toBeLessThanOrEqual(1);

    // Push fails for good (every socket dropped, every new token refused): the game is polled
    // every second again, from the next tick.
    upstream.faults.set('dropsocket=1,expiredtoken=1');
    const source = async (): Promise<string | undefined> => {
      const health = (await (await fetch(`${url}/healthz`)).json()) as Health;
      return health.pollers.find((p) => p.poller === 'summary')?.feed?.source;
    };
    await waitFor(async () => (await source()) === 'polling', 20_000, 'the game back on polling');
    const polledFrom = summaries();
    await new Promise((r) => setTimeout(r, 3500));
    expect(summaries() - polledFrom).toBeGreaterThanOrEqual(2);
    // And back on push once FastCast answers again.
    upstream.faults.set('');
    await waitFor(fed, 20_000, 'the game back on push');
    const seen = events.length;
    await waitFor(() => events.length > seen, 20_000, 'events after the switches');
    // Nothing repeated across the switches, and the log is gapless.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    ws.close();
  });
});
