import { afterEach, expect, it } from 'vitest';
import { createRedisBus } from '../../src/bus/redis.js';
import { silentLogger } from '../../src/core/log.js';
import type { GameEvent, GameSnapshot } from '../../src/model/events.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import {
  connect,
  gameState,
  toSnapshot,
  type LiveClient,
  type StateChange,
} from '../../src/live-client/courtside.js';
import { MENS_FINAL, runCli, type CliRun } from '../cli/harness.js';
import { HAVE_FIXTURES, loadFixture, describeRecorded } from '../support/fixtures.js';
import { getTestRedis } from '../support/redis.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait-for.js';
import { createRandom } from '../../src/simulator/random.js';

/**
 * The client library against the real thing: a daemon (`courtside serve`, a child process, on
 * Redis) following a recorded game the simulator replays, the client connected through a TCP proxy
 * the test cuts, freezes and restores at random moments, and the daemon itself stopped and started
 * again mid-game. At the end the client has every event of the game's log exactly once, in log
 * order, and its reduced state is the daemon's state of the game and the recorded final's plays
 * and score.
 */
const REDIS = await getTestRedis();
await REDIS?.cleanup();

// ~2 h 40 of recorded wall clock at 150x: about a minute of game, time for a dozen disruptions.
const SPEED = 150;
// The client's own heartbeat ceiling: a frozen path is noticed after 2 s, not the daemon's 30 s.
const HEARTBEAT_MS = 1_000;

