import { readFileSync } from 'node:fs';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { createClient } from '../../src/client/client.js';
import type { League } from '../../src/core/leagues.js';
import { silentLogger } from '../../src/core/log.js';
import { createFastcastClient, type FastcastListener } from '../../src/espn/fastcast-client.js';
import type { GameEvent } from '../../src/model/events.js';
import { parsePlays } from '../../src/tables/index.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { createReplayGame } from '../../src/simulator/replay-game.js';
import { createEngine, type Engine } from '../../streams/engine.js';
import { diffSummary } from '../../streams/game-diff.js';
import { newGameState, restoreGameState, type GameDiffState } from '../../streams/game-state.js';
import type { RawPlay } from '../../streams/play-fingerprint.js';
import type { FixtureFile } from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const STOPS = /END_PERIOD|END_OF_PERIOD|HALFTIME/;
const END_GAME = '402';

/**
 * Where a game's event stream breaks game-clock order, as readable lines (empty when none):
 * a play added to period N after an event that ends period N (`period.ended` N, or an
 * end-of-period / halftime `game.status`, which ends the last period started before it), other
 * than ESPN's "End of Game" marker; any play event after the final `game.status`; a play of a
 * period not started before it.
 */
export function orderViolations(events: readonly GameEvent[]): string[] {
  const out: string[] = [];
  const started = new Set<number>();
  let current = 0;
  let endedUpTo = 0;
  let endedBy = '';
  let final: string | null = null;
  for (const e of events) {
    const at = `${e.type} seq ${e.seq}`;
    if (e.type === 'period.started') {
      started.add(e.data.period);
      current = Math.max(current, e.data.period);
    } else if (e.type === 'period.ended') {
      if (e.data.period > endedUpTo) [endedUpTo, endedBy] = [e.data.period, at];
    } else if (e.type === 'game.status') {
      if (e.data.state === 'post' && final === null) final = `${at} (${e.data.name ?? '?'})`;
      if (e.data.name !== null && STOPS.test(e.data.name) && current > endedUpTo) {
        [endedUpTo, endedBy] = [current, `${at} (${e.data.name})`];
      }
    } else if (e.type === 'play.added' || e.type === 'play.updated' || e.type === 'play.removed') {
      const id = e.type === 'play.removed' ? e.data.playId : e.data.play.id;
      if (final !== null) out.push(`${at} (play ${id}) comes after the final status, ${final}`);
      if (e.type === 'play.removed') continue;
      const period = e.data.play.period_number;
      if (period === null) continue;
      if (!started.has(period)) out.push(`${at} (play ${id}, period ${period}) precedes its period.started`);
      // ESPN enters its "End of Game" play (type 402) seconds after "End of the 4th Quarter", and
      // the status says End of 4th in between: that play does follow the end of its period.
      if (e.type === 'play.added' && period <= endedUpTo && e.data.play.type_id !== END_GAME) {
        out.push(
          `${at} (play ${id}, period ${period}) comes after ${endedBy}, which ended period ${endedUpTo}`,
        );
      }
    }
  }
  return out;
}

export interface ReplayPoll {
  /** Simulator clock of the poll (game ms after the first play). */
  at: number;
  events: GameEvent[];
}

export interface ReplayRun {
  polls: ReplayPoll[];
  events: GameEvent[];
  /** The last summary served (the finished game). */
  last: Record<string, any>;
}

/**
 * Replays a recorded finished game through `diffSummary`, one poll per `stepMs` of game time
 * (or one per reveal when `stepMs` is `'reveal'`), with the simulator's reveal of plays and its
 * status (end of period, halftime, final). Starts one poll before tip-off and ends one poll after
 * the final, as the engine does. `restartAt`: poll indexes after which the diff state is rebuilt
 * from what the bus would hold, as after a fail-over.
 */
