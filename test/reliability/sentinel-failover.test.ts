import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GameEvent, PlayAddedData } from '../../src/model/events.js';
import { loadConfig, type ConfigFlags } from '../../src/daemon/config.js';
import { loadPushConfig } from '../../src/daemon/push-config.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { createAlertWorker } from '../../workers/alerts/worker.js';
import { parseAlertsConfig } from '../../workers/rules-file.js';
import { createWebhookWorker } from '../../workers/webhooks/worker.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import {
  finishedSummaries,
  HAVE_FIXTURES,
  loadFixture,
  NO_FIXTURES_REASON,
  describeRecorded,
} from '../support/fixtures.js';
import { startReceiver } from '../support/receiver.js';
import { haveRedisServer } from '../support/redis-process.js';
import { startSentinelSet, type SentinelSet } from '../support/redis-topology.js';
import { waitFor } from '../support/wait-for.js';
import { SECRET, acceptedAlertIds } from '../workers/pipeline.js';

/**
 * A Redis primary SIGKILLed in the middle of a replayed game, under Sentinel configured as
 * docs/deployment.md assumes (down-after-milliseconds 5000), with the daemon's default summary
 * interval: a poller (role all, so it has a viewer too) and a gateway ride out the promotion of
 * the replica, once with push on and once with push off. Each viewer, keeping the first copy of
 * each event id (as the client library does), ends with every play once under one event id; the
 * longest silence either viewer sees around the kill (the longest gap between consecutive events
 * from the last one before the kill to 30 s after it) is at most 10 s. An alert worker and a
 * webhook worker on the same Sentinel deliver to a local receiver through the failover: the final
 * score once, no alert twice.
 */
const HAVE_SERVER = await haveRedisServer();
const GAME = finishedSummaries().find((f) => f.league === 'mens' && !f.qualifier.includes('roundtrip'));
// About 60 s of replay, a play every few tenths of a second: events at a steady pace (the daemon's
// 3 s polls, or every push) around the kill, which falls early in the first half, far from its end.
const SPEED = 150;
const KILL_AT_SHARE = 0.15;
// The sentinels' setting docs/deployment.md assumes, and the silence it promises with it.
const DOWN_AFTER_MS = 5_000;
const MAX_SILENCE_MS = 10_000;
// The silence is read from the last event before the kill to this long after it.
const SILENCE_WINDOW_MS = 30_000;

interface Viewer {
  events: Map<string, GameEvent>;
  arrivals: number[];
  ended: boolean;
  close(): void;
}