interface Final {
  header: {
    competitions: Array<{ competitors: Array<{ homeAway: string; score: string }> }>;
  };
  plays: Array<{ id: string }>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function serve(upstream: string, redisUrl: string, prefix: string): CliRun {
  return runCli([
    'serve',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--upstream',
    upstream,
    '--redis',
    redisUrl,
    '--prefix',
    prefix,
    '--leagues',
    'mens',
    '--summary-interval',
    '1000',
    '--log-level',
    'warn',
  ]);
}

async function portOf(run: CliRun): Promise<number> {
  const m = await run.waitForStdout(/courtside listening on http:\/\/[^:]+:(\d+)/, 60_000);
  return Number(m[1]);
}

/** The game's events in the log, oldest first. */
async function logOf(redisUrl: string, prefix: string, gameId: string): Promise<GameEvent[]> {
  const bus = createRedisBus({ url: redisUrl, prefix, logger: silentLogger });
  try {
    const out: GameEvent[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await bus.read(after, 500);
      if (page.length === 0) break;
      out.push(...page.filter((e) => e.gameId === gameId));
      after = page.at(-1)?.offset ?? null;
      if (after === null) break;
    }
    return out;
  } finally {
    await bus.close();
  }
}

describeRecorded(!HAVE_FIXTURES || !MENS_FINAL || !REDIS)(`client library recovery`, () => {
  let upstream: RunningUpstream | undefined;
  let daemon: CliRun | undefined;
  let proxy: TcpProxy | undefined;
  let client: LiveClient | undefined;
  afterEach(async () => {
    await client?.close();
    await proxy?.close();
    if (daemon) {
      daemon.child.kill('SIGTERM');
      await Promise.race([daemon.exited, sleep(6_000)]);
      daemon.kill();
    }
    await upstream?.close();
    await REDIS?.cleanup();
  });

  it('gets every event of a game once, in order, through cuts, freezes and a daemon restart', async () => {
    if (!REDIS || !MENS_FINAL) throw new Error('unreachable');
    const seed = Number(process.env.COURTSIDE_CHAOS_SEED ?? Date.now() % 1_000_000);
    const random = createRandom(seed);
    const note = `seed ${seed} (rerun with COURTSIDE_CHAOS_SEED=${seed})`;
    const prefix = REDIS.prefix;

    upstream = await startUpstream({ logger: silentLogger, replay: [MENS_FINAL.file], speed: SPEED });
    const game = upstream.games[0];
    if (!game) throw new Error('no game');
    daemon = serve(upstream.url, REDIS.url, prefix);
    proxy = await startTcpProxy(await portOf(daemon));

    client = connect(proxy.url, { retry: { minMs: 50, maxMs: 1_000 }, heartbeatMs: HEARTBEAT_MS });
    const states: StateChange[] = [];
    client.on('state', (change) => states.push(change));
    // From the log's start: the client sees the game's first event whenever it connects.
    const sub = client.subscribe({ games: [game.id], since: '0-0' });
    const games = gameState();
    const received: GameEvent[] = [];
    let ended = false;
    sub.on('event', (event) => {
      received.push(event);
      games.apply(event);
      if (event.type === 'game.ended') ended = true;
    });

    // Disruptions at random moments until the game ends: cuts (connections reset, new ones
    // refused for a while), freezes (nothing flows, nothing closes) and one daemon restart.
    const done: string[] = [];
    let restarted = false;
    const deadline = Date.now() + 150_000;
    while (!ended && Date.now() < deadline) {
      await sleep(300 + random() * 1_700);
      if (ended) break;
      const r = random();
      if (!restarted && received.length > 250) {
        restarted = true;
        done.push('restart');
        daemon.child.kill('SIGTERM');
        expect((await daemon.exited).code).toBe(0);
        daemon = serve(upstream.url, REDIS.url, prefix);
        proxy.retarget(await portOf(daemon));
      } else if (r < 0.65) {
        done.push('cut');
        proxy.cut();
        await sleep(random() * 1_500);
        proxy.restore();
      } else {
        done.push('freeze');
        proxy.freeze();
        await sleep(2.5 * HEARTBEAT_MS + random() * 1_000);
        proxy.restore();
      }
    }
    expect(ended, `the game did not end in time; ${note}; done: ${done.join(',')}`).toBe(true);
    expect(restarted, note).toBe(true);
    expect(done.filter((d) => d === 'cut').length, note).toBeGreaterThan(0);

    // The poller stops a few polls after the end; then the log holds the whole game.
    let log: GameEvent[] = [];
    await waitFor(
      async () => {
        log = await logOf(REDIS.url, prefix, game.id);
        return log.length > 0 && received.length >= new Set(log.map((e) => e.id)).size;
      },
      30_000,
      () => `the client to catch up with the log (${received.length} of ${log.length}); ${note}`,
    );
    await sleep(3_000);
    log = await logOf(REDIS.url, prefix, game.id);
    // A re-emission (a restart, a fail-over) logs an id again; it is the same event.
    const logIds = [...new Set(log.map((e) => e.id))];
    const ids = received.map((e) => e.id);
    expect(new Set(ids).size, `a duplicate was delivered; ${note}`).toBe(ids.length);
    expect(ids, `${note}; disruptions: ${done.join(',')}`).toEqual(logIds);
    expect(sub.stats.gaps, note).toBe(0);

    // The connection went through every state, and each change says why.
    const seen = new Set(states.map((s) => s.state));
    expect([...seen].sort()).toEqual(['open', 'reconnecting']);
    expect(states.every((s) => s.reason.length > 0)).toBe(true);
    if (done.includes('freeze'))
      expect(
        states.some((s) => s.code === 'heartbeat_timeout'),
        note,
      ).toBe(true);

    // The reduced state: the recorded final's plays (in order) and score...
    const mine = games.get('mens', game.id);
    if (!mine) throw new Error('no state');
    const final = loadFixture<Final>(MENS_FINAL.file.split(/[/\\]/).slice(-2).join('/'));
    const side = (s: string) =>
      Number(final.header.competitions[0]?.competitors.find((c) => c.homeAway === s)?.score);
    expect(mine.plays.map((p) => p.id)).toEqual(final.plays.map((p) => p.id));
    expect(mine.score).toEqual({ home: side('home'), away: side('away') });
    expect(mine.state).toBe('post');
    // ...and the daemon's state of the game, but for what no event carries: the scoreboard
    // row, when the daemon last stored the game, the teams' names, colours and logos.
    const res = await fetch(`${proxy.url}/v1/games/mens/${game.id}`);
    const daemonState = (await res.json()) as GameSnapshot;
    const strip = (s: GameSnapshot) => ({
      ...s,
      scoreboard: null,
      updatedAt: '',
      teams: {
        home: { id: s.teams.home.id, abbreviation: s.teams.home.abbreviation },
        away: { id: s.teams.away.id, abbreviation: s.teams.away.abbreviation },
      },
      situation: s.situation ?? null,
    });
    expect(strip(toSnapshot(mine))).toEqual(strip(daemonState));
  }, 240_000);
});
