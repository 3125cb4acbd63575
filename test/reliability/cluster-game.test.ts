import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GameEvent } from '../../src/model/events.js';
import { loadConfig } from '../../src/daemon/config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { parseAlertsConfig } from '../../workers/rules-file.js';
import { createAlertWorker } from '../../workers/alerts/worker.js';
import { createWebhookWorker } from '../../workers/webhooks/worker.js';
import {
  finishedSummaries,
  HAVE_FIXTURES,
  NO_FIXTURES_REASON,
  describeRecorded,
} from '../support/fixtures.js';
import { startReceiver } from '../support/receiver.js';
import { haveRedisServer } from '../support/redis-process.js';
import { startRedisCluster, type RedisClusterSet } from '../support/redis-topology.js';
import { waitFor } from '../support/wait-for.js';

/**
 * A whole recorded game through `serve`, the alert worker and the webhook worker on a 3-primary
 * Redis Cluster with the default prefix: every play once, one final-score delivery, and not one
 * CROSSSLOT or MOVED in any log (a multi-key command over two slots would fail with CROSSSLOT).
 */
const HAVE_SERVER = await haveRedisServer();
const GAME = finishedSummaries().find((f) => f.league === 'mens' && !f.qualifier.includes('roundtrip'));
const SPEED = 1_000;

describeRecorded(!HAVE_SERVER || !HAVE_FIXTURES || !GAME)(
  `a game on a Redis Cluster ${HAVE_SERVER ? (HAVE_FIXTURES ? '' : NO_FIXTURES_REASON) : '(redis-server not on PATH: the test starts its own cluster)'}`,
  () => {
    const closers: Array<() => Promise<void>> = [];
    let cluster: RedisClusterSet | undefined;
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
      await cluster?.stop();
    });

    it('serve, worker alerts and worker webhooks: every play once, one final score, no CROSSSLOT', async () => {
      cluster = await startRedisCluster(3);
      const lines: string[] = [];
      const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
      const receiver = await startReceiver();
      closers.push(receiver.close);
      const config = loadConfig({
        env: {},
        flags: {
          port: 0,
          host: '127.0.0.1',
          leagues: 'mens',
          summaryInterval: 1000,
          logLevel: 'silent',
          redis: cluster.url,
          upstream: 'http://127.0.0.1:1',
        },
      });
      // The Cluster's default prefix carries the hash tag.
      expect(config.prefix).toBe('{courtside}:');
      const rules = parseAlertsConfig({
        allowPrivateAddresses: true,
        backoffMs: 20,
        rules: { final_score: {} },
        subscribers: [{ id: 'bot', url: receiver.url, secret: 'test-secret-0123456789' }],
      });
      const alerts = createAlertWorker({
        redisUrl: cluster.url,
        prefix: config.prefix,
        config: rules,
        logger,
      });
      closers.push(() => alerts.close());
      const webhooks = createWebhookWorker({
        redisUrl: cluster.url,
        prefix: config.prefix,
        config: rules,
        logger,
      });
      closers.push(() => webhooks.close());
      await Promise.all([alerts.ready(), webhooks.ready()]);

      const upstream: RunningUpstream = await startUpstream({
        replay: [GAME!.file],
        speed: SPEED,
        logger: silentLogger,
      });
      closers.push(() => upstream.close());
      const daemon: Daemon = createDaemon({ ...config, upstream: upstream.url }, { logger });
      closers.push(() => daemon.close());
      await daemon.start();

      const events: GameEvent[] = [];
      const ws = new WebSocket(`${daemon.url.replace(/^http/, 'ws')}/v1/stream`);
      closers.push(async () => ws.close());
      ws.on('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' })));
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
        if (frame.type === 'event' && frame.event) events.push(frame.event);
      });
      await waitFor(() => events.some((e) => e.type === 'game.ended'), 90_000, 'game.ended');
      await waitFor(
        () => receiver.accepted().some((r) => r.body.includes('"final_score"')),
        60_000,
        'the final-score delivery',
      );
      // A late duplicate would show within a moment.
      await new Promise((resolve) => setTimeout(resolve, 1_000));

      const plays = events.filter((e) => e.type === 'play.added');
      expect(plays.length).toBeGreaterThan(100);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      const finals = receiver
        .accepted()
        .filter((r) => (JSON.parse(r.body) as { rule?: string }).rule === 'final_score');
      expect(finals).toHaveLength(1);
      expect(lines.length).toBeGreaterThan(0);
      const bad = lines.filter((l) => /CROSSSLOT|MOVED/.test(l));
      expect(bad).toEqual([]);
    }, 180_000);
  },
);
