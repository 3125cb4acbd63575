import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseAlertsConfig } from '../workers/rules-file.js';
import { deliverWebhook } from '../workers/webhooks/deliver.js';
import { DEFAULT_LEAGUES } from '../src/core/leagues.js';
import { checkOverlayQuery } from '../src/server/overlay-params.js';
import { FIXTURES_DIR, HAVE_FIXTURES, describeRecorded, itRecorded } from './support/fixtures.js';
import { getTestRedis } from './support/redis.js';
import { startNodeFlags } from './support/start-flags.js';
import { waitFor } from './support/wait-for.js';
import { MENS_FINAL, ROOT, runCli, runProcess, startStack, type CliRun, type Stack } from './cli/harness.js';

/**
 * Every command and code example in README.md is exercised: code blocks equal the files under
 * examples/, the examples and commands run against a real daemon and simulator (the README's
 * `localhost:8080` replaced by the test daemon's address), and a command this file does not run
 * is mapped in COMMANDS to the test that does. A command added to the README without an entry
 * fails the table test.
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PYTHON = '/usr/bin/python3';
const README_HOST = 'localhost:8080';
const README_SIMULATOR = 'http://localhost:9100';
// `npm run demo` plays synthetic games of seed 7; the README's examples use its first game.
const DEMO_SEED = 7;
const DEMO_GAME = '900007000';
const execFileAsync = promisify(execFile);

type Where = { here: string } | { file: string; contains: string };

/** Each shell command of the README (as written, `&` and comments dropped) → where it runs. */
const COMMANDS: Record<string, Where[]> = {
  'npm ci && npm start': [
    // `npm ci` is how CI installs; `npm start` is `build` + `serve`.
    { file: '.ci/run', contains: 'npm ci' },
    { here: 'npm run demo builds and runs from dist/' },
    { file: 'test/cli/serve.test.ts', contains: 'exits 0 within 5 s of SIGTERM' },
  ],
  'npm test': [{ file: '.ci/run', contains: 'npm test' }],
  'npm run test:integration': [
    { file: '.ci/run', contains: 'npm run test:integration' },
    {
      file: 'package.json',
      contains: '"test:integration": "vitest run --project integration"',
    },
    { file: 'test/scripts/suites.test.ts', contains: 'npm test takes every other test file' },
  ],
  'npx courtside record --out ../recordings': [
    {
      file: 'test/cli/record.test.ts',
      contains: 'writes a payload for every operation, laid out as the simulator serves them',
    },
  ],
  'COURTSIDE_FIXTURES=../recordings npm test': [
    { file: 'test/support/fixtures.ts', contains: 'process.env.COURTSIDE_FIXTURES' },
    {
      file: 'test/cli/record.test.ts',
      contains: 'a second simulator started on the recorded folder serves the same payloads back',
    },
  ],
  'npm run demo': [{ here: 'npm run demo builds and runs from dist/' }],
  'npm run test:reliability': [
    {
      file: 'package.json',
      contains: '"test:reliability": "vitest run --config vitest.reliability.config.ts"',
    },
    { file: 'test/reliability/soak.long.test.ts', contains: 'an evening with every fault' },
  ],
  'npx courtside watch --url http://localhost:8080 --league mens': [{ here: 'courtside watch as written' }],
  'npx courtside op mens_summary --event-id 401585607 --format raw --out game.json': [
    { here: 'op --out game.json, then demo --replay game.json' },
  ],
  'npx courtside op mens_college_rankings --format csv': [
    { file: 'test/cli/college-ops.test.ts', contains: "runs the README's college commands as written" },
  ],
  'npx courtside op womens_college_scoreboard --dates 20250112 --groups 50 --format json': [
    { file: 'test/cli/college-ops.test.ts', contains: "runs the README's college commands as written" },
  ],
  'npx courtside demo --replay game.json': [{ here: 'op --out game.json, then demo --replay game.json' }],
  'node examples/subscribe.mjs ws://localhost:8080/v1/stream': [
    { here: 'the JavaScript example prints events' },
  ],
  'python3 examples/subscribe.py ws://localhost:8080/v1/stream': [
    { here: 'the Python example prints score changes' },
  ],
  'npx courtside upstream --simulate 4 --speed 20 --port 9100': [
    { here: 'the offline simulator of the alert bot and several instances' },
  ],
  'REDIS_URL=redis://localhost:6379/5 npx courtside serve --upstream http://localhost:9100': [
    { here: 'the alert bot: serve, receiver and worker' },
  ],
  'COURTSIDE_SECRET=change-me-to-a-long-random-secret node examples/webhook-receiver.mjs': [
    { here: 'the webhook receiver accepts signed deliveries and refuses others' },
    { here: 'the alert bot: serve, receiver and worker' },
  ],
  'REDIS_URL=redis://localhost:6379/5 npx courtside worker alerts --rules examples/rules.yaml': [
    { here: 'the alert bot: serve, receiver and worker' },
  ],
  'REDIS_URL=redis://localhost:6379/5 npx courtside serve': [
    { here: 'the alert bot: serve, receiver and worker' },
    { file: 'test/cli/serve.test.ts', contains: 'exits 0 within 5 s of SIGTERM' },
  ],
  'DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/<id>/<token> REDIS_URL=redis://localhost:6379/5 npx courtside worker alerts --rules examples/discord-bot.yaml':
    [
      {
        file: 'test/workers/destinations/config.test.ts',
        contains: 'examples/discord-bot.yaml: final scores of one team to a Discord channel',
      },
      {
        file: 'test/workers/destinations/chat-delivery.test.ts',
        contains: 'examples/discord-bot.yaml as committed',
      },
      {
        file: 'test/workers/destinations/recorded-games.test.ts',
        contains: 'daemon + `courtside worker alerts`: every alert once per kind',
      },
    ],
  'curl http://localhost:8080/v1/games/live': [{ here: 'the curl commands succeed' }],
  "curl 'http://localhost:8080/v1/ops/mens_scoreboard?dates=20241201&format=csv'": [
    { here: 'the curl commands succeed' },
  ],
  "curl -o plays.arrow 'http://localhost:8080/v1/ops/mens_summary?event_id=900007000&table=plays&format=arrow'":
    [{ here: 'the curl commands succeed' }],
  'curl http://localhost:8080/healthz': [{ here: 'the curl commands succeed' }],
  'npx courtside op mens_scoreboard --dates 20241201 --format csv': [{ here: 'courtside op as written' }],
  'python3 examples/read_arrow.py': [{ here: 'the polars example reads the Arrow stream' }],
  'REDIS_URL=redis://localhost:6379/5 PORT=8081 npx courtside serve --upstream http://localhost:9100': [
    {
      here: 'several instances on one Redis, offline as written: each game pushed by one, on standby at the other',
    },
    { file: 'test/streams/engine-redis.test.ts', contains: 'polls each game from one instance' },
    { file: 'test/server/gateway-resume.test.ts', contains: 'on either of two instances' },
  ],
  'REDIS_URL=redis://localhost:6379/5 PORT=8082 npx courtside serve --upstream http://localhost:9100': [
    {
      here: 'several instances on one Redis, offline as written: each game pushed by one, on standby at the other',
    },
    { file: 'test/streams/engine-redis.test.ts', contains: 'polls each game from one instance' },
  ],
  'docker compose up --build': [
    { here: 'docker-compose.yml: services, commands, env and the mounted rules file' },
  ],
};

