import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GameEvent } from '../../src/model/events.js';
import { InvalidConfigError } from '../../src/core/errors.js';
import { loadConfig, type ConfigFlags } from '../../src/daemon/config.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import {
  finishedSummaries,
  HAVE_FIXTURES,
  NO_FIXTURES_REASON,
  describeRecorded,
} from '../support/fixtures.js';
import { getTestRedis, type TestRedis } from '../support/redis.js';

const SPEED = 1_000;
const REDIS = await getTestRedis();
const GAME = finishedSummaries().find((f) => f.league === 'mens' && !f.qualifier.includes('roundtrip'));
// Nothing listens on port 1: a gateway pointed there proves its health does not depend on ESPN.
const DEAD_UPSTREAM = 'http://127.0.0.1:1';

function configFor(upstream: string, redis: TestRedis, extra: ConfigFlags) {
  return testDaemonConfig(upstream, { redis: redis.url, prefix: redis.prefix, ...extra });
}

function collectUntilEnd(url: string): { events: GameEvent[]; ended: Promise<void>; ws: WebSocket } {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`);
  const events: GameEvent[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
      if (frame.type !== 'event' || !frame.event) return;
      events.push(frame.event);
      if (frame.event.type === 'game.ended') resolve();
    });
  });
  return { events, ended, ws };
}

describe('serve --role', () => {
  it('defaults to all, reads COURTSIDE_ROLE, and refuses an unknown role or a split role without Redis', () => {
    expect(loadConfig({ env: {} }).role).toBe('all');
    expect(loadConfig({ env: { COURTSIDE_ROLE: 'gateway', REDIS_URL: 'redis://127.0.0.1:6379' } }).role).toBe(
      'gateway',
    );
    expect(() => loadConfig({ env: { COURTSIDE_ROLE: 'viewer' } })).toThrow(
      /COURTSIDE_ROLE: invalid value "viewer"; expected one of all, poller, gateway/,
    );
    let error: unknown;
    try {
      loadConfig({ env: {}, flags: { role: 'poller' } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).field).toBe('--role');
    expect((error as Error).message).toContain('needs REDIS_URL');
  });
});

describeRecorded(!HAVE_FIXTURES || !GAME || !REDIS)(
  `a poller and a gateway on one Redis ${HAVE_FIXTURES ? (REDIS ? '' : '(no Redis: see the warning above)') : NO_FIXTURES_REASON}`,
  () => {
    const daemons: Daemon[] = [];
    let upstream: RunningUpstream | undefined;
    let redis: TestRedis | undefined;
    afterEach(async () => {
      for (const d of daemons.splice(0)) await d.close();
      await upstream?.close();
      await redis?.cleanup();
    });

    it('the poller polls and serves only health and metrics; the gateway serves the game from the log', async () => {
      redis = await getTestRedis();
      if (!redis) throw new Error('Redis went away since the file started');
      upstream = await startUpstream({ replay: [GAME?.file ?? ''], speed: SPEED, logger: silentLogger });
      const gateway = createDaemon(configFor(DEAD_UPSTREAM, redis, { role: 'gateway' }), {
        logger: silentLogger,
      });
      daemons.push(gateway);
      await gateway.start();
      const viewer = collectUntilEnd(gateway.url);
      // Metrics are per process; this test runs both instances in one, so the gateway's is read first.
      expect(await (await fetch(`${gateway.url}/metrics`)).text()).toContain(
        'courtside_instance_role{role="gateway"} 1',
      );
      const poller = createDaemon(configFor(upstream.url, redis, { role: 'poller' }), {
        logger: silentLogger,
      });
      daemons.push(poller);
      await poller.start();

      await viewer.ended;
      viewer.ws.close();
      const types = viewer.events.map((e) => e.type);
      expect(types.filter((t) => t === 'game.started')).toHaveLength(1);
      expect(types.filter((t) => t === 'game.ended')).toHaveLength(1);
      expect(types.filter((t) => t === 'play.added').length).toBeGreaterThan(100);
      // The gateway never polled: every event came from the poller through the log.
      expect(gateway.engine.status()).toEqual([]);
      expect(new Set(viewer.events.map((e) => e.id)).size).toBe(viewer.events.length);

      // The gateway's health follows Redis only: its upstream is dead, and it is healthy.
      const gatewayHealth = await fetch(`${gateway.url}/healthz`);
      expect(gatewayHealth.status).toBe(200);
      expect(await gatewayHealth.json()).toMatchObject({
        status: 'ok',
        role: 'gateway',
        // ... and it asked ESPN nothing to find that out: a gateway adds no load on the upstream.
        upstream: { reachable: false, probe: null },
        redis: { configured: true, ok: true },
      });
      const gameId = viewer.events.find((e) => e.type === 'game.ended')?.gameId ?? '';
      expect((await fetch(`${gateway.url}/v1/games/mens/${gameId}`)).status).toBe(200);
      const page = await (await fetch(`${gateway.url}/`)).text();
      expect(page).toContain('Role: <strong>gateway</strong>');
      // A gateway polls nothing: its page says nothing of polls it will never make.
      expect(page).not.toMatch(/Waiting for the first poll|Cannot get live data|answering since/);

      // The poller answers health (with its pollers) and metrics, and nothing a viewer would use.
      const pollerHealth = await fetch(`${poller.url}/healthz`);
      expect(pollerHealth.status).toBe(200);
      const body = (await pollerHealth.json()) as { role: string; pollers: unknown[] };
      expect(body.role).toBe('poller');
      expect(body.pollers.length).toBeGreaterThan(0);
      expect(await (await fetch(`${poller.url}/metrics`)).text()).toContain(
        'courtside_instance_role{role="poller"} 1',
      );
      expect((await fetch(`${poller.url}/v1/games/live`)).status).toBe(404);
      const refused = new WebSocket(`${poller.url.replace(/^http/, 'ws')}/v1/stream`);
      const outcome = await new Promise<string>((resolve) => {
        refused.once('open', () => resolve('open'));
        refused.once('error', (err) => resolve(err.message));
      });
      expect(outcome).toMatch(/404/);
    });
  },
);
