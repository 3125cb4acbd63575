import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createAlertWorker } from '../../workers/alerts/worker.js';
import { createEventProducer } from '../../workers/producer.js';
import { createWebhookWorker } from '../../workers/webhooks/worker.js';
import { openFailedDeliveries } from '../../workers/webhooks/failed.js';
import { idempotencyKey, webhookJobOptions, type WebhookJobData } from '../../workers/webhooks/jobs.js';
import { botNameFromFile, registerBot, rulesFingerprint } from '../../workers/bots.js';
import { parseAlertsConfig } from '../../workers/rules-file.js';
import { WEBHOOKS_QUEUE, bullPrefix } from '../../workers/queues.js';
import { createLogger } from '../../src/core/log.js';
import { getTestRedis, redisPerTest, type TestRedis } from '../support/redis.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';
import { ALERTING_RULES, SECRET, acceptedAlertIds, alertingGame, expectedAlertIds } from './pipeline.js';

const available = await getTestRedis();
const logger = createLogger({ level: process.env.COURTSIDE_TEST_LOGS ?? 'silent', format: 'json' });

/**
 * One process of a bot, as `courtside worker alerts` runs it: an alert worker and a webhook worker
 * on their own connections, for the rules file `file` (named `name`, or after nothing: `default`).
 */
async function startBotProcess(
  redis: TestRedis,
  file: Record<string, unknown>,
  source: string,
): Promise<{ close(): Promise<void> }> {
  const config = parseAlertsConfig({ allowPrivateAddresses: true, backoffMs: 20, ...file }, {});
  const parts = [
    createAlertWorker({ redisUrl: redis.url, prefix: redis.prefix, config, source, logger }),
    createWebhookWorker({ redisUrl: redis.url, prefix: redis.prefix, config, logger }),
  ];
  try {
    await Promise.all(parts.map((p) => p.ready()));
  } catch (err) {
    await Promise.all(parts.map((p) => p.close()));
    throw err;
  }
  return { close: async () => void (await Promise.all(parts.map((p) => p.close()))) };
}

describe('bot names', () => {
  it('default to the rules file name, made safe for keys', () => {
    expect(botNameFromFile('/etc/courtside/discord-bot.yaml')).toBe('discord-bot');
    expect(botNameFromFile('rules.json')).toBe('rules');
    expect(botNameFromFile('my rules (v2).yml')).toBe('my-rules-v2-');
    expect(parseAlertsConfig({}).name).toBe('default');
    expect(parseAlertsConfig({ name: 'scores' }).name).toBe('scores');
    expect(() => parseAlertsConfig({ name: 'a:b' })).toThrow(/^name: expected 1-64 letters/);
  });

  it('fingerprint equal rules equally, whatever their key order', () => {
    const a = parseAlertsConfig({ rules: { run: { points: 8 }, final_score: {} }, leagues: ['mens'] });
    const b = parseAlertsConfig({ leagues: ['mens'], rules: { final_score: {}, run: { points: 8 } } });
    const c = parseAlertsConfig({ leagues: ['mens'], rules: { final_score: {}, run: { points: 9 } } });
    expect(rulesFingerprint(a)).toBe(rulesFingerprint(b));
    expect(rulesFingerprint(a)).not.toBe(rulesFingerprint(c));
  });
});

