import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { silentLogger } from '../../../src/core/log.js';
import { testDaemonConfig } from '../../support/daemon-config.js';
import { createDaemon } from '../../../src/daemon/daemon.js';
import { startUpstream } from '../../../src/simulator/index.js';
import type { Alert } from '../../../workers/alerts/types.js';
import { chatRequest } from '../../../workers/destinations/index.js';
import { parseAlertsConfig, type ChatSubscriber } from '../../../workers/rules-file.js';
import { finishedSummaries, HAVE_FIXTURES, describeRecorded } from '../../support/fixtures.js';
import { getTestRedis } from '../../support/redis.js';
import { waitFor } from '../../support/wait-for.js';
import { CHAT_KINDS, FAKE_SECRETS, messageKey, startFake, type FakePlatform } from '../fakes/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
// A recorded game spans about 2.5 h of wall clock; at 1000x it plays out in about 9 s.
const SPEED = 1_000;
const redis = await getTestRedis();
const GAMES = finishedSummaries().filter((f) => !f.qualifier.includes('roundtrip'));
const dir = await mkdtemp(join(tmpdir(), 'courtside-chats-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await redis?.cleanup();
});

/** The rules file a bot author would commit: every secret from the environment. */
function rulesYaml(fakes: Record<string, { subscriber: Record<string, unknown> }>): string {
  const sub = (kind: string) => fakes[kind]!.subscriber;
  return [
    'allowPrivateAddresses: true # the fake platforms listen on loopback',
    'staleAfterSeconds: 3600',
    'subscribers:',
    '  - kind: discord',
    "    url: '${DISCORD_WEBHOOK_URL}'",
    '    minIntervalMs: 100',
    '  - kind: slack',
    "    url: '${SLACK_WEBHOOK_URL}'",
    '    minIntervalMs: 100',
    '  - kind: telegram',
    "    token: '${TELEGRAM_BOT_TOKEN}'",
    `    chatId: ${String(sub('telegram').chatId)}`,
    `    apiUrl: ${String(sub('telegram').apiUrl)}`,
    '    minIntervalMs: 100',
    '  - kind: ntfy',
    `    url: ${String(sub('ntfy').url)}`,
    '    minIntervalMs: 100',
  ].join('\n');
}