interface Block {
  lang: string;
  body: string;
}

function codeBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] ?? '',
    body: (m[2] ?? '').replace(/\n$/, ''),
  }));
}

/** The shell commands of the README's `sh` blocks, comments and trailing `&` removed. */
function readmeCommands(): string[] {
  return codeBlocks(README)
    .filter((b) => b.lang === 'sh')
    .flatMap((b) => b.body.split('\n'))
    .map((line) =>
      line
        .replace(/\s+#.*$/, '')
        .replace(/\s*&$/, '')
        .trim(),
    )
    .filter((line) => line && !line.startsWith('#'));
}

/** Splits a README command into env assignments and argv (the README's commands use no quoting but '...'). */
function parseCommand(command: string): { env: Record<string, string>; argv: string[] } {
  const words = [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_]+=/.test(words[0])) {
    const [key = '', ...value] = (words.shift() ?? '').split('=');
    env[key] = value.join('=');
  }
  return { env, argv: words };
}

function command(text: string): string {
  const found = readmeCommands().find((c) => c === text);
  if (!found) throw new Error(`the README no longer has the command: ${text}`);
  return found;
}

const pythonHas = (module: string): boolean =>
  existsSync(PYTHON) && spawnSync(PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
const HAVE_WEBSOCKETS = pythonHas('websockets');
const HAVE_POLARS = pythonHas('polars');

describe('README.md', () => {
  it('keeps the install-and-run command and both suites first', () => {
    expect(README.split('\n').slice(0, 7).join('\n')).toBe(
      [
        '# courtside',
        '',
        '```sh',
        'npm ci && npm start        # install, build and run the daemon (http://localhost:8080)',
        'npm test                   # the fast suite: units, contracts, in-process integration',
        'npm run test:integration   # processes, browsers, Redis topologies, soak, real-time replays',
        '```',
      ].join('\n'),
    );
  });

  it('includes every example file verbatim, and every code example is one of them', () => {
    const files = readdirSync(join(ROOT, 'examples')).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'read_arrow.py',
        'rules.yaml',
        'subscribe.mjs',
        'subscribe.py',
        'webhook-receiver.mjs',
      ]),
    );
    const bodies = files.map((f) => readFileSync(join(ROOT, 'examples', f), 'utf8').replace(/\n$/, ''));
    const blocks = codeBlocks(README);
    for (const [i, body] of bodies.entries()) {
      expect(
        blocks.some((b) => b.body === body),
        `examples/${files[i]} in the README verbatim`,
      ).toBe(true);
    }
    for (const block of blocks.filter((b) => ['js', 'python', 'yaml', 'ts', 'json'].includes(b.lang))) {
      expect(bodies, `a ${block.lang} block of the README is not a file under examples/`).toContain(
        block.body,
      );
    }
  });

  it('links every document in docs/', () => {
    for (const doc of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      expect(README, `a link to docs/${doc}`).toContain(`](docs/${doc})`);
    }
  });

  it('maps every command to the test that runs it', () => {
    const commands = readmeCommands();
    const unknown = commands.filter((c) => !(c in COMMANDS));
    expect(unknown, 'README commands with no entry in COMMANDS').toEqual([]);
    const stale = Object.keys(COMMANDS).filter((c) => !commands.includes(c));
    expect(stale, 'COMMANDS entries the README no longer has').toEqual([]);
    const here = readFileSync(join(ROOT, 'test', 'readme.test.ts'), 'utf8');
    for (const [cmd, places] of Object.entries(COMMANDS)) {
      for (const where of places) {
        if ('here' in where)
          expect(here, `${cmd}: a test named "${where.here}"`).toContain(`'${where.here}'`);
        else
          expect(readFileSync(join(ROOT, where.file), 'utf8'), `${cmd}: ${where.file}`).toContain(
            where.contains,
          );
      }
    }
  });

  it('the overlay URL uses the parameters the page reads', () => {
    const url = codeBlocks(README).find((b) => b.lang === '' && b.body.includes('/overlay/'))?.body ?? '';
    const parsed = new URL(url);
    expect(parsed.pathname).toMatch(/^\/overlay\/(mens|womens)\/(\d+|live)$/);
    // The server refuses a scorebug URL with an unknown or malformed parameter (HTTP 400).
    expect(() => checkOverlayQuery('scorebug', parsed.searchParams)).not.toThrow();
    expect(parsed.searchParams.size).toBeGreaterThan(0);
  });

  it('docker-compose.yml: services, commands, env and the mounted rules file', () => {
    const compose = parseYaml(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<
        string,
        {
          image?: string;
          build?: string;
          command?: string[];
          environment?: Record<string, string>;
          volumes?: string[];
          ports?: string[];
          depends_on?: Record<string, { condition: string }>;
          profiles?: string[];
        }
      >;
    };
    const { redis, courtside, alerts } = compose.services;
    // Without a profile: these three; `--profile observability` adds Prometheus and Grafana
    // (test/deploy/deploy.test.ts checks those).
    const base = Object.entries(compose.services).filter(([, service]) => !service.profiles);
    expect(base.map(([name]) => name).sort()).toEqual(['alerts', 'courtside', 'redis']);
    expect(redis?.image).toMatch(/^redis:/);
    // The image's entrypoint is the CLI, with the Node flags of `npm start` (the heap limit); the
    // commands must be ones it has.
    const nodeFlags = startNodeFlags();
    expect(nodeFlags).toContain('--max-old-space-size=512');
    const entrypoint = ['node', ...nodeFlags, 'dist/src/cli.js'];
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toContain(
      `ENTRYPOINT ["${entrypoint.join('", "')}"]`,
    );
    expect(courtside?.command).toEqual(['serve']);
    expect(courtside?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(courtside?.ports).toContain('8080:8080');
    expect(alerts?.command?.slice(0, 2)).toEqual(['worker', 'alerts']);
    expect(alerts?.environment?.REDIS_URL).toBe('redis://redis:6379');
    for (const service of [courtside, alerts])
      expect(service?.depends_on?.redis?.condition).toBe('service_healthy');
    // The rules file the worker is given is the one mounted, and it exists and validates.
    const rulesArg = alerts?.command?.[alerts.command.indexOf('--rules') + 1] ?? '';
    const mount = alerts?.volumes?.map((v) => v.split(':')).find(([, inside]) => inside === rulesArg);
    expect(mount?.[0]).toBe('./examples/rules.yaml');
    // The daemon's lower thirds read the same file (its rules part).
    expect(courtside?.environment?.COURTSIDE_RULES).toBe(rulesArg);
    expect(courtside?.volumes).toEqual(alerts?.volumes);
    const rules = parseAlertsConfig(parseYaml(readFileSync(join(ROOT, mount?.[0] ?? ''), 'utf8')));
    expect(rules.subscribers.length).toBeGreaterThan(0);
    expect(rules.leagues).toEqual([...DEFAULT_LEAGUES]);
    // The CLI of the image has these commands and flags.
    for (const args of [
      ['serve', '--help'],
      ['worker', 'alerts', '--help'],
    ]) {
      const help = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
        cwd: ROOT,
      }).toString();
      expect(help).toContain('--rules <file>');
      expect(help).toContain('REDIS_URL');
    }
  }, 60_000);
});