/** A WebSocket viewer that resumes from its last offset after any disconnect, keeping each event id once. */
function viewer(base: string): Viewer {
  const out: Viewer = { events: new Map(), arrivals: [], ended: false, close: () => undefined };
  let last: string = '0-0';
  let closed = false;
  let ws: WebSocket | undefined;
  const connect = (): void => {
    if (closed) return;
    ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/stream`);
    ws.on('open', () => ws?.send(JSON.stringify({ op: 'subscribe', id: 'all', since: last })));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
      if (frame.type !== 'event' || !frame.event) return;
      const event = frame.event;
      if (event.offset) last = event.offset;
      out.arrivals.push(Date.now());
      if (!out.events.has(event.id)) out.events.set(event.id, event);
      if (event.type === 'game.ended') out.ended = true;
    });
    ws.on('error', () => undefined);
    ws.on('close', () => setTimeout(connect, 250));
  };
  connect();
  out.close = () => {
    closed = true;
    ws?.close();
  };
  return out;
}

/**
 * The longest gap between consecutive arrivals around `killedAt`: from the last arrival before it
 * (that gap holds the failover) through `SILENCE_WINDOW_MS` after it.
 */
function silenceAround(arrivals: readonly number[], killedAt: number): number {
  let longest = 0;
  for (let i = 1; i < arrivals.length; i++) {
    const at = arrivals[i]!;
    if (at <= killedAt || at > killedAt + SILENCE_WINDOW_MS) continue;
    longest = Math.max(longest, at - arrivals[i - 1]!);
  }
  return longest;
}

describeRecorded(!HAVE_SERVER || !HAVE_FIXTURES || !GAME)(
  `Sentinel failover mid-game ${HAVE_SERVER ? (HAVE_FIXTURES ? '' : NO_FIXTURES_REASON) : '(redis-server not on PATH: the test starts its own primary, replica and sentinels)'}`,
  () => {
    let set: SentinelSet | undefined;
    let upstream: RunningUpstream | undefined;
    const daemons: Daemon[] = [];
    const viewers: Viewer[] = [];
    const closers: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const v of viewers.splice(0)) v.close();
      for (const close of closers.splice(0).reverse()) await close();
      for (const d of daemons.splice(0)) await d.close();
      await upstream?.close();
      await set?.stop();
    });

    it.each([
      ['on', true],
      ['off', false],
    ] as const)(
      'push %s: every play once under one event id on both instances, silence at most 10 s, alerts once',
      async (_, pushOn) => {
        // Two replicas: the promoted one keeps a replica, so commits that wait for one go on succeeding.
        set = await startSentinelSet({ downAfterMs: DOWN_AFTER_MS, replicas: 2 });
        const receiver = await startReceiver();
        closers.push(receiver.close);
        const alertsConfig = parseAlertsConfig(
          {
            allowPrivateAddresses: true,
            backoffMs: 200,
            rules: { final_score: {}, lead_change: { fromPeriod: 1 }, run: { points: 8 } },
            subscribers: [{ id: 'local-bot', url: receiver.url, secret: SECRET }],
          },
          {},
        );
        const alertWorker = createAlertWorker({
          redisUrl: set.url,
          config: alertsConfig,
          logger: silentLogger,
        });
        closers.push(() => alertWorker.close());
        const webhookWorker = createWebhookWorker({
          redisUrl: set.url,
          config: alertsConfig,
          logger: silentLogger,
        });
        closers.push(() => webhookWorker.close());
        await Promise.all([alertWorker.ready(), webhookWorker.ready()]);
        upstream = await startUpstream({ replay: [GAME!.file], speed: SPEED, logger: silentLogger });
        const flags = (extra: ConfigFlags): ConfigFlags => ({
          port: 0,
          host: '127.0.0.1',
          upstream: upstream!.url,
          leagues: 'mens',
          logLevel: 'silent',
          redis: set!.url,
          // Each commit on the replica before its events go out: a lost write is re-committed.
          waitReplicas: 1,
          ...extra,
        });
        // FastCast found on the simulator from the upstream, as `serve --upstream` does; or none.
        const push = pushOn ? loadPushConfig({ env: {}, upstream: upstream.url }) : null;
        const gateway = createDaemon(loadConfig({ env: {}, flags: flags({ role: 'gateway' }) }), {
          logger: silentLogger,
          push,
        });
        daemons.push(gateway);
        await gateway.start();
        const poller = createDaemon(loadConfig({ env: {}, flags: flags({ role: 'all' }) }), {
          logger: silentLogger,
          push,
        });
        daemons.push(poller);
        await poller.start();
        const feed = async (): Promise<string | undefined> =>
          (
            (await (await fetch(`${poller.url}/healthz`)).json()) as {
              pollers: Array<{ poller: string; state: string }>;
            }
          ).pollers.find((p) => p.poller === 'summary')?.state;
        const onGateway = viewer(gateway.url);
        const onPoller = viewer(poller.url);
        viewers.push(onGateway, onPoller);

        const final = loadFixture<{ plays?: Array<{ id: string }> }>(
          `${GAME!.league}/${GAME!.suffix}__${GAME!.qualifier}.json`,
        );
        const playIds = new Set((final.plays ?? []).map((p) => p.id));
        const plays = (v: Viewer): GameEvent[] =>
          [...v.events.values()].filter((e) => e.type === 'play.added');
        // The game is fed the way this run says: by push, or by polling.
        await waitFor(async () => (await feed()) === (pushOn ? 'push' : 'polling'), 30_000, 'the feed');
        // The game under way: the primary dies, without a chance to replicate what it has not yet.
        await waitFor(
          () => plays(onGateway).length >= playIds.size * KILL_AT_SHARE,
          90_000,
          'the first plays',
        );
        const before = await set.primaryPort();
        const killedAt = Date.now();
        await set.primary.kill();
        await waitFor(
          async () => (await set!.primaryPort().catch(() => before)) !== before,
          30_000,
          'the promotion',
        );

        // The gateway stays healthy (Redis answers again) and both viewers reach the end.
        await waitFor(() => onGateway.ended && onPoller.ended, 120_000, 'game.ended on both viewers');
        const health = await fetch(`${gateway.url}/healthz`);
        expect(health.status, await health.text()).toBe(200);

        for (const v of [onGateway, onPoller]) {
          const byPlay = new Map<string, Set<string>>();
          for (const e of plays(v)) {
            const id = (e.data as PlayAddedData).play.id ?? '';
            byPlay.set(id, (byPlay.get(id) ?? new Set()).add(e.id));
          }
          // Every play of the final box, once, under one event id.
          for (const id of playIds) expect(byPlay.get(id)?.size, `play ${id}`).toBe(1);
          expect([...v.events.values()].filter((e) => e.type === 'game.ended')).toHaveLength(1);
          const silence = silenceAround(v.arrivals, killedAt);
          console.info(
            `[sentinel failover] push ${pushOn ? 'on' : 'off'}: longest silence of the ${v === onGateway ? 'gateway' : 'poller'}'s viewer: ${silence} ms`,
          );
          expect(silence).toBeGreaterThan(0);
          expect(silence).toBeLessThanOrEqual(MAX_SILENCE_MS);
        }
        expect([...onGateway.events.keys()].sort()).toEqual([...onPoller.events.keys()].sort());

        // The alerts: the final score delivered once, and no alert accepted twice under one key.
        const gameId = upstream.games[0]?.id ?? '';
        const finals = (): string[] =>
          acceptedAlertIds(receiver).filter((id) => id.startsWith('final_score:'));
        await waitFor(
          () => finals().length > 0,
          60_000,
          () => `the final score at the receiver (received: ${acceptedAlertIds(receiver).join(' ')})`,
        );
        // Anything doubled would arrive within moments of the last delivery.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        expect(finals()).toEqual([`final_score:mens:${gameId}:final`]);
        const keys = receiver.accepted().map((r) => String(r.headers['idempotency-key']));
        expect(keys.length).toBeGreaterThan(1);
        expect(new Set(keys).size, `keys delivered twice: ${keys.join(' ')}`).toBe(keys.length);
      },
      300_000,
    );
  },
);