describeRecorded(!HAVE_FIXTURES || !redis || GAMES.length === 0)(`recorded games to every chat kind`, () => {
  it('daemon + `courtside worker alerts`: every alert once per kind, in order per game, platform waits kept, no secret in any log line', async () => {
    const closers: Array<() => Promise<void>> = [];
    try {
      // One answer of each platform is a 429 in its own form (a second's wait); two are slow.
      const fakes = {} as Record<string, { fake: FakePlatform; subscriber: Record<string, unknown> }>;
      for (const kind of CHAT_KINDS) {
        fakes[kind] = await startFake(kind, (req) =>
          req.n === 2
            ? { kind: 'rate-limit', retryAfterS: 1 }
            : req.n === 5 || req.n === 9
              ? { kind: 'slow', ms: 300 }
              : null,
        );
        closers.push(fakes[kind]!.fake.close);
      }
      const env = {
        DISCORD_WEBHOOK_URL: String(fakes.discord!.subscriber.url),
        SLACK_WEBHOOK_URL: String(fakes.slack!.subscriber.url),
        TELEGRAM_BOT_TOKEN: String(fakes.telegram!.subscriber.token),
      };
      const rulesFile = join(dir, 'rules.yaml');
      const yaml = rulesYaml(fakes);
      await writeFile(rulesFile, yaml);
      for (const secret of FAKE_SECRETS) expect(yaml).not.toContain(secret);
      const config = parseAlertsConfig(parseYaml(yaml), env);

      let stderr = '';
      const worker = spawn(
        TSX,
        [
          join(ROOT, 'src', 'cli.ts'),
          'worker',
          'alerts',
          '--rules',
          rulesFile,
          '--redis',
          redis!.url,
          '--prefix',
          redis!.prefix,
        ],
        { cwd: ROOT, env: { ...process.env, ...env, LOG_LEVEL: 'debug' } },
      );
      worker.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      worker.stdout.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((done) => worker.on('exit', (code) => done(code)));
      closers.push(async () => {
        if (worker.exitCode === null) worker.kill('SIGKILL');
      });
      await waitFor(
        () => stderr.includes('courtside worker alerts running'),
        30_000,
        () => `the worker\n${stderr}`,
      );

      const upstream = await startUpstream({
        replay: GAMES.map((g) => g.file),
        speed: SPEED,
        logger: silentLogger,
      });
      closers.push(() => upstream.close());
      const daemon = createDaemon(
        testDaemonConfig(upstream.url, {
          leagues: [...new Set(GAMES.map((g) => g.league))].join(','),
          redis: redis!.url,
          prefix: redis!.prefix,
        }),
        { logger: silentLogger },
      );
      closers.push(() => daemon.close());
      await daemon.start();

      const reader = new Redis(redis!.url);
      closers.push(async () => reader.disconnect());
      const fired = async (): Promise<Alert[]> =>
        (await reader.lrange(`${redis!.prefix}bot:rules:alerts`, 0, -1))
          .map((a) => JSON.parse(a) as Alert)
          .reverse();
      await waitFor(
        async () => (await fired()).filter((a) => a.rule === 'final_score').length === GAMES.length,
        120_000,
        'a final score per game',
      );
      const alerts = await fired();
      expect(new Set(alerts.map((a) => a.gameId)).size).toBe(GAMES.length);
      // More than the final scores: the games' lead changes, runs and the rest.
      expect(alerts.length).toBeGreaterThan(GAMES.length * 2);
      expect(new Set(alerts.map((a) => a.league))).toEqual(new Set(GAMES.map((g) => g.league)));
      // Colours come from the games' snapshots on the bus.
      for (const a of alerts) expect(a.colors?.home && a.colors.away).toMatch(/^[0-9a-f]{6}$/);

      for (const [i, kind] of CHAT_KINDS.entries()) {
        const { fake } = fakes[kind]!;
        await waitFor(
          () => fake.delivered().length >= alerts.length,
          120_000,
          () => `${kind}: ${fake.delivered().length} of ${alerts.length}\n${stderr.slice(-2000)}`,
        );
        const sub = config.subscribers[i] as ChatSubscriber;
        const expected = alerts.map((a) => ({
          game: a.gameId,
          key: messageKey(kind, chatRequest(sub, a).headers, chatRequest(sub, a).body),
        }));
        const gameOf = new Map(expected.map((e) => [e.key, e.game]));
        const delivered = fake.delivered().map((r) => messageKey(kind, r.headers, r.body));
        // Exactly once each.
        expect([...delivered].sort(), kind).toEqual(expected.map((e) => e.key).sort());
        // In order per game.
        for (const game of new Set(alerts.map((a) => a.gameId))) {
          expect(
            delivered.filter((k) => gameOf.get(k) === game),
            `${kind} ${game}`,
          ).toEqual(expected.filter((e) => e.game === game).map((e) => e.key));
        }
        // The one 429 was waited out for the platform's second; Discord's pacing tripped nothing else.
        const limited = fake.requests.filter((r) => r.status === 429);
        expect(
          limited.map((r) => r.n),
          kind,
        ).toEqual([2]);
        expect(fake.requests[3]!.at - fake.requests[2]!.at, kind).toBeGreaterThanOrEqual(990);
      }

      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
      // The whole run's logs, at debug: the rate limits are in them, the secrets are not.
      expect(stderr).toContain('chat destination rate limited');
      for (const secret of FAKE_SECRETS) expect(stderr).not.toContain(secret);
    } finally {
      for (const close of closers.reverse()) await close().catch(() => undefined);
    }
  }, 240_000);
});