describeRecorded(!HAVE_FIXTURES || !MENS_FINAL)(`README examples against a daemon`, () => {
  let stack: Stack;
  let host: string;
  let tmp: string;
  const runs: CliRun[] = [];
  /** The README's command with the test daemon's address instead of localhost:8080. */
  const local = (text: string): string => command(text).replaceAll(README_HOST, host);

  beforeAll(async () => {
    // The recorded payloads, the game replayed live, and the demo's first synthetic game (seed 7),
    // whose id the README's examples use so that they work against `npm run demo` offline.
    stack = await startStack({
      fixturesDir: FIXTURES_DIR,
      replay: [MENS_FINAL?.file ?? ''],
      simulate: { games: 1, seed: DEMO_SEED, leagues: ['mens'] },
      speed: 60,
    });
    host = new URL(stack.daemon.url).host;
    tmp = mkdtempSync(join(tmpdir(), 'courtside-readme-'));
    // The live game is polled before the examples connect.
    await waitFor(
      async () =>
        ((await (await fetch(`${stack.daemon.url}/v1/games/live`)).json()) as { games: unknown[] }).games
          .length > 0,
      30_000,
      'the replayed game to be live',
    );
    // The examples read the synthetic game's plays: wait for its first basket.
    await waitFor(
      async () => {
        const res = await fetch(
          `${stack.daemon.url}/v1/ops/mens_summary?event_id=${DEMO_GAME}&table=plays&format=json`,
        );
        return res.ok && ((await res.json()) as Array<{ scoring_play: boolean }>).some((p) => p.scoring_play);
      },
      30_000,
      `a scoring play in game ${DEMO_GAME}`,
    );
  }, 60_000);
  afterAll(async () => {
    for (const r of runs) r.kill();
    await stack?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const start = (text: string, env: NodeJS.ProcessEnv = {}): CliRun => {
    const { env: given, argv } = parseCommand(text);
    const [program = '', ...args] = argv;
    const run =
      program === 'npx' && args[0] === 'courtside'
        ? runCli(args.slice(1), { ...given, ...env })
        : runProcess(program === 'python3' ? PYTHON : program === 'node' ? process.execPath : program, args, {
            ...given,
            ...env,
          });
    runs.push(run);
    return run;
  };

  it('the JavaScript example prints events', async () => {
    const run = start(local('node examples/subscribe.mjs ws://localhost:8080/v1/stream'));
    await run.waitForStdout(/^now: [A-Z]+ \d+ - [A-Z]+ \d+$/m);
    await run.waitForStdout(/^play\.added \d+ \S.*\n(.*\n)*play\.added \d+ \S/m);
    run.kill();
  }, 60_000);

  it.skipIf(!HAVE_WEBSOCKETS)(
    `the Python example prints score changes${HAVE_WEBSOCKETS ? '' : ` (skipped: ${PYTHON} cannot import websockets; apt-get install python3-websockets)`}`,
    async () => {
      const run = start(local('python3 examples/subscribe.py ws://localhost:8080/v1/stream'));
      await run.waitForStdout(/^[A-Z]+ \d+ - [A-Z]+ \d+ \([^)]+\)$/m, 60_000);
      run.kill();
    },
    90_000,
  );

  it('the curl commands succeed', async () => {
    const curls = readmeCommands().filter((c) => c.startsWith('curl '));
    expect(curls.length).toBeGreaterThanOrEqual(4);
    const outputs = new Map<string, string>();
    for (const curl of curls) {
      // --fail: an HTTP error is a failed command, as a user would see it.
      const cmd = curl.replaceAll(README_HOST, host).replace(/^curl /, 'curl --fail --silent --show-error ');
      // Asynchronously: the daemon answering it runs in this process.
      const { stdout } = await execFileAsync('sh', ['-c', cmd], {
        cwd: tmp,
        timeout: 30_000,
        encoding: 'buffer',
      });
      outputs.set(curl, stdout.toString());
    }
    const live = JSON.parse(outputs.get(command('curl http://localhost:8080/v1/games/live')) ?? '') as {
      games: Array<{ gameId: string }>;
    };
    expect(live.games.map((g) => g.gameId)).toContain(stack.upstream.games[0]?.id);
    const csv =
      outputs.get(command("curl 'http://localhost:8080/v1/ops/mens_scoreboard?dates=20241201&format=csv'")) ??
      '';
    expect(csv.split('\n')[0]).toMatch(/(^|,)game_id(,|$)/);
    expect(csv.trim().split('\n').length).toBeGreaterThan(1);
    expect(JSON.parse(outputs.get(command('curl http://localhost:8080/healthz')) ?? '')).toHaveProperty(
      'status',
    );
    // The Arrow file the polars example reads: an IPC stream of the plays table.
    const plays = tableFromIPC(readFileSync(join(tmp, 'plays.arrow')));
    expect(plays.numRows).toBeGreaterThan(0);
    for (const column of [
      'period_number',
      'clock_display_value',
      'away_score',
      'home_score',
      'text',
      'scoring_play',
    ])
      expect(plays.schema.fields.map((f) => f.name)).toContain(column);
  }, 60_000);

  it(`the polars example reads the Arrow stream${HAVE_POLARS ? '' : ' (run skipped: polars is not installed for /usr/bin/python3 and PyPI is unreachable here; the stream it reads is checked with apache-arrow)'}`, async () => {
    const url = `http://${host}/v1/ops/mens_summary?event_id=${DEMO_GAME}&table=plays&format=arrow`;
    // The URL the example reads by default is the README's, on the README's port.
    expect(readFileSync(join(ROOT, 'examples', 'read_arrow.py'), 'utf8')).toContain(
      url.replace(host, README_HOST),
    );
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream');
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    const scoring = table.getChild('scoring_play')?.toArray() as ArrayLike<boolean | null> | undefined;
    expect(Array.from(scoring ?? []).some(Boolean)).toBe(true);
    if (!HAVE_POLARS) {
      console.warn('[skip] examples/read_arrow.py not run: polars is not importable by /usr/bin/python3');
      return;
    }
    // As in the README, with the test daemon's URL as the argument the example takes.
    const { argv } = parseCommand(command('python3 examples/read_arrow.py'));
    const real = runProcess(PYTHON, [...argv.slice(1), url]);
    runs.push(real);
    expect((await real.exited).code, real.stderr()).toBe(0);
    expect(real.stdout()).toMatch(/\d+ plays, \d+ scoring/);
  }, 60_000);

  it('courtside watch as written', async () => {
    const run = start(local('npx courtside watch --url http://localhost:8080 --league mens'));
    await run.waitForStdout(/^\[(1st|2nd|3rd|4th|OT)[^\]]*\] [A-Z]+ \d+-\d+ [A-Z]+ {2}\S/m, 60_000);
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
  }, 90_000);

  it('courtside op as written', async () => {
    const run = start(command('npx courtside op mens_scoreboard --dates 20241201 --format csv'), {
      COURTSIDE_UPSTREAM: stack.upstream.url,
    });
    expect((await run.exited).code, run.stderr()).toBe(0);
    expect(run.stdout().split('\n')[0]).toMatch(/(^|,)game_id(,|$)/);
  }, 60_000);

  it('op --out game.json, then demo --replay game.json', async () => {
    const game = join(tmp, 'game.json');
    const op = start(
      command('npx courtside op mens_summary --event-id 401585607 --format raw --out game.json').replace(
        'game.json',
        game,
      ),
      {
        COURTSIDE_UPSTREAM: stack.upstream.url,
      },
    );
    expect((await op.exited).code, op.stderr()).toBe(0);
    expect((JSON.parse(readFileSync(game, 'utf8')) as { header: { id: string } }).header.id).toBe(
      '401585607',
    );
    // The file is the summary as the upstream has it now: a replay needs a finished game.
    writeFileSync(game, readFileSync(MENS_FINAL?.file ?? ''));
    const demo = start(
      `${command('npx courtside demo --replay game.json').replace('game.json', game)} --port 0`,
    );
    const [, base = ''] = await demo.waitForStdout(/^daemon at (http:\/\/\S+)$/m);
    const [, overlay = ''] = await demo.waitForStdout(/^overlay: (\S+\/overlay\/mens\/401585607)$/m);
    expect((await fetch(overlay)).status).toBe(200);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    demo.child.kill('SIGTERM');
    expect((await demo.exited).code).toBe(0);
  }, 90_000);

  it('the webhook receiver accepts signed deliveries and refuses others', async () => {
    const receiverCmd = command(
      'COURTSIDE_SECRET=change-me-to-a-long-random-secret node examples/webhook-receiver.mjs',
    );
    const receiver = start(receiverCmd, { PORT: '0' });
    const [, url = ''] = await receiver.waitForStdout(/webhook receiver on (http:\/\/localhost:\d+)/);
    const secret = parseCommand(receiverCmd).env.COURTSIDE_SECRET ?? '';
    const body = JSON.stringify({
      kind: 'alert',
      id: 'final_score:mens:1:final',
      text: 'Final: TOR 96 - ORL 98',
    });
    // The worker's own delivery code signs it, so the receiver and the worker agree on the scheme.
    const delivered = await deliverWebhook({
      url: `${url}/courtside`,
      secret,
      body,
      idempotencyKey: 'final_score:mens:1:final@local-bot',
      timeoutMs: 5_000,
      allowPrivateAddresses: true,
    });
    expect(delivered.status).toBe(204);
    await receiver.waitForStdout(/^Final: TOR 96 - ORL 98$/m);
    // The same key again (a retry) is accepted and not printed twice.
    await deliverWebhook({
      url: `${url}/courtside`,
      secret,
      body,
      idempotencyKey: 'final_score:mens:1:final@local-bot',
      timeoutMs: 5_000,
      allowPrivateAddresses: true,
    });
    // A wrong secret, and no signature at all, are refused.
    await expect(
      deliverWebhook({
        url: `${url}/courtside`,
        secret: 'another-secret-of-enough-length',
        body,
        idempotencyKey: 'x@y',
        timeoutMs: 5_000,
        allowPrivateAddresses: true,
      }),
    ).rejects.toThrow(/401/);
    expect((await fetch(`${url}/courtside`, { method: 'POST', body })).status).toBe(401);
    expect(receiver.stdout().match(/^Final: TOR 96 - ORL 98$/gm)).toHaveLength(1);
  }, 60_000);
});