export function replayByPolls(
  league: League,
  final: Record<string, any>,
  stepMs: number | 'reveal',
  restartAt: ReadonlySet<number> = new Set(),
): ReplayRun {
  const game = createReplayGame({ league, final, startAt: 0, speed: 1 });
  const times: number[] = [-1];
  if (stepMs === 'reveal') {
    const wall = (final.plays as any[]).map((p) => Date.parse(p.wallclock)).filter(Number.isFinite);
    const t0 = Math.min(...wall);
    times.push(...[...new Set(wall.map((t) => t - t0))].sort((a, b) => a - b));
  } else {
    for (let t = 0; t < game.endAt; t += stepMs) times.push(t);
    times.push(game.endAt);
  }
  times.push(game.endAt + 1);

  let state: GameDiffState = newGameState(league, game.id);
  let meta: unknown;
  const entries = new Map<string, unknown>();
  const polls: ReplayPoll[] = [];
  const events: GameEvent[] = [];
  let last: Record<string, any> = {};
  times.forEach((at, i) => {
    last = game.summary(at);
    const d = diffSummary(state, last, {
      now: Date.UTC(2025, 0, 1) + at,
      toRows: (plays: readonly RawPlay[]) => parsePlays({ plays }),
      where: `${league}_summary?event=${game.id}`,
    });
    if (d.kind !== 'diff') throw new Error(`poll ${i} at ${at} judged stale: ${d.reason}`);
    d.apply();
    meta = JSON.parse(JSON.stringify(d.delta.meta));
    for (const [k, v] of d.delta.set ?? []) entries.set(k, JSON.parse(JSON.stringify(v)));
    const mine = d.events as GameEvent[];
    polls.push({ at, events: mine });
    events.push(...mine);
    if (restartAt.has(i)) state = restoreGameState(league, game.id, { meta, entries });
  });
  return { polls, events, last };
}

export interface LiveReplay {
  sim: RunningUpstream;
  engine: Engine;
  bus: Bus;
  /** Every event the engine emitted, in order. */
  events: GameEvent[];
  /** Wall-clock ms from the engine's start to the last game's end. */
  ms: number;
}

/** The simulator speed that plays the longest of `files` (finished games) in `replayMs`. */
function replaySpeed(files: readonly FixtureFile[], replayMs: number): number {
  const spans = files.map((f) => {
    const final = JSON.parse(readFileSync(f.file, 'utf8')) as Record<string, any>;
    const t = (final.plays as any[]).map((p) => Date.parse(p.wallclock)).filter(Number.isFinite);
    return Math.max(...t) - Math.min(...t);
  });
  return spans.length ? Math.max(...spans) / replayMs : 1;
}

/**
 * Real time, real sockets: the simulator replays the recorded `files` at the speed that plays the
 * longest in `replayMs`, and the engine polls each game every `summaryMs` (default 100) into a
 * memory bus (or `bus`), until every game has ended and its poller stopped. What it starts is
 * pushed on `cleanup` for the test's afterEach.
 */
export async function replayLive(options: {
  files: readonly FixtureFile[];
  replayMs: number;
  seed: number;
  waitMs: number;
  cleanup: Array<() => Promise<void>>;
  faults?: string;
  bus?: Bus;
  summaryMs?: number;
  /** Live games over the simulator's FastCast, reconciled by a summary poll every `reconcileMs`. */
  push?: { reconcileMs: number };
}): Promise<LiveReplay> {
  const { files, cleanup } = options;
  const sim = await startUpstream({
    replay: files.map((f) => f.file),
    speed: replaySpeed(files, options.replayMs),
    seed: options.seed,
    ...(options.faults ? { faults: options.faults } : {}),
  });
  cleanup.push(() => sim.close());
  const client = createClient({
    upstream: sim.url,
    timeoutMs: 400,
    retries: 1,
    retryBaseMs: 10,
    retryMaxMs: 50,
  });
  cleanup.push(() => client.close());
  const bus = options.bus ?? createMemoryBus();
  cleanup.push(() => bus.close());
  const engine = createEngine({
    client,
    leagues: [...new Set(files.map((f) => f.league))] as League[],
    bus,
    allowFastIntervals: true,
    ...(options.push
      ? {
          push: {
            reconcileMs: options.push.reconcileMs,
            connect: (listener: FastcastListener) =>
              createFastcastClient(
                {
                  discoveryUrl: sim.fastcastUrl as string,
                  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36',
                  origin: 'https://www.espn.com',
                  timeoutMs: 1000,
                  backoffBaseMs: 20,
                  backoffMaxMs: 200,
                  retryTopicMs: 100,
                  resyncMinMs: 20,
                  fetchDocument: (request) => client.fetchDocument(request),
                  logger: silentLogger,
                },
                listener,
              ),
          },
        }
      : {}),
    intervals: {
      summaryMs: options.summaryMs ?? 100,
      scoreboardLiveMs: 200,
      scoreboardGameDayMs: 200,
      scoreboardIdleMs: 200,
      backoffMaxMs: 400,
    },
  });
  cleanup.push(() => engine.close());
  const events: GameEvent[] = [];
  engine.events$.subscribe((e) => events.push(e));
  const t0 = Date.now();
  engine.start();
  await waitFor(
    () =>
      sim.games.every(
        (g) =>
          engine.status().find((p) => p.gameId === g.id)?.state === 'stopped' &&
          events.some((e) => e.gameId === g.id && e.type === 'game.ended'),
      ),
    options.waitMs,
    'every game to end and its poller to stop',
  );
  return { sim, engine, bus, events, ms: Date.now() - t0 };
}
