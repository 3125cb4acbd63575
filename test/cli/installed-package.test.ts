import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runProcess, type CliRun } from './harness.js';
import { waitFor } from '../support/wait-for.js';
import { OPERATION_NAMES } from '../../src/espn/operations.js';

/**
 * The package as users get it: `npm pack` of the project, installed with `npm install <tarball>`
 * into an empty folder, and the installed `courtside` run from there. The other CLI tests run the
 * sources through tsx, so a file the build forgets to ship (the plain-JS client library, an
 * overlay page) or a path that only holds inside the repository shows up here alone.
 */
const run = promisify(execFile);
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
// What the copy that is packed leaves out: installed or built output, and the repository's own state.
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'coverage', 'artifacts', 'fixtures-recorded']);

let work = '';
let app = '';
let bin = '';
/** Why the installed package could not be tested, when the registry was out of reach. */
let offline: string | undefined;
const processes: CliRun[] = [];

/** `courtside <args>` as installed, to its exit; stdout and stderr with the exit code. */
async function courtside(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(bin, args, { cwd: app, env: { ...process.env, NODE_ENV: 'test' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The names under "Commands:" in a commander help text, `help` aside. */
function commandsIn(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'courtside-installed-'));
  // Packed from a copy, so a build that another test runs in the repository at the same time
  // cannot interleave with this one, and a stale file in the repository's dist/ is not packed.
  const source = join(work, 'source');
  mkdirSync(source);
  for (const name of readdirSync(ROOT)) {
    if (!NOT_COPIED.has(name)) cpSync(join(ROOT, name), join(source, name), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  // `npm pack` runs `prepack`, the build.
  await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: source });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);

  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  const install = ['install', join(work, tarball), '--no-audit', '--no-fund', '--prefer-offline', '--silent'];
  try {
    await run('npm', install, { cwd: app });
  } catch (error) {
    // The dependencies come from the registry (or npm's cache): without either there is nothing to test.
    const stderr = String((error as { stderr?: unknown }).stderr ?? '');
    if (!/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(stderr)) throw error;
    offline = `npm install needs the registry or npm's cache, and reached neither: ${stderr.trim().split('\n')[0]}`;
    console.warn(`[skip] ${offline}`);
  }
  bin = join(app, 'node_modules', '.bin', 'courtside');
}, 300_000);