// Resolved once per file; the alert bot test is skipped, saying why, when no Redis answers.
const redis = await getTestRedis();

describe('README alert bot with Redis', () => {
  const runs: CliRun[] = [];
  let stack: Stack | undefined;
  afterAll(async () => {
    for (const r of runs) r.kill();
    await stack?.close();
    await redis?.cleanup();
  });

  itRecorded(!redis || !MENS_FINAL)(
    `the alert bot: serve, receiver and worker${redis ? '' : ' (skipped: no Redis; set REDIS_URL)'}`,
    async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'courtside-bot-'));
      // A replayed game at 1000x: it ends within ~10 s of its start, and final_score fires. Its
      // clock stands still until `serve` listens: three processes starting from source can take
      // longer than the whole game on a busy machine, and a game over before serve polled it is
      // never pushed.
      const origin = Date.now();
      let playingSince: number | null = null;
      const clock = { now: () => (playingSince === null ? origin : origin + Date.now() - playingSince) };
      stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 1_000, clock });
      const env = {
        REDIS_URL: redis?.url ?? '',
        COURTSIDE_PREFIX: redis?.prefix ?? '',
        COURTSIDE_UPSTREAM: stack.upstream.url,
        COURTSIDE_SUMMARY_INTERVAL_MS: '1000',
      };
      const lines = readmeCommands();
      const [serveCmd, receiverCmd, workerCmd] = [
        'REDIS_URL=redis://localhost:6379/5 npx courtside serve --upstream http://localhost:9100',
        'COURTSIDE_SECRET=change-me-to-a-long-random-secret node examples/webhook-receiver.mjs',
        'REDIS_URL=redis://localhost:6379/5 npx courtside worker alerts --rules examples/rules.yaml',
      ].map((c) => {
        expect(lines).toContain(c);
        return parseCommand(c);
      });
      const spawnFrom = (
        c: { env: Record<string, string>; argv: string[] },
        extra: NodeJS.ProcessEnv,
      ): CliRun => {
        const [program = '', ...args] = c.argv;
        const run =
          program === 'npx'
            ? runCli(args.slice(1), { ...c.env, ...extra })
            : runProcess(process.execPath, args, { ...c.env, ...extra });
        runs.push(run);
        return run;
      };
      const receiver = spawnFrom(receiverCmd as { env: Record<string, string>; argv: string[] }, {
        PORT: '0',
      });
      const [, receiverUrl = ''] = await receiver.waitForStdout(
        /webhook receiver on (http:\/\/localhost:\d+)/,
      );
      // The example's rules, with the subscriber pointed at this receiver's port.
      const rules = readFileSync(join(ROOT, 'examples', 'rules.yaml'), 'utf8').replace(
        'http://127.0.0.1:9000',
        receiverUrl.replace('localhost', '127.0.0.1'),
      );
      const rulesFile = join(tmp, 'rules.yaml');
      writeFileSync(rulesFile, rules);
      const worker = workerCmd as { env: Record<string, string>; argv: string[] };
      const workerRun = spawnFrom(
        { env: worker.env, argv: worker.argv.map((a) => (a === 'examples/rules.yaml' ? rulesFile : a)) },
        env,
      );
      // The README's simulator plays synthetic games; this one replays a recorded game at 1000x,
      // so the final-score alert comes within seconds: only its address differs.
      const serveArgs = serveCmd as { env: Record<string, string>; argv: string[] };
      expect(serveArgs.argv).toContain(README_SIMULATOR);
      const toStack = (a: string): string => (a === README_SIMULATOR ? (stack?.upstream.url ?? a) : a);
      const serve = spawnFrom(
        { env: serveArgs.env, argv: serveArgs.argv.map(toStack) },
        {
          ...env,
          PORT: '0',
          HOST: '127.0.0.1',
        },
      );
      const [, serveUrl = ''] = await serve.waitForStdout(/courtside listening on (http:\/\/\S+)/);
      playingSince = Date.now();
      // Offline means offline: push comes from the simulator named by --upstream, not ESPN's host.
      await waitFor(
        () => /"msg":"game now fed by push/.test(serve.stderr()),
        30_000,
        () => `a game fed by push from the simulator\n${serve.stderr().slice(-1500)}`,
      );
      expect(serve.stderr()).toContain(`discovered on the upstream ${stack.upstream.url}`);
      // `courtside serve` serves the overlay page the README sends OBS to.
      expect((await fetch(`${serveUrl}/overlay/mens/${stack.upstream.games[0]?.id ?? ''}`)).status).toBe(200);
      await waitFor(
        () => /^Final: [A-Z]+ \d+ - [A-Z]+ \d+/m.test(receiver.stdout()),
        90_000,
        () =>
          `the final-score alert at the receiver\n--- worker ---\n${workerRun.stderr().slice(-1500)}\n--- receiver ---\n${receiver.stdout()}`,
      );
      for (const run of [serve, workerRun]) run.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
      expect((await workerRun.exited).code).toBe(0);
      rmSync(tmp, { recursive: true, force: true });
    },
    150_000,
  );
});

