import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { getTestRedis } from '../support/redis.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const dir = await mkdtemp(join(tmpdir(), 'courtside-worker-cli-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const redis = await getTestRedis();
afterAll(async () => redis?.cleanup());

/** Runs `courtside <args>` as a real process; kills it after `killAfterMs` if it is still running. */
function courtside(args: string[], env: Record<string, string> = {}, killAfterMs = 60_000) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(TSX, [join(ROOT, 'src', 'cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    let signalled = false;
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      // Once, as a supervisor does: a second signal means "exit now" (test/cli/shutdown.test.ts).
      if (!signalled && stderr.includes('courtside worker alerts running')) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe('courtside worker / webhooks commands', () => {
  it('refuses a rules file with a bad field, naming it, and exits 2', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'rules:\n  close_game:\n    margin: -3\n');
    const run = await courtside(['worker', 'alerts', '--rules', file, '--redis', 'redis://127.0.0.1:1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('rules.close_game.margin: expected a positive integer');
  });

  it('parses --redis as serve does: a wrong Sentinel URL or an untagged Cluster prefix, named, exit 2', async () => {
    const sentinel = await courtside(['worker', 'alerts', '--redis', 'redis+sentinel://127.0.0.1:26379']);
    expect(sentinel.code).toBe(2);
    expect(sentinel.stderr).toContain(
      '--redis: Redis URL redis+sentinel://127.0.0.1:26379: master name: missing',
    );
    const cluster = await courtside(['webhooks', 'failed'], {
      REDIS_URL: 'redis+cluster://127.0.0.1:1',
      COURTSIDE_PREFIX: 'cs:',
    });
    expect(cluster.code).toBe(2);
    expect(cluster.stderr).toContain('COURTSIDE_PREFIX: prefix "cs:" has no {hash tag}');
  });

  it('refuses a chat subscriber of an unknown kind, without its chat id, or with an unset variable, before any delivery', async () => {
    const cases: Array<[string, string, Record<string, string>]> = [
      [
        'subscribers:\n  - kind: teams\n    url: https://example.com/x\n',
        'subscribers.0.kind: expected one of webhook, discord, slack, telegram, ntfy',
        {},
      ],
      [
        "subscribers:\n  - kind: telegram\n    token: '${TELEGRAM_BOT_TOKEN}'\n",
        'subscribers.0.chatId: missing: the chat to post to',
        { TELEGRAM_BOT_TOKEN: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' },
      ],
      [
        "subscribers:\n  - kind: discord\n    url: '${DISCORD_WEBHOOK_URL}'\n",
        'subscribers.0.url: environment variable DISCORD_WEBHOOK_URL is not set',
        {},
      ],
      [
        'subscribers:\n  - kind: discord\n    url: https://discord.com/channels/1/2\n',
        'subscribers.0.url: expected a Discord webhook URL',
        {},
      ],
    ];
    for (const [i, [yaml, message, env]] of cases.entries()) {
      const file = join(dir, `chat-${i}.yaml`);
      await writeFile(file, yaml);
      // An unreachable Redis: the rules file is refused before the worker connects to anything.
      const run = await courtside(
        ['worker', 'alerts', '--rules', file, '--redis', 'redis://127.0.0.1:1'],
        env,
      );
      expect(run.code, yaml).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toContain('AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw');
    }
  });

  it.skipIf(!redis)('starts with a valid rules file and stops cleanly on SIGTERM', async () => {
    const file = join(dir, 'ok.json');
    await writeFile(file, JSON.stringify({ rules: { final_score: {} } }));
    const run = await courtside([
      'worker',
      'alerts',
      '--rules',
      file,
      '--redis',
      redis!.url,
      '--prefix',
      redis!.prefix,
    ]);
    expect(run.stderr).toContain('courtside worker alerts running');
    expect(run.code).toBe(0);
  });

  it.skipIf(!redis)('lists an empty failed set', async () => {
    const run = await courtside(['webhooks', 'failed', '--redis', redis!.url, '--prefix', redis!.prefix]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no failed deliveries');
  });
});
