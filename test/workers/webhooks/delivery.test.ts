import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerWebhooks } from '../../../src/cli/webhooks.js';
import { openFailedDeliveries } from '../../../workers/webhooks/failed.js';
import { verifySignature } from '../../../workers/webhooks/signature.js';
import { getTestRedis, redisPerTest, type TestRedis } from '../../support/redis.js';
import {
  ALERTING_RULES as RULES,
  SECRET,
  alertingGame,
  expectedAlertIds,
  startPipeline,
} from '../pipeline.js';
import { startReceiver, type Received } from '../../support/receiver.js';
import { waitFor } from '../../support/wait-for.js';

const redisAvailable = await getTestRedis();

function byKey(received: Received[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of received) {
    const key = String(r.headers['idempotency-key']);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(!redisAvailable)('webhook delivery (real Redis, loopback receivers)', () => {
  let redis!: TestRedis;
  const closers = redisPerTest((r) => (redis = r));

  it('a receiver that fails its first 3 responses gets every delivery exactly once', async () => {
    const receiver = await startReceiver((n) => (n < 3 ? 503 : 200));
    closers.push(receiver.close);
    const pipeline = await startPipeline(redis, {
      ...RULES,
      subscribers: [{ id: 'flaky', url: receiver.url, secret: SECRET }],
    });
    closers.push(pipeline.close);
    const game = alertingGame();
    const expected = expectedAlertIds(game, RULES);
    for (const event of game.events) pipeline.producer.add(event);
    await waitFor(() => pipeline.alerts.length >= expected.length, 30_000, 'every alert');
    await waitFor(() => receiver.accepted().length >= pipeline.alerts.length, 30_000, 'deliveries');
    // Give stray duplicates a chance to show up before asserting there are none.
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(pipeline.alerts.map((a) => a.id).sort()).toEqual(expected);
    expect(new Set(pipeline.alerts.map((a) => a.rule))).toEqual(
      new Set(['close_game', 'final_score', 'lead_change', 'player_points', 'run']),
    );
    expect(receiver.received.filter((r) => r.status === 503)).toHaveLength(3);
    const accepted = byKey(receiver.accepted());
    expect([...accepted.keys()].sort()).toEqual(pipeline.alerts.map((a) => `${a.id}@flaky`).sort());
    expect([...accepted.values()].every((n) => n === 1)).toBe(true);
    for (const r of receiver.accepted()) {
      expect(r.headers['user-agent']).toMatch(/^courtside-webhooks\//);
      expect(
        verifySignature({
          secret: SECRET,
          timestamp: r.headers['x-courtside-timestamp'] as string,
          signature: r.headers['x-courtside-signature'] as string,
          body: r.body,
        }),
      ).toBe(true);
      const payload = JSON.parse(r.body) as { kind: string; id: string; text: string };
      expect(payload.kind).toBe('alert');
      expect(r.headers['idempotency-key']).toBe(`${payload.id}@flaky`);
    }
    const final = receiver
      .accepted()
      .map((r) => JSON.parse(r.body) as { rule: string; text: string })
      .find((p) => p.rule === 'final_score');
    expect(final?.text).toBe('Final: BOS 14 - LAL 15');
  });

  it('a receiver down for the whole run leaves every delivery failed; `webhooks retry --all` delivers them', async () => {
    // Take a free port, then close the receiver: connections are refused for the whole run.
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();
    const url = `http://127.0.0.1:${port}/hook`;
    const rulesFile = { rules: { final_score: {}, lead_change: {} } };
    const pipeline = await startPipeline(redis, {
      attempts: 3,
      ...rulesFile,
      subscribers: [{ id: 'down', url, secret: SECRET, events: ['game.ended'] }],
    });
    closers.push(pipeline.close);
    const game = alertingGame();
    for (const event of game.events) pipeline.producer.add(event);
    const expected = expectedAlertIds(game, rulesFile);
    expect(expected).toHaveLength(3); // two lead changes in the 4th, the final
    // The alerts and the subscribed game.ended event.
    const total = expected.length + 1;
    const failed = openFailedDeliveries({ redisUrl: redis.url, prefix: redis.prefix });
    closers.push(failed.close);
    await waitFor(async () => (await failed.list()).length >= total, 30_000, 'failed deliveries');
    const rows = await failed.list();
    expect(rows).toHaveLength(total);
    for (const row of rows) {
      expect(row.url).toBe(url);
      expect(row.attempts).toBe(3);
      expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    }

    const receiver = await startReceiver(() => 200, port);
    closers.push(receiver.close);
    const program = new Command().exitOverride();
    registerWebhooks(program);
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (
      out.push(String(chunk)),
      true
    )) as typeof process.stdout.write;
    try {
      await program.parseAsync(
        ['webhooks', 'retry', '--all', '--redis', redis.url, '--prefix', redis.prefix],
        { from: 'user' },
      );
    } finally {
      process.stdout.write = write;
    }
    expect(out.join('')).toContain(`retried ${total} deliveries`);
    await waitFor(() => receiver.accepted().length >= total, 30_000, 'retried deliveries');
    const keys = [...byKey(receiver.accepted()).keys()].sort();
    const gameEnded = game.events.find((e) => e.type === 'game.ended')!;
    expect(keys).toEqual([...pipeline.alerts.map((a) => `${a.id}@down`), `${gameEnded.id}@down`].sort());
    await waitFor(async () => (await failed.list()).length === 0, 10_000, 'empty failed set');
  });
});