describe('README simulator', () => {
  it('the offline simulator of the alert bot and several instances', async () => {
    const { argv } = parseCommand(command('npx courtside upstream --simulate 4 --speed 20 --port 9100'));
    // As written but on a free port: 9100 may be taken on the machine that runs the tests.
    const run = runCli(argv.slice(2).map((a) => (a === '9100' ? '0' : a)));
    try {
      const [, url = ''] = await run.waitForStdout(/(http:\/\/127\.0\.0\.1:\d+)/);
      const boards = await Promise.all(
        DEFAULT_LEAGUES.map(async (league) => {
          const path = league === 'mens' ? 'nba' : 'wnba';
          const res = await fetch(`${url}/apis/site/v2/sports/basketball/${path}/scoreboard`);
          expect(res.status).toBe(200);
          return ((await res.json()) as { events: unknown[] }).events.length;
        }),
      );
      // Four games, alternating leagues.
      expect(boards).toEqual([2, 2]);
    } finally {
      run.kill();
    }
  }, 60_000);
});

describe('README several instances', () => {
  const runs: CliRun[] = [];
  afterAll(async () => {
    for (const r of runs) r.kill();
    await redis?.cleanup();
  });

  it.skipIf(!redis)(
    `several instances on one Redis, offline as written: each game pushed by one, on standby at the other${redis ? '' : ' (skipped: no Redis; set REDIS_URL)'}`,
    async () => {
      const start = (text: string, env: NodeJS.ProcessEnv = {}, arg = (a: string) => a): CliRun => {
        const { env: written, argv } = parseCommand(command(text));
        const run = runCli(argv.slice(2).map(arg), { ...written, ...env });
        runs.push(run);
        return run;
      };
      // As written, on free ports and a key prefix of this run's own.
      const sim = start('npx courtside upstream --simulate 4 --speed 20 --port 9100', {}, (a) =>
        a === '9100' ? '0' : a,
      );
      const [, port = ''] = await sim.waitForStdout(/http:\/\/127\.0\.0\.1:(\d+)/);
      // Only the simulator's port differs from the README: `localhost` stays.
      const simulator = README_SIMULATOR.replace('9100', port);
      const instances = [8081, 8082].map((p) =>
        start(
          `REDIS_URL=redis://localhost:6379/5 PORT=${p} npx courtside serve --upstream ${README_SIMULATOR}`,
          {
            REDIS_URL: redis?.url ?? '',
            COURTSIDE_PREFIX: redis?.prefix ?? '',
            PORT: '0',
            HOST: '127.0.0.1',
          },
          (a) => (a === README_SIMULATOR ? simulator : a),
        ),
      );
      for (const run of instances) expect(run.child.spawnargs).toContain(simulator);
      const urls = await Promise.all(
        instances.map(
          async (run) => (await run.waitForStdout(/courtside listening on (http:\/\/\S+)/))[1] ?? '',
        ),
      );
      type Health = { pollers: Array<{ poller: string; gameId: string | null; state: string }> };
      const words = async (): Promise<Map<string, string[]>> => {
        const byGame = new Map<string, string[]>();
        for (const url of urls) {
          const health = (await (await fetch(`${url}/healthz`)).json()) as Health;
          for (const p of health.pollers)
            if (p.poller === 'summary' && p.gameId !== null)
              byGame.set(p.gameId, [...(byGame.get(p.gameId) ?? []), p.state].sort());
        }
        return byGame;
      };
      let seen = new Map<string, string[]>();
      await waitFor(
        async () => {
          seen = await words();
          return seen.size === 4 && [...seen.values()].every((w) => w.join() === 'push,standby');
        },
        45_000,
        () => `each game pushed by one instance and on standby at the other: ${JSON.stringify([...seen])}`,
      );
      for (const run of instances) expect(run.stderr()).not.toMatch(/ENOTFOUND|fastcast\.semfs/);
    },
    90_000,
  );
});

