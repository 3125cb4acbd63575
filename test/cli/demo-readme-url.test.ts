import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { ROOT, runCli, type CliRun } from './harness.js';

/**
 * The README's OBS URL against `courtside demo` as a user meets it: at the start it leads to the
 * demo's first game, and once the first slate is over and the next one is playing, to a game of
 * the new slate, not to a final of the old one. At 3000x a synthetic game lasts seconds, so the
 * slate change comes within the test.
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = README.split(/^## The overlay in OBS$/m)[1]?.split(/^## /m)[0] ?? '';
const obs = new URL(/^```\n(http:\/\/\S+\/overlay\/\S+)\n```$/m.exec(section)?.[1] ?? 'http://x/');

interface Redirect {
  status: number;
  location: string;
}

async function open(base: string): Promise<Redirect> {
  const res = await fetch(`${base}${obs.pathname}${obs.search}`, { redirect: 'manual' });
  await res.body?.cancel();
  return { status: res.status, location: res.headers.get('location') ?? '' };
}

const idsIn = (text: string, league: string): string[] =>
  [...text.matchAll(new RegExp(`^overlay: \\S+/overlay/${league}/(\\d+)$`, 'gm'))].map((m) => m[1] ?? '');

describe('the README’s OBS URL against the demo', () => {
  const runs: CliRun[] = [];
  afterEach(() => {
    for (const r of runs.splice(0)) r.kill();
  });

  it('leads to the first game at the start, and to a game of the next slate after a slate change', async () => {
    const [, league = ''] = /^\/overlay\/(mens|womens)\//.exec(obs.pathname) ?? [];
    expect(league).not.toBe('');
    const demo = runCli(['demo', '--port', '0', '--games', '2', '--seed', '11', '--speed', '3000']);
    runs.push(demo);
    const [, base = ''] = await demo.waitForStdout(/^daemon at (http:\/\/\S+)$/m);
    const first = idsIn(demo.stdout(), league);
    expect(first).toHaveLength(1);
    let seen: Redirect = { status: 0, location: '' };
    await waitFor(
      async () => (seen = await open(base)).status === 302,
      60_000,
      () => `a redirect; last ${JSON.stringify(seen)}`,
    );
    expect(seen.location).toBe(`/overlay/${league}/${first[0] ?? ''}${obs.search}`);
    // The page it leads to is the scorebug.
    expect((await fetch(`${base}${seen.location}`)).status).toBe(200);

    const [slate2 = ''] = await demo.waitForStdout(/^slate 2: .*\n(?:.*\n)*?watch: .*$/m, 120_000);
    const second = idsIn(slate2, league);
    expect(second).toHaveLength(1);
    // Once the daemon has found the new slate (a scoreboard poll), the URL leads to its game.
    await waitFor(
      async () => (seen = await open(base)).location === `/overlay/${league}/${second[0] ?? ''}${obs.search}`,
      150_000,
      () => `the next slate's game; last ${JSON.stringify(seen)}`,
    );
    demo.child.kill('SIGTERM');
    expect((await demo.exited).code, demo.stderr()).toBe(0);
  }, 300_000);
});
