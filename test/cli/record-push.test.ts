import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../src/core/log.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { loadPushConfig } from '../../src/daemon/push-config.js';
import { CAPTURE_FORMAT, parseCapture, type CaptureEntry } from '../../src/espn/fastcast-capture.js';
import { decodePatchPayload } from '../../src/espn/fastcast-wire.js';
import type { GameEvent } from '../../src/model/events.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { waitFor } from '../support/wait-for.js';
import { recordPush } from '../../src/cli/record-push.js';
import { runCli, type CliRun } from './harness.js';

/**
 * `courtside record --push` and `courtside upstream --push-replay`, as users run them: a game's
 * topic recorded from the simulator's FastCast while a push daemon follows the same game, then
 * the capture replayed by a second simulator into a second push daemon, whose events must be
 * those of the recorded session.
 */

// Synthetic games (about two hours of game each) played in about 18 s.
const SPEED = 400;
// The recorded game tips off this long after the first: the recorder and the daemon beside it both
// subscribe before it starts, so every play reaches both by a patch of its own.
const STAGGER_MS = 8_000 * SPEED;

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'courtside-capture-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Viewer {
  readonly events: GameEvent[];
}

/** A push daemon against `upstream` and a viewer of every event it commits. */
async function pushDaemon(
  upstream: string,
  fastcastUrl: string,
): Promise<{ daemon: Daemon; viewer: Viewer }> {
  const push = loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: fastcastUrl } });
  const daemon = createDaemon(testDaemonConfig(upstream), { logger: silentLogger, push });
  await daemon.start();
  cleanup.push(() => daemon.close());
  const viewer: Viewer = { events: [] };
  const ws = new WebSocket(`${daemon.url.replace(/^http/, 'ws')}/v1/stream`);
  cleanup.push(() => ws.close());
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string; event?: GameEvent };
    if (frame.type === 'event' && frame.event) viewer.events.push(frame.event);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(JSON.stringify({ op: 'subscribe', id: 'all', since: '0-0' }));
      resolve();
    });
  });
  return { daemon, viewer };
}

const playIds = (events: readonly GameEvent[], game: string): string[] =>
  events.flatMap((e) =>
    e.type === 'play.added' && e.gameId === game && e.data.play.id !== null ? [e.data.play.id] : [],
  );

const ended = (viewer: Viewer, game: string): boolean =>
  viewer.events.some((e) => e.type === 'game.ended' && e.gameId === game);

const opOf = (frame: string): unknown => (JSON.parse(frame) as { op?: unknown }).op;

async function source(speed: number, faults?: string): Promise<RunningUpstream> {
  const upstream = await startUpstream({
    simulate: { games: 2, seed: 7, leagues: ['mens'], staggerMs: STAGGER_MS },
    speed,
    ...(faults ? { faults } : {}),
    logger: silentLogger,
  });
  cleanup.push(() => upstream.close());
  return upstream;
}

/** The game recorded: the second, which tips off after the recorder subscribed. */
const gameOf = (upstream: RunningUpstream): string => upstream.games[1]?.id as string;

function record(upstream: RunningUpstream, out: string, extra: string[] = []): CliRun {
  const game = gameOf(upstream);
  const run = runCli([
    'record',
    '--push',
    '--game',
    game,
    '--out',
    out,
    '--upstream',
    upstream.url,
    '--fastcast-url',
    upstream.fastcastUrl as string,
    ...extra,
  ]);
  cleanup.push(() => run.kill());
  return run;
}