describe('npm run demo', () => {
  it('npm run demo builds and runs from dist/', async () => {
    // Built into dist/ as on a fresh machine after `npm ci`; the overlay assets are found from there.
    const run = runProcess(
      'npm',
      ['run', 'demo', '--silent'],
      { PORT: '0', REDIS_URL: '' },
      { detached: true },
    );
    try {
      const [, overlay = ''] = await run.waitForStdout(/^overlay: (http:\/\/\S+)$/m, 240_000);
      await run.waitForStdout(
        /^watch: +npx courtside watch --url http:\/\/\S+ --league (mens|womens) --game \S+$/m,
      );
      const page = await fetch(overlay);
      expect(page.status).toBe(200);
      // The README's OBS example shows a game the demo plays: its first, once the daemon knows it.
      const obs = new URL(
        codeBlocks(README).find((b) => b.lang === '' && b.body.includes('/overlay/'))?.body ?? '',
      );
      let location = '';
      await waitFor(async () => {
        const res = await fetch(new URL(`${obs.pathname}${obs.search}`, overlay), { redirect: 'manual' });
        await res.body?.cancel();
        location = res.headers.get('location') ?? '';
        return res.status === 302;
      }, 60_000);
      expect(location).toBe(`${new URL(overlay).pathname}${obs.search}`);
      expect((await fetch(new URL('/overlay/assets/overlay.js', overlay))).status).toBe(200);
      expect(existsSync(join(ROOT, 'dist', 'src', 'cli.js'))).toBe(true);
    } finally {
      // npm, its shell and node are one process group.
      if (run.child.pid && run.child.exitCode === null) process.kill(-run.child.pid, 'SIGTERM');
    }
    const exit = await run.exited;
    expect(exit.signal === 'SIGTERM' || exit.code === 0).toBe(true);
  }, 300_000);
});
