import { readFileSync } from 'node:fs';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { createEspnClient } from '../../src/espn-client/client.js';
import type { League } from '../../src/core/leagues.js';
import { createFastcastClient } from '../../src/espn/fastcast-client.js';
import { createFastcastGames } from '../../src/espn/fastcast-games.js';
import type { GameEvent } from '../../src/model/events.js';
import { parsePlays } from '../../src/tables/index.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { createReplayGame, revealSchedule } from '../../src/simulator/replay-game.js';
import { createEngine, type Engine } from '../../streams/engine.js';
import { diffSummary } from '../../streams/game-diff.js';
import { newGameState, restoreGameState, type GameDiffState } from '../../streams/diff-state.js';
import type { RawPlay } from '../../streams/play-fingerprint.js';
import type { FixtureFile } from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';
import { testFastcastOptions } from '../support/fastcast-test-options.js';

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

/** A recorded game's plays in the two orders that the daemon's order may follow. */
export interface PlayReveal {
  /** Play ids in the final list's order (the upstream's order). */
  readonly list: readonly string[];
  /** Play ids in the simulator's reveal order, cut into the groups it reveals at one moment. */
  readonly moments: readonly (readonly string[])[];
  /**
   * The plays of every pair that the two orders put differently: a play revealed before a play
   * listed above it, and that play. Only their relative order may differ between two daemons.
   */
  readonly late: ReadonlySet<string>;
}

/** The reveal of a finished game's plays, by the simulator's own schedule (replay-game.ts). */
export function playReveal(final: Record<string, any>): PlayReveal {
  const plays = (final.plays ?? []) as Record<string, any>[];
  const list = plays.map((p) => String(p.id));
  const { offsets, order } = revealSchedule(plays);
  const moments: string[][] = [];
  order.forEach((i, k) => {
    const previous = order[k - 1];
    if (previous === undefined || offsets[previous] !== offsets[i]) moments.push([]);
    moments[moments.length - 1]?.push(list[i] as string);
  });
  const late = new Set<string>();
  offsets.forEach((t, j) => {
    for (let i = 0; i < j; i++) {
      if ((offsets[i] as number) <= t) continue;
      late.add(list[i] as string);
      late.add(list[j] as string);
    }
  });
  return { list, moments, late };
}

/**
 * Where a game's `play.added` ids break the order contract (docs/events.md, "Order of plays"):
 * plays come in the order the daemon saw them revealed, and the plays one document brought in
 * the upstream's list order. So the ids must cut into consecutive batches, each the plays of
 * consecutive reveal moments, each in list order. Any pair of plays then comes in list order or in
 * reveal order, and a pair on which both agree in that order. Empty when the contract holds.
 */
export function revealOrderViolations(ids: readonly string[], reveal: PlayReveal): string[] {
  const position = new Map(reveal.list.map((id, i) => [id, i]));
  const revealed = reveal.moments.flat();
  const momentEnds = new Set<number>();
  let n = 0;
  for (const m of reveal.moments) momentEnds.add((n += m.length));
  if (ids.length !== revealed.length || new Set(ids).size !== ids.length)
    return [`${ids.length} plays added (${new Set(ids).size} distinct) for ${revealed.length} revealed`];
  const out: string[] = [];
  // Balance of plays emitted but not yet revealed (+1) and revealed but not yet emitted (-1) in
  // the current batch: it closes at the first moment boundary where both hold the same plays.
  const balance = new Map<string, number>();
  let open = 0;
  const bump = (id: string, by: number): void => {
    const was = balance.get(id) ?? 0;
    balance.set(id, was + by);
    open += (was + by !== 0 ? 1 : 0) - (was !== 0 ? 1 : 0);
  };
  let start = 0;
  for (let k = 0; k < ids.length; k++) {
    bump(ids[k] as string, 1);
    bump(revealed[k] as string, -1);
    if (open !== 0 || !momentEnds.has(k + 1)) continue;
    // The smallest batch: every cut of a valid partition is one of these, so checking the finest
    // batches checks them all.
    for (let i = start + 1; i <= k; i++) {
      const [a, b] = [ids[i - 1] as string, ids[i] as string];
      if ((position.get(a) as number) > (position.get(b) as number))
        out.push(
          `play ${b} (list ${position.get(b)}) after play ${a} (list ${position.get(a)}) in one batch`,
        );
    }
    balance.clear();
    start = k + 1;
  }
  if (start < ids.length)
    out.push(
      `from play.added ${start} (play ${ids[start]}) on, no cut where the plays are the next revealed`,
    );
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
  const client = createEspnClient({
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
            connect: (listener) =>
              createFastcastGames(
                (topics) =>
                  createFastcastClient(
                    testFastcastOptions(sim.fastcastUrl as string, {
                      timeoutMs: 1000,
                      backoffBaseMs: 20,
                      resyncMinMs: 20,
                      // A whole game replays in seconds here, with faults on every kind of loss: a real
                      // game's resync budget would be spent by design, and pausing push is not under test.
                      resyncLimit: { count: 1_000_000, windowMs: 60_000, pauseMs: 60_000 },
                      fetchDocument: (request) => client.fetchDocument(request),
                    }),
                    topics,
                  ),
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