afterAll(async () => {
  for (const p of processes.splice(0)) {
    p.kill();
    await p.exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the installed package', () => {
  beforeEach((ctx) => {
    if (offline) ctx.skip(offline);
  });

  it('answers --help and --version (the package’s own version)', async () => {
    const help = await courtside(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: courtside/m);
    const version = await courtside(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(PKG.version);
  });

  it('answers --help for every command and subcommand', async () => {
    const top = commandsIn((await courtside(['--help'])).stdout);
    expect(top).toEqual(expect.arrayContaining(['op', 'serve', 'watch', 'demo', 'worker', 'webhooks']));
    const seen: string[] = [];
    const visit = async (path: string[]): Promise<void> => {
      const help = await courtside([...path, '--help']);
      expect(help.code, `${path.join(' ')} --help: ${help.stderr}`).toBe(0);
      expect(help.stdout).toContain(`Usage: courtside ${path.join(' ')}`);
      seen.push(path.join(' '));
      for (const sub of commandsIn(help.stdout)) await visit([...path, sub]);
    };
    for (const name of top) await visit([name]);
    // worker and webhooks have subcommands: the walk reached them.
    expect(seen.filter((p) => p.includes(' ')).length).toBeGreaterThan(0);
  }, 120_000);

  it('ships every docs/ and examples/ file that the help texts name', async () => {
    const top = await courtside(['--help']);
    const texts = [top.stdout];
    for (const name of commandsIn(top.stdout)) texts.push((await courtside([name, '--help'])).stdout);
    const named = new Set(
      texts.flatMap((t) => [...t.matchAll(/\b((?:docs|examples)\/[\w.-]+\.\w+)/g)].map((m) => m[1]!)),
    );
    expect(named.size).toBeGreaterThan(2);
    const installed = join(app, 'node_modules', 'courtside');
    for (const path of named) expect(existsSync(join(installed, path)), path).toBe(true);
    // And no example points outside the package.
    for (const text of texts) expect(text).not.toMatch(/\.\.\/shared|\.\.\//);
  }, 120_000);

  it('has no install script for npm to run or ask approval for (the build is `prepack`)', () => {
    const installed = JSON.parse(
      readFileSync(join(app, 'node_modules', 'courtside', 'package.json'), 'utf8'),
    ) as { scripts?: Record<string, string> };
    const scripts = Object.keys(installed.scripts ?? {});
    expect(scripts).toContain('prepack');
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(scripts).not.toContain(hook);
    // npm lists a package among those whose scripts to approve from this flag of its lock entry.
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    expect(lock.packages['node_modules/courtside']).toBeDefined();
    expect(lock.packages['node_modules/courtside']?.hasInstallScript).toBeUndefined();
  });

  it('lists the operations', async () => {
    const list = await courtside(['op', '--list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^mens_scoreboard$/m);
    expect(list.stdout).toMatch(/^womens_summary$/m);
  });

  it('runs the demo, its printed watch command prints events, and its overlay URL serves the page', async () => {
    const demo = runProcess(bin, ['demo', '--port', '0', '--games', '2', '--seed', '3'], {}, { cwd: app });
    processes.push(demo);
    const [, overlay = ''] = await demo.waitForStdout(/^overlay: (http:\/\/\S+)$/m, 60_000);
    const [, watchArgs = ''] = await demo.waitForStdout(/^watch: +npx courtside (watch .+)$/m);

    const page = await fetch(overlay);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toMatch(/<html/i);
    // The page's script and style are shipped too.
    for (const asset of ['overlay.js', 'overlay.css']) {
      expect((await fetch(new URL(`/overlay/assets/${asset}`, overlay))).status, asset).toBe(200);
    }
    // The client library served to pages is joined from the shipped plain-JS modules.
    expect((await fetch(new URL('/client/courtside.js', overlay))).status).toBe(200);
    // The installed daemon follows the demo's games over the simulator's FastCast push.
    const liveUrl = new URL('/v1/games/live', overlay);
    await waitFor(
      async () => {
        const live = (await (await fetch(liveUrl)).json()) as {
          games?: Array<{ feed?: { source?: string } }>;
        };
        return (live.games ?? []).some((g) => g.feed?.source === 'push');
      },
      60_000,
      'a demo game fed by push',
    );

    // As printed (`npx courtside` runs the installed bin), from the folder it is installed in.
    const watch = runProcess(bin, watchArgs.split(' '), {}, { cwd: app });
    processes.push(watch);
    await watch.waitForStdout(/^\[(1st|2nd|3rd|4th|OT)[^\]]*\] .+/m, 60_000);
    watch.child.kill('SIGTERM');
    expect((await watch.exited).code, watch.stderr()).toBe(0);

    demo.child.kill('SIGTERM');
    expect((await demo.exited).code, demo.stderr()).toBe(0);
  }, 150_000);

  it('imports courtside, courtside/client and courtside/simulator from a plain .mjs', async () => {
    writeFileSync(
      join(app, 'imports.mjs'),
      [
        "import { createClient, createEspnClient, OPERATION_NAMES } from 'courtside';",
        "import { Client, connect, CourtsideClientError, LiveClient, LiveClientError } from 'courtside/client';",
        "import { startUpstream } from 'courtside/simulator';",
        'console.log(JSON.stringify([typeof createEspnClient, OPERATION_NAMES.length, typeof connect, typeof startUpstream]));',
        'console.log(JSON.stringify([createClient === createEspnClient, Client === LiveClient, CourtsideClientError === LiveClientError]));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['imports.mjs'], { cwd: app });
    const [line, aliasLine] = stdout.trim().split('\n') as [string, string];
    const [client, operations, connect, upstream] = JSON.parse(line) as [string, number, string, string];
    expect([client, connect, upstream]).toEqual(['function', 'function', 'function']);
    expect(operations).toBe(OPERATION_NAMES.length);
    // The earlier names still work for users who import them.
    expect(JSON.parse(aliasLine)).toEqual([true, true, true]);
  });
});