describe.skipIf(!available)('several bots on one Redis (real Redis)', () => {
  let redis!: TestRedis;
  const closers = redisPerTest((r) => (redis = r));

  it('two bots each get every alert once, and a second process of one bot doubles none', async () => {
    const scores = await startReceiver();
    const staging = await startReceiver();
    closers.push(scores.close, staging.close);
    const scoresFile = {
      name: 'scores',
      ...ALERTING_RULES,
      subscribers: [{ id: 'local-bot', url: scores.url, secret: SECRET }],
    };
    // The same rules under another name, posting elsewhere: the staging copy of a production bot.
    const stagingFile = {
      name: 'staging',
      ...ALERTING_RULES,
      subscribers: [{ id: 'local-bot', url: staging.url, secret: SECRET }],
    };
    const processes = [
      await startBotProcess(redis, scoresFile, 'scores.yaml'),
      await startBotProcess(redis, stagingFile, 'staging.yaml'),
      await startBotProcess(redis, scoresFile, 'scores.yaml'),
    ];
    closers.push(async () => void (await Promise.all(processes.map((p) => p.close()))));

    const producer = createEventProducer({ redisUrl: redis.url, prefix: redis.prefix, logger });
    closers.push(producer.close);
    const games = [alertingGame(), alertingGame()];
    const expected = games.flatMap((g) => expectedAlertIds(g, ALERTING_RULES)).sort();
    expect(expected.length).toBe(16);
    for (let i = 0; i < games[0]!.events.length; i++) {
      for (const game of games) producer.add(game.events[i]!);
    }
    await producer.flush();
    await waitFor(
      () => scores.accepted().length >= expected.length && staging.accepted().length >= expected.length,
      60_000,
      () =>
        `every alert at both receivers (scores ${scores.accepted().length}, staging ${staging.accepted().length})`,
    );
    // Anything doubled would arrive within moments of the rest.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(acceptedAlertIds(scores)).toEqual(expected);
    expect(acceptedAlertIds(staging)).toEqual(expected);
    for (const receiver of [scores, staging]) {
      const finals = acceptedAlertIds(receiver).filter((id) => id.startsWith('final_score:'));
      expect(finals).toEqual(games.map((g) => `final_score:mens:${g.gameId}:final`).sort());
    }
    const failed = openFailedDeliveries({ redisUrl: redis.url, prefix: redis.prefix });
    closers.push(failed.close);
    expect(await failed.list()).toEqual([]);
  }, 90_000);

  it('refuses a second rules file under a running bot name, naming both files', async () => {
    const file = { name: 'scores', rules: { final_score: {} } };
    const first = await startBotProcess(redis, file, '/srv/a/scores.yaml');
    closers.push(first.close);
    // The same rules again (another process of the bot) are welcome.
    const again = await startBotProcess(redis, { ...file }, '/srv/b/scores.yaml');
    closers.push(again.close);
    await expect(
      startBotProcess(redis, { ...file, rules: { run: {} } }, '/srv/c/scores.yaml'),
    ).rejects.toThrow(
      /^name: bot "scores" is already running with other rules \(\/srv\/[ab]\/scores\.yaml, pid \d+ on .+\); \/srv\/c\/scores\.yaml differs/,
    );
    // Once the bot's processes have stopped, its rules may change.
    await first.close();
    await again.close();
    const changed = await startBotProcess(redis, { ...file, rules: { run: {} } }, '/srv/c/scores.yaml');
    closers.push(changed.close);
  });

  it('a process silent for the liveness window does not hold the name', async () => {
    const client = new Redis(redis.url);
    closers.push(async () => void client.disconnect());
    let clock = Date.now();
    const old = await registerBot(client, {
      prefix: redis.prefix,
      bot: 'scores',
      fingerprint: 'aaaa',
      source: 'old.yaml',
      now: () => clock,
    });
    closers.push(old.close);
    const other = { prefix: redis.prefix, bot: 'scores', fingerprint: 'bbbb', source: 'new.yaml' };
    await expect(registerBot(client, { ...other, now: () => clock })).rejects.toThrow(/old\.yaml/);
    // A crashed process stops its heartbeat: after the liveness window its entry no longer counts.
    clock += 60_000;
    const fresh = await registerBot(client, { ...other, now: () => clock });
    closers.push(fresh.close);
  });

  it('upgrading: events and deliveries left in the shared queues by the previous version are all delivered', async () => {
    const scores = await startReceiver();
    const staging = await startReceiver();
    closers.push(scores.close, staging.close);
    // What the previous version left: events added while no worker ran, in the shared queue ...
    const producer = createEventProducer({ redisUrl: redis.url, prefix: redis.prefix, logger });
    closers.push(producer.close);
    const game = alertingGame();
    for (const event of game.events) producer.add(event);
    await producer.flush();
    // ... and a delivery for a subscriber of the second bot in the shared webhooks queue.
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const shared = new Queue<WebhookJobData>(WEBHOOKS_QUEUE, {
      connection,
      prefix: bullPrefix(redis.prefix, WEBHOOKS_QUEUE),
    });
    closers.push(async () => {
      await shared.close();
      connection.disconnect();
    });
    const key = idempotencyKey('final_score:mens:1:final', 'stage-hook');
    await shared.add(
      'final_score',
      {
        subscriberId: 'stage-hook',
        url: staging.url,
        idempotencyKey: key,
        kind: 'alert',
        payload: { kind: 'alert', id: 'final_score:mens:1:final' },
        queuedAt: new Date().toISOString(),
      },
      webhookJobOptions(key, 3, 20),
    );

    const scoresProcess = await startBotProcess(
      redis,
      { name: 'scores', ...ALERTING_RULES, subscribers: [{ id: 'hook', url: scores.url, secret: SECRET }] },
      'scores.yaml',
    );
    closers.push(scoresProcess.close);
    // The second bot starts later: the shared delivery must wait for it, not fail in the first.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const stagingProcess = await startBotProcess(
      redis,
      {
        name: 'staging',
        rules: { final_score: {} },
        subscribers: [{ id: 'stage-hook', url: staging.url, secret: SECRET }],
      },
      'staging.yaml',
    );
    closers.push(stagingProcess.close);

    const expected = expectedAlertIds(game, ALERTING_RULES);
    await waitFor(() => scores.accepted().length >= expected.length, 60_000, 'the backlog, evaluated');
    await waitFor(() => staging.accepted().length >= 1, 30_000, 'the shared delivery');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(acceptedAlertIds(scores)).toEqual(expected);
    expect(staging.accepted().map((r) => r.headers['idempotency-key'])).toEqual([key]);
    // Two worker processes and a backlog: on a loaded 2-core machine this outlasts the default 30 s.
  }, 120_000);

  it('`webhooks failed` names the bot of each failed delivery and filters by bot', async () => {
    const down = await startReceiver(() => 503);
    closers.push(down.close);
    const bot = await startBotProcess(
      redis,
      {
        name: 'scores',
        attempts: 1,
        rules: { final_score: {} },
        subscribers: [{ id: 'down', url: down.url, secret: SECRET }],
      },
      'scores.yaml',
    );
    closers.push(bot.close);
    const producer = createEventProducer({ redisUrl: redis.url, prefix: redis.prefix, logger });
    closers.push(producer.close);
    const game = alertingGame();
    for (const event of game.events) producer.add(event);
    const failed = openFailedDeliveries({ redisUrl: redis.url, prefix: redis.prefix });
    closers.push(failed.close);
    await waitFor(async () => (await failed.list()).length >= 1, 30_000, 'a failed delivery');
    const [row] = await failed.list();
    expect(row).toMatchObject({ bot: 'scores', subscriberId: 'down', attempts: 1 });
    expect(await failed.list(undefined, 'staging')).toEqual([]);
    expect((await failed.retry({ ids: [row!.id] }, 'staging')).missing).toEqual([row!.id]);
    expect((await failed.retry({ ids: [row!.id] }, 'scores')).retried).toEqual([row!.id]);
  }, 90_000);
});
