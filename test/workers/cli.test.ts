import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { getTestRedis } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';

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
        'subscribers.0.kind: expected one of webhook, discord, slack, telegram, ntfy, mqtt',
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

  it.skipIf(!redis)(
    'starts with a valid rules file (a loopback subscriber too, when private addresses are allowed) and stops cleanly on SIGTERM',
    async () => {
      const files = {
        'ok.json': JSON.stringify({ rules: { final_score: {} } }),
        'private-ok.yaml':
          'allowPrivateAddresses: true\nsubscribers:\n  - { id: local-bot, url: http://127.0.0.1:9/hook, secret: test-secret-0123456789 }\n',
      };
      for (const [name, text] of Object.entries(files)) {
        const file = join(dir, name);
        await writeFile(file, text);
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
        expect(run.stderr, name).toContain('courtside worker alerts running');
        expect(run.code, name).toBe(0);
      }
    },
  );

  it('refuses a subscriber whose address the SSRF guard refuses, naming it and the address, and exits 2', async () => {
    const cases: Array<[string, string]> = [
      [
        'subscribers:\n  - id: local-bot\n    url: http://127.0.0.1:9/hook\n    secret: test-secret-0123456789\n',
        'subscribers.0.url: subscriber local-bot: 127.0.0.1 resolves to 127.0.0.1, a private or special-use address (for a receiver on your own network, set allowPrivateAddresses: true)',
      ],
      [
        "subscribers:\n  - { kind: ntfy, url: 'https://ntfy.sh/ok' }\n  - { id: meta, kind: ntfy, url: 'http://[::ffff:169.254.169.254]/topic' }\n",
        // The URL parser writes the mapped address in hex: it is still the cloud metadata address.
        'subscribers.1.url: subscriber meta: ::ffff:a9fe:a9fe resolves to ::ffff:a9fe:a9fe, a private or special-use address',
      ],
    ];
    for (const [i, [yaml, message]] of cases.entries()) {
      const file = join(dir, `guard-${i}.yaml`);
      await writeFile(file, yaml);
      const run = await courtside(['worker', 'alerts', '--rules', file, '--redis', 'redis://127.0.0.1:1']);
      expect(run.code, yaml).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });

  it.skipIf(!redis)(
    'refuses a second, different rules file under the name of a running bot, naming both files',
    async () => {
      const first = join(dir, 'one', 'scores.yaml');
      const second = join(dir, 'two', 'scores.yaml');
      await mkdir(dirname(first), { recursive: true });
      await mkdir(dirname(second), { recursive: true });
      await writeFile(first, 'rules: { final_score: {} }\n');
      await writeFile(second, 'rules: { run: {} }\n');
      const flags = ['--redis', redis!.url, '--prefix', `${redis!.prefix}conflict:`];
      const running = spawn(
        TSX,
        [join(ROOT, 'src', 'cli.ts'), 'worker', 'alerts', '--rules', first, ...flags],
        {
          cwd: ROOT,
          env: { ...process.env, LOG_LEVEL: 'info' },
        },
      );
      try {
        let stderr = '';
        running.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        await waitFor(
          () => stderr.includes('courtside worker alerts running'),
          30_000,
          () => stderr,
        );
        const run = await courtside(['worker', 'alerts', '--rules', second, ...flags]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(
          `courtside worker alerts: name: bot "scores" is already running with other rules (${first}, pid `,
        );
        expect(run.stderr).toContain(`${second} differs`);
      } finally {
        // SIGTERM: tsx passes it on to the node process it started (SIGKILL would orphan that one).
        const exited = new Promise((done) => running.once('exit', done));
        running.kill('SIGTERM');
        await exited;
      }
    },
  );

  it.skipIf(!redis)('lists an empty failed set', async () => {
    const run = await courtside(['webhooks', 'failed', '--redis', redis!.url, '--prefix', redis!.prefix]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no failed deliveries');
  });
});
