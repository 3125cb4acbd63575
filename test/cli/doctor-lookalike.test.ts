import { afterAll, beforeAll, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/doctor.js';
import { startLookalike, type Lookalike, type LookalikeOptions } from '../support/fastcast-lookalike.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, describeRecorded } from '../support/fixtures.js';
import { heldOutGame, replayCopies, type GameCopies } from '../support/game-copies.js';
import { runCli } from './harness.js';

/**
 * `courtside doctor` against a FastCast that is not the simulator: the look-alike of
 * test/support/fastcast-lookalike.ts, publishing copies of a held-out recorded final, each copy
 * with one oddity (and a look-alike of its own for the two that concern the whole server). For
 * each: a line fails naming the oddity, and the exit code is 1; for the copy without one, exit 0.
 * The checks run in-process (the function the command runs) and, for the exit codes as a user
 * sees them, as the command itself.
 */

// Slow enough that the game stays live through every run (about a play a second), fast enough
// that a few seconds of frames hold several publications.
const SPEED = 20;
// A recorded game at 20× still has stretches of 7-8 s with no play (a timeout, free throws being
// set up): the watch is longer than those, so a case that needs live patches always sees some.
const WATCH_SECONDS = '12';
const every = (from: number, step: number): number[] =>
  Array.from({ length: 300 }, (_, i) => from + i * step);

const file = heldOutGame();

// Per game: the look-alike's options for it, and what a failing line must say.
const GAME_FAULTS: Array<[string, Omit<LookalikeOptions['games'][number], 'gameId'>, RegExp[]]> = [
  ['absentKeys', { absentKeysEvery: 2 }, [/odds/, /pickcenter/]],
  ['noH', { noCheckpoint: true }, [/no H\b/]],
  ['wrapped', { wrappedCheckpoint: true }, [/wrapped|\{"pl"/]],
  ['bomb', { bombAt: every(1, 2) }, [/inflat|MiB|too (large|big)|oversize/i]],
  ['batched', { batched: true }, [/several|list/i]],
  ['lostFrames', { lostFrameAt: every(2, 2) }, [/lost|gap|missing/i]],
  ['badPatches', { badPatchAt: every(1, 3) }, [/appl(y|ied)|patch/i]],
];
// For the whole server: the look-alike's variant, and what a failing line must say.
const SERVER_FAULTS: Array<[string, LookalikeOptions['variant'], RegExp[]]> = [
  ['encodedToken', { encodedTokenOnly: true }, [/percent-encoded/i]],
  ['maintenance', { maintenanceAfterMs: 500 }, [/\bM\b|maintenance/i]],
];

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describeRecorded(!HAVE_FIXTURES || !file)(
  `courtside doctor against the FastCast look-alike ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
  () => {
    let copies: GameCopies;
    const looks = new Map<string, Lookalike>();
    const league = file?.league === 'womens' ? 'wnba' : 'nba';

    beforeAll(async () => {
      copies = await replayCopies(file!, ['healthy', ...GAME_FAULTS.map(([name]) => name)], SPEED);
      cleanup.push(() => copies.close());
      const start = async (
        name: string,
        options: Omit<LookalikeOptions, 'upstream' | 'league' | 'sites'>,
      ) => {
        const look = await startLookalike({
          upstream: copies.sim.url,
          league,
          sites: ['doctor'],
          ...options,
        });
        cleanup.push(() => look.close());
        looks.set(name, look);
      };
      await start('games', {
        games: [
          { gameId: copies.ids.healthy! },
          ...GAME_FAULTS.map(([name, faults]) => ({ gameId: copies.ids[name]!, ...faults })),
        ],
      });
      for (const [name, variant] of SERVER_FAULTS)
        await start(name, { games: [{ gameId: copies.ids.healthy! }], variant });
    }, 60_000);

    /** The doctor's output and exit code for `game` on the look-alike named `look`. */
    async function doctor(look: string, game: string): Promise<{ text: string; exitCode: number }> {
      const l = looks.get(look)!;
      let text = '';
      const report = await runDoctor(
        {
          upstream: l.siteUrls.doctor!,
          fastcastUrl: l.discoveryUrl,
          leagues: file!.league,
          game: copies.ids[game]!,
          seconds: WATCH_SECONDS,
        },
        {},
        (t) => (text += t),
      );
      if (!report) throw new Error('doctor refused its flags');
      return { text, exitCode: report.exitCode };
    }

    it('a healthy topic: every needed check passes, exit 0', { timeout: 30_000 }, async () => {
      const d = await doctor('games', 'healthy');
      expect(d.text, d.text).not.toMatch(/^fail/m);
      expect(d.exitCode, d.text).toBe(0);
    });

    it.each(GAME_FAULTS)(
      'a topic with %s: named on a failing line, exit 1',
      { timeout: 30_000 },
      async (name, _f, named) => {
        const d = await doctor('games', name);
        const failing = d.text.split('\n').filter((l) => l.startsWith('fail'));
        for (const n of named) expect(failing.join('\n'), d.text).toMatch(n);
        expect(d.exitCode, d.text).toBe(1);
      },
    );

    it.each(SERVER_FAULTS)(
      'a server with %s: named on a failing line, exit 1',
      { timeout: 30_000 },
      async (name, _v, named) => {
        const d = await doctor(name, 'healthy');
        const failing = d.text.split('\n').filter((l) => l.startsWith('fail'));
        for (const n of named) expect(failing.join('\n'), d.text).toMatch(n);
        expect(d.exitCode, d.text).toBe(1);
      },
    );

    it('as a user runs it: exit 0 on the healthy topic, 1 on a faulty one', { timeout: 90_000 }, async () => {
      const l = looks.get('games')!;
      const run = (game: string) =>
        runCli([
          'doctor',
          '--upstream',
          l.siteUrls.doctor!,
          '--fastcast-url',
          l.discoveryUrl,
          '--leagues',
          file!.league,
          '--game',
          copies.ids[game]!,
          '--seconds',
          WATCH_SECONDS,
        ]);
      const [healthy, wrapped] = [run('healthy'), run('wrapped')];
      expect((await healthy.exited).code, healthy.stdout() + healthy.stderr()).toBe(0);
      expect((await wrapped.exited).code, wrapped.stdout() + wrapped.stderr()).toBe(1);
      expect(wrapped.stdout()).toMatch(/^fail\s.*(wrapped|\{"pl")/m);
    });
  },
);
