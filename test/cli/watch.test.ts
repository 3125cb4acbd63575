import { existsSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { loadFixture, HAVE_FIXTURES, NO_FIXTURES_REASON, describeRecorded } from '../support/fixtures.js';
import {
  MENS_FINAL,
  runCli,
  runProcess,
  startDaemon,
  startStack,
  type CliRun,
  type Stack,
} from './harness.js';
import { waitFor } from '../support/wait-for.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { connect, type GameEvent } from '../../src/live-client/courtside.js';
import { eventLine, PLAIN } from '../../src/cli/watch-format.js';

const SCRIPT = '/usr/bin/script';

/**
 * `courtside watch` as a child process against a real daemon and simulator replaying a recorded
 * game: piped, it prints plain text (score lines and plays) and, with --exit-on-end, exits when
 * the game ends.
 */
interface Final {
  header: {
    id: string;
    competitions: Array<{
      competitors: Array<{ homeAway: string; score: string; team: { abbreviation: string } }>;
    }>;
  };
}

function finalLine(file: string): string {
  const final = loadFixture<Final>(file);
  const side = (s: string) => final.header.competitions[0]?.competitors.find((c) => c.homeAway === s);
  const home = side('home');
  const away = side('away');
  return `Final: ${away?.team.abbreviation} ${away?.score} - ${home?.team.abbreviation} ${home?.score}`;
}

describeRecorded(!HAVE_FIXTURES || !MENS_FINAL)(
  `courtside watch ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
  () => {
    let stack: Stack | undefined;
    let run: CliRun | undefined;
    let proxy: TcpProxy | undefined;
    afterEach(async () => {
      await proxy?.close();
      proxy = undefined;
      run?.kill();
      await stack?.close();
      stack = undefined;
      run = undefined;
    });

    it('prints the score line and the plays as plain text when piped, and exits when the game ends', async () => {
      const relative = MENS_FINAL?.file.split(/[/\\]/).slice(-2).join('/') ?? '';
      // ~2.5 h of recorded wall clock at 400x: about 20 s, long enough to join before the end.
      stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 400 });
      const game = stack.upstream.games[0];
      if (!game) throw new Error('no game');
      run = runCli([
        'watch',
        '--url',
        stack.daemon.url,
        '--league',
        'mens',
        '--game',
        game.id,
        '--exit-on-end',
      ]);
      const exit = await Promise.race([
        run.exited,
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`watch did not exit:\n${run?.stdout().slice(-2000)}\n${run?.stderr()}`)),
            90_000,
          ),
        ),
      ]);
      const out = run.stdout();
      expect(exit.code, run.stderr()).toBe(0);
      // Plain text: no escape codes when stdout is a pipe.
      expect(out).not.toContain(String.fromCharCode(27));
      const lines = out.trim().split('\n');
      // Score lines ("● TOR 10 - ORL 18, 6:25 1st") and plays ("[1st 6:25] TOR 10-18 ORL  ...").
      expect(lines.some((l) => /^● [A-Z]{2,4} \d+ - [A-Z]{2,4} \d+/.test(l))).toBe(true);
      expect(
        lines.filter((l) =>
          /^\[(1st|2nd|3rd|4th|OT|\dOT) \d+:\d\d(\.\d)?\] [A-Z]{2,4} \d+-\d+ [A-Z]{2,4} {2}\S/.test(l),
        ).length,
      ).toBeGreaterThan(20);
      // The last line is the final score of the recorded game.
      expect(lines.at(-1)).toBe(finalLine(relative));
    }, 120_000);

    it('says it is connecting and to what, then what it follows, before the first snapshot', async () => {
      stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 100 });
      const game = stack.upstream.games[0];
      if (!game) throw new Error('no game');
      const port = new URL(stack.daemon.url).port;
      run = runCli(['watch', '--url', stack.daemon.url, '--league', 'mens']);
      await waitFor(() => /connected: /.test(run?.stderr() ?? ''), 30_000, 'the connected line');
      const said = run.stderr().split('\n');
      expect(said[0]).toBe(
        `courtside watch: connecting to ws://127.0.0.1:${port}/v1/stream (the daemon at http://127.0.0.1:${port})`,
      );
      expect(said[1]).toBe(
        'courtside watch: connected: following league mens: a score line for each game in progress, then its plays as they come',
      );
      // Both lines are on stderr: stdout holds the feed alone.
      expect(run.stdout()).not.toContain('connect');
    }, 60_000);

    it('--game of a finished game prints its final line and exits 0, saying why', async () => {
      const relative = MENS_FINAL?.file.split(/[/\\]/).slice(-2).join('/') ?? '';
      // At 3000x the recorded game is over within seconds.
      stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 3000 });
      const game = stack.upstream.games[0];
      if (!game) throw new Error('no game');
      const url = stack.daemon.url;
      await waitFor(
        async () =>
          ((await (await fetch(`${url}/v1/games/mens/${game.id}`)).json()) as { state?: string }).state ===
          'post',
        60_000,
        'the game final on the daemon',
      );
      run = runCli(['watch', '--url', url, '--game', game.id]);
      const exit = await Promise.race([
        run.exited,
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`watch did not exit:\n${run?.stdout()}\n${run?.stderr()}`)),
            30_000,
          ),
        ),
      ]);
      expect(exit.code, run.stderr()).toBe(0);
      // Joined after the end: the game's snapshot line, with the final score.
      const score = finalLine(relative).replace(/^Final: /, '');
      expect(run.stdout().trim().split('\n')).toEqual([`● ${score}, Final`]);
      expect(run.stderr()).toContain(`courtside watch: game ${game.id} has ended: exiting`);
    }, 120_000);

    it('resumes after the daemon restarts on the same port', async () => {
      stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 100 });
      const game = stack.upstream.games[0];
      if (!game) throw new Error('no game');
      run = runCli(['watch', '--url', stack.daemon.url, '--game', game.id, '--types', 'play.added']);
      await waitFor(() => /^\[/m.test(run?.stdout() ?? ''), 30_000, 'the first play');
      const port = Number(new URL(stack.daemon.url).port);
      await stack.daemon.close();
      await waitFor(() => /disconnected, reconnecting/.test(run?.stderr() ?? ''), 10_000, 'watch to notice');
      const before = run.stdout().length;
      stack.daemon = await startDaemon(stack.upstream.url, port);
      await waitFor(() => (run?.stdout().length ?? 0) > before, 30_000, 'plays after the restart');
      expect(run.child.exitCode).toBeNull();
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(0);
    }, 120_000);

    it('prints every event once through connection cuts, as the log has them', async () => {
      stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 200 });
      const game = stack.upstream.games[0];
      if (!game) throw new Error('no game');
      proxy = await startTcpProxy(Number(new URL(stack.daemon.url).port));
      const types = ['play.added', 'score.changed', 'game.ended'] as const;
      // The lines watch must print: the same events, read straight from the daemon from the log's start.
      const direct = connect(stack.daemon.url);
      const events: GameEvent[] = [];
      const reading = (async () => {
        for await (const e of direct.subscribe({ games: [game.id], types: [...types], since: '0-0' })) {
          events.push(e);
          if (e.type === 'game.ended') break;
        }
        await direct.close();
      })();
      run = runCli([
        'watch',
        '--url',
        proxy.url,
        '--game',
        game.id,
        '--types',
        types.join(','),
        '--exit-on-end',
      ]);
      let cuts = 0;
      while (run.child.exitCode === null && cuts < 40) {
        await new Promise((r) => setTimeout(r, 500 + Math.random() * 1_500));
        if (run.child.exitCode !== null) break;
        proxy.cut();
        cuts += 1;
        await new Promise((r) => setTimeout(r, Math.random() * 800));
        proxy.restore();
      }
      expect((await run.exited).code, run.stderr()).toBe(0);
      await reading;
      expect(cuts).toBeGreaterThan(2);
      expect(run.stderr()).toMatch(/disconnected, reconnecting in \d+ ms \(connection lost/);
      // Lines as a terminal shows them (an upstream text may hold a newline).
      const expected = events
        .map((e) => eventLine(e, PLAIN))
        .filter((l): l is string => l !== null)
        .join('\n')
        .split('\n');
      let lines = run.stdout().trimEnd().split('\n');
      // watch joins with a snapshot when the game is under way already: its first line, then events.
      if (expected.slice(-lines.length).join('\n') !== lines.join('\n')) lines = lines.slice(1);
      expect(lines.length).toBeGreaterThan(100);
      expect(lines).toEqual(expected.slice(-lines.length));
    }, 120_000);

    it.skipIf(!existsSync(SCRIPT))(
      `colours the feed on a terminal${existsSync(SCRIPT) ? '' : ` (skipped: no ${SCRIPT})`}`,
      async () => {
        stack = await startStack({ replay: [MENS_FINAL?.file ?? ''], speed: 100 });
        const game = stack.upstream.games[0];
        if (!game) throw new Error('no game');
        // util-linux `script` gives the command a pseudo-terminal, as a user's shell would.
        const cli = `${process.execPath} --import tsx src/cli.ts watch --url ${stack.daemon.url} --game ${game.id}`;
        run = runProcess(SCRIPT, ['-qec', cli, '/dev/null'], {}, { detached: true });
        const esc = String.fromCharCode(27);
        await waitFor(
          () => run?.stdout().includes(`${esc}[2m[1st`) ?? false,
          30_000,
          'a dimmed clock on the terminal',
        );
        // The same feed piped has no colour (first test); --no-color turns it off on a terminal too.
        const pid = run.child.pid;
        if (pid) process.kill(-pid, 'SIGTERM');
        await run.exited;
        run = runProcess(SCRIPT, ['-qec', `${cli} --no-color`, '/dev/null'], {}, { detached: true });
        await waitFor(() => /^\[1st/m.test(run?.stdout() ?? ''), 30_000, 'a play on the terminal');
        expect(run.stdout()).not.toContain(`${esc}[2m`);
        if (run.child.pid) process.kill(-run.child.pid, 'SIGTERM');
        await run.exited;
      },
      90_000,
    );

    it('refuses bad flags with exit code 2 before connecting', async () => {
      for (const [args, message] of [
        [['--league', 'nhl'], /--league: unknown league "nhl"/],
        [['--conference', 'ACC'], /--conference: "ACC" is not a conference id/],
        [['--types', 'play.added,goal'], /--types: unknown event type "goal"/],
        [['--delay', '900'], /--delay: expected whole seconds from 0 to 300/],
        [['--url', 'ftp://x'], /--url: expected an http\(s\) URL/],
      ] as const) {
        run = runCli(['watch', ...args]);
        expect((await run.exited).code).toBe(2);
        expect(run.stderr()).toMatch(message);
      }
    }, 60_000);
  },
);