describe('courtside record --push, replayed by courtside upstream --push-replay', () => {
  it(
    'records a live topic as received until the game ends; a daemon fed by its replay gets every play of the recorded session once, in the same order',
    { timeout: 150_000 },
    async () => {
      const upstream = await source(SPEED);
      const game = gameOf(upstream);
      const recorded = await pushDaemon(upstream.url, upstream.fastcastUrl as string);
      const file = join(dir, 'game.fastcast.jsonl');
      const run = record(upstream, file);
      const exit = await run.exited;
      expect(exit.code, run.stderr()).toBe(0);
      expect(run.stdout()).toMatch(
        new RegExp(
          `^recorded \\d+ frames and 1 checkpoint\\(s\\) of gp-basketball-nba-${game} into .+ \\(game over\\)\\n$`,
        ),
      );
      await waitFor(() => ended(recorded.viewer, game), 60_000, 'the recorded session to see the game end');

      // The file: a versioned header, then the frames as received, the checkpoint, the summary.
      const text = readFileSync(file, 'utf8');
      const capture = parseCapture(text, file);
      expect(capture.truncated).toBe(false);
      expect(capture.header).toMatchObject({
        format: CAPTURE_FORMAT,
        version: 1,
        league: 'mens',
        game,
        topic: `gp-basketball-nba-${game}`,
        upstream: upstream.url,
        discoveryUrl: upstream.fastcastUrl,
      });
      const { entries } = capture;
      const ts = entries.map((e) => e.t);
      expect(ts).toEqual([...ts].sort((a, b) => a - b));
      expect(entries[0]).toMatchObject({ kind: 'summary', body: { header: { id: game } } });
      const sent = entries.flatMap((e) => (e.kind === 'sent' ? [opOf(e.frame)] : []));
      expect(sent).toEqual(['C', 'S']);
      const received = entries.filter((e): e is CaptureEntry & { kind: 'received' } => e.kind === 'received');
      expect(received.slice(0, 3).map((e) => opOf(e.frame))).toEqual(['C', 'S', 'H']);
      const patches = received.filter((e) => opOf(e.frame) === 'P');
      expect(patches.length).toBeGreaterThan(100);
      // The envelope kept: each patch frame's payload still decodes as sent, both `~c` forms among them.
      const forms = new Set(
        patches.map((p) => (JSON.parse(JSON.parse(p.frame).pl) as { '~c': number })['~c']),
      );
      expect([...forms].sort()).toEqual([0, 1]);
      for (const p of patches)
        expect(decodePatchPayload(JSON.parse(p.frame).pl, 'test').patch.length).toBeGreaterThan(0);
      const checkpoint = entries.find((e) => e.kind === 'checkpoint');
      expect(checkpoint).toMatchObject({ body: { header: { id: game } } });
      expect(entries[entries.length - 1]).toMatchObject({ kind: 'end', reason: 'game over' });

      // Cut short as by Ctrl-C in the middle of a write: the last line half written.
      const lines = text.split('\n').filter((l) => l !== '');
      const last = lines[lines.length - 1] as string;
      const cut = join(dir, 'cut.fastcast.jsonl');
      writeFileSync(cut, [...lines.slice(0, -1), last.slice(0, last.length >> 1)].join('\n'));
      expect(parseCapture(readFileSync(cut, 'utf8'), cut)).toMatchObject({ truncated: true });

      // The cut capture replayed by the simulator, as a user would run it.
      const replay = runCli(['upstream', '--push-replay', cut]);
      cleanup.push(() => replay.kill());
      const [, url] = await replay.waitForStdout(/upstream listening on (http:\S+)/);
      const replayed = await pushDaemon(url as string, `${url}/public/websockethost`);
      await waitFor(() => ended(replayed.viewer, game), 60_000, 'the replayed game to end');

      const want = playIds(recorded.viewer.events, game);
      const got = playIds(replayed.viewer.events, game);
      expect(want.length).toBeGreaterThan(300);
      expect(new Set(got).size).toBe(got.length);
      expect(got).toEqual(want);
      expect(replayed.viewer.events.filter((e) => e.type === 'game.ended')).toHaveLength(1);
      expect(replayed.viewer.events.every((e) => e.gameId === game)).toBe(true);
      expect(replayed.viewer.events.some((e) => e.type === 'play.removed')).toBe(false);
      const health = (await (await fetch(`${replayed.daemon.url}/healthz`)).json()) as {
        pollers: Array<{ poller: string; feed?: { source: string } }>;
      };
      // Fed by the replayed frames, not by polling the replayed summaries.
      expect(health.pollers.find((p) => p.poller === 'summary')?.feed?.source).toBe('push');
    },
  );

  it(
    'a capture of a session that lost frames makes the replaying daemon resync where the recorder did, and still get every play once',
    { timeout: 120_000 },
    async () => {
      const upstream = await source(SPEED, 'lostframe=0.01');
      const game = gameOf(upstream);
      const file = join(dir, 'lossy.fastcast.jsonl');
      const push = loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: upstream.fastcastUrl as string } });
      const result = await recordPush({
        gameId: game,
        out: file,
        leagues: ['mens'],
        upstream: upstream.url,
        push: push as NonNullable<typeof push>,
        logger: silentLogger,
      });
      expect(result.end).toBe('game over');
      const capture = parseCapture(readFileSync(file, 'utf8'), file);
      const subscriptions = capture.entries.filter((e) => e.kind === 'sent' && opOf(e.frame) === 'S').length;
      // Each lost frame was a gap the recorder answered by subscribing again.
      expect(subscriptions).toBeGreaterThanOrEqual(2);
      expect(subscriptions).toBeLessThan(10);
      await upstream.close();

      const replay = await startUpstream({ pushReplay: [file], logger: silentLogger });
      cleanup.push(() => replay.close());
      const gaps = async (): Promise<number> => {
        const text = await (await fetch(`${replayed.daemon.url}/metrics`)).text();
        return Number(/courtside_fastcast_resyncs_total\{reason="mid_gap"\} (\d+)/.exec(text)?.[1] ?? 0);
      };
      const replayed = await pushDaemon(replay.url, replay.fastcastUrl as string);
      const before = await gaps();
      await waitFor(() => ended(replayed.viewer, game), 60_000, 'the replayed game to end');
      expect((await gaps()) - before).toBe(subscriptions - 1);
      const got = playIds(replayed.viewer.events, game);
      expect(new Set(got).size).toBe(got.length);
      const final = (replay.games[0]?.final.plays as Array<{ id: string }>).map((p) => String(p.id));
      expect([...got].sort()).toEqual([...final].sort());
    },
  );

  it(
    'a recording stopped by Ctrl-C or by --seconds is a valid capture saying why it ended',
    { timeout: 60_000 },
    async () => {
      const upstream = await source(1);
      const interrupted = join(dir, 'interrupted.jsonl');
      const run = record(upstream, interrupted);
      await waitFor(
        () => {
          try {
            return readFileSync(interrupted, 'utf8').includes('"kind":"checkpoint"');
          } catch {
            return false;
          }
        },
        30_000,
        'the first checkpoint in the capture',
      );
      run.child.kill('SIGINT');
      const exit = await run.exited;
      expect(exit.code, run.stderr()).toBe(0);
      expect(run.stdout()).toMatch(/\(interrupted\)\n$/);
      const capture = parseCapture(readFileSync(interrupted, 'utf8'), interrupted);
      expect(capture.entries[capture.entries.length - 1]).toMatchObject({
        kind: 'end',
        reason: 'interrupted',
      });

      const limited = join(dir, 'limited.jsonl');
      const timed = record(upstream, limited, ['--leagues', 'mens', '--seconds', '1.5']);
      expect((await timed.exited).code, timed.stderr()).toBe(0);
      expect(timed.stdout()).toMatch(/\(time limit\)\n$/);
      const entries = parseCapture(readFileSync(limited, 'utf8'), limited).entries;
      expect(entries[entries.length - 1]).toMatchObject({ kind: 'end', reason: 'time limit' });
      expect(entries[entries.length - 1]?.t).toBeGreaterThanOrEqual(1500);
    },
  );

  it('names the flag and the expected form when --push lacks a game or gets a bad one', async () => {
    const out = join(dir, 'x.jsonl');
    const [missing, bad, notPush] = [
      runCli(['record', '--push', '--out', out]),
      runCli(['record', '--push', '--game', 'abc', '--out', out]),
      runCli(['record', '--game', '1', '--out', dir]),
    ];
    expect((await missing.exited).code).toBe(2);
    expect(missing.stderr()).toMatch(/--game: required with --push; expected an ESPN event id \(digits\)/);
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr()).toMatch(/--game: "abc" is invalid; expected an ESPN event id/);
    expect((await notPush.exited).code).toBe(2);
    expect(notPush.stderr()).toMatch(/--game: only with --push/);
  });
});
