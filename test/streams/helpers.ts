import { DEFAULT_LIVE_BUDGET } from '../../streams/poll-budget.js';
import { VirtualTime } from '../support/virtual-time.js';
import { createMemoryBus } from '../../src/bus/memory.js';
import { UpstreamHttpError, UpstreamPayloadError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { easternDay } from '../../src/espn/eastern-day.js';
import type { GameEvent, PlayRow } from '../../src/model/events.js';
import { DEFAULT_FINISHED_GAME_TTL_MS, resolveIntervals } from '../../streams/engine-config.js';
import { createEngine, type Engine, type EngineOptions } from '../../streams/engine.js';
import {
  createEngineContext,
  type EngineContextOptions,
  type EngineRuntime,
} from '../../streams/engine-context.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */
type Json = Record<string, any>;

/** A raw ESPN play, as the summary's `plays` array holds it. */
export function rawPlay(n: number, overrides: Json = {}): Json {
  const scoring = n % 3 === 0;
  return {
    id: `9000${n}`,
    sequenceNumber: String(n),
    type: { id: scoring ? '92' : '584', text: scoring ? 'Jump Shot' : 'Substitution' },
    text: `play ${n}`,
    awayScore: Math.floor(n / 2),
    homeScore: Math.floor(n / 3),
    period: { number: 1, displayValue: '1st Quarter' },
    clock: { displayValue: `${11 - (n % 11)}:00` },
    scoringPlay: scoring,
    scoreValue: scoring ? 2 : 0,
    team: { id: n % 2 === 0 ? '1' : '2' },
    participants: [{ athlete: { id: String(100 + n) } }],
    wallclock: new Date(Date.UTC(2025, 0, 1, 1, 0, n)).toISOString().replace('.000', ''),
    shootingPlay: scoring,
    coordinate: scoring ? { x: 10, y: 5 } : { x: -214748340, y: -214748365 },
    ...overrides,
  };
}

/** A `plays` row for the pure diff tests. */
export function playRow(n: number, overrides: Partial<PlayRow> = {}): PlayRow {
  return {
    id: `9000${n}`,
    sequence_number: String(n),
    text: `play ${n}`,
    away_score: Math.floor(n / 2),
    home_score: Math.floor(n / 3),
    scoring_play: false,
    score_value: 0,
    participants: null,
    wallclock: null,
    shooting_play: false,
    points_attempted: null,
    short_description: null,
    type_id: '584',
    type_text: 'Substitution',
    period_number: 1,
    period_display_value: '1st Quarter',
    clock_display_value: '10:00',
    team_id: '1',
    coordinate_x: null,
    coordinate_y: null,
    ...overrides,
  };
}

export interface SummaryInput {
  state: 'pre' | 'in' | 'post';
  name?: string;
  detail?: string;
  period?: number | null;
  clock?: string;
  home?: number | null;
  away?: number | null;
  plays?: Json[] | undefined;
  winprob?: Array<{ playId: string; home: number }>;
  id?: string;
  date?: string;
  completed?: boolean;
}

const DEFAULT_NAME = { pre: 'STATUS_SCHEDULED', in: 'STATUS_IN_PROGRESS', post: 'STATUS_FINAL' } as const;

/** A raw summary with the header fields the engine reads. */
export function summary(input: SummaryInput): Json {
  const competitor = (
    homeAway: 'home' | 'away',
    id: string,
    abbr: string,
    score: number | null | undefined,
  ) => ({
    id,
    homeAway,
    team: {
      id,
      abbreviation: abbr,
      displayName: `${abbr} team`,
      color: '000000',
      alternateColor: 'ffffff',
      logos: [],
    },
    ...(score === null || score === undefined ? {} : { score: String(score) }),
    ...(input.state === 'post'
      ? {
          winner:
            homeAway === 'home'
              ? (input.home ?? 0) > (input.away ?? 0)
              : (input.away ?? 0) > (input.home ?? 0),
        }
      : {}),
  });
  const out: Json = {
    header: {
      id: input.id ?? '401',
      competitions: [
        {
          id: input.id ?? '401',
          date: input.date ?? '2025-01-01T01:00Z',
          status: {
            ...(input.period === null ? {} : { period: input.period ?? (input.state === 'pre' ? 0 : 1) }),
            displayClock: input.clock ?? '12:00',
            type: {
              name: input.name ?? DEFAULT_NAME[input.state],
              state: input.state,
              completed: input.completed ?? input.state === 'post',
              detail: input.detail ?? input.name ?? DEFAULT_NAME[input.state],
              description: input.name ?? DEFAULT_NAME[input.state],
            },
          },
          competitors: [
            competitor('home', '1', 'HOM', input.home),
            competitor('away', '2', 'AWY', input.away),
          ],
        },
      ],
    },
  };
  if (input.plays !== undefined) out.plays = input.plays;
  if (input.winprob !== undefined) {
    out.winprobability = input.winprob.map((w) => ({
      playId: w.playId,
      homeWinPercentage: w.home,
      tiePercentage: 0,
    }));
  }
  return out;
}

/** A raw scoreboard listing games. */
export function scoreboard(games: Array<{ id: string; state: 'pre' | 'in' | 'post'; date: string }>): Json {
  return {
    events: games.map((g) => ({
      id: g.id,
      date: g.date,
      name: 'AWY at HOM',
      shortName: 'AWY @ HOM',
      competitions: [
        {
          id: g.id,
          date: g.date,
          competitors: [
            { homeAway: 'home', team: { id: '1', abbreviation: 'HOM' }, score: '0' },
            { homeAway: 'away', team: { id: '2', abbreviation: 'AWY' }, score: '0' },
          ],
          status: {
            period: 0,
            displayClock: '0.0',
            type: { state: g.state, name: DEFAULT_NAME[g.state], completed: g.state === 'post' },
          },
        },
      ],
      status: {
        period: 0,
        displayClock: '0.0',
        type: { state: g.state, name: DEFAULT_NAME[g.state], completed: g.state === 'post' },
      },
    })),
  };
}

/**
 * Applies play events the way a consumer should: additions after the play they name (`after`),
 * updates in place (moved when `after` is given), removals. Returns rows in upstream order.
 */
export function reconstructPlays(events: readonly GameEvent[]): PlayRow[] {
  const rows = new Map<string, PlayRow>();
  const order: string[] = [];
  const place = (id: string, after: string | null | undefined, index: number | undefined) => {
    const at =
      after === null
        ? 0
        : after !== undefined && order.includes(after)
          ? order.indexOf(after) + 1
          : (index ?? order.length);
    order.splice(at, 0, id);
  };
  for (const e of events) {
    if (e.type === 'play.added') {
      const id = e.data.play.id as string;
      if (rows.has(id)) throw new Error(`play ${id} added twice without removal`);
      rows.set(id, e.data.play);
      place(id, e.data.after, e.data.index);
    } else if (e.type === 'play.updated') {
      const id = e.data.play.id as string;
      if (!rows.has(id)) throw new Error(`update of unknown play ${id}`);
      rows.set(id, e.data.play);
      if (e.data.moved) {
        order.splice(order.indexOf(id), 1);
        place(id, e.data.after, undefined);
      }
    } else if (e.type === 'play.removed') {
      if (!rows.delete(e.data.playId)) throw new Error(`removal of unknown play ${e.data.playId}`);
      order.splice(order.indexOf(e.data.playId), 1);
    }
  }
  return order.map((id) => rows.get(id) as PlayRow);
}

/**
 * A virtual-time scheduler whose clock reads epoch milliseconds (so "starts within 10 minutes"
 * compares with real dates), advanced step by step while letting promises (bus, client) settle.
 * `idle` defaults to a few turns of the event loop, enough for in-memory fakes; real sockets need
 * it to wait for their answers.
 */
export class VirtualClock extends VirtualTime {
  constructor(start = Date.UTC(2025, 0, 1, 0, 0), idle: () => Promise<void> = () => settle()) {
    super(start, idle);
  }
}

/** Lets pending promise chains and I/O callbacks run. */
export async function settle(rounds = 8): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

export interface ScriptGame {
  id: string;
  state: 'pre' | 'in' | 'post';
  start: number;
  plays: number;
  home: number;
  name?: string;
  /** Default 1 (0 before the start) and 10:00. */
  period?: number;
  clock?: string;
}

/**
 * An upstream scripted by the test: the engine's client contract is `call(operation, params)`,
 * and these tests need the upstream to move in virtual time, which a socket server cannot.
 * The real client and simulator are exercised in replay.test.ts.
 */
export class Script {
  games = new Map<string, ScriptGame>();
  /** `dates`: the board's day, for a dated scoreboard read. */
  calls: Array<{ op: string; id: string | undefined; at: number; dates?: string }> = [];
  inflight = 0;
  maxInflight = 0;
  failing = new Map<string, number>();
  /** Answers that are JSON but not a usable summary, per game id. */
  garbage = new Map<string, number>();
  /** Games the default board no longer lists (it moved on to the next day); dated boards still do. */
  offDefaultBoard = new Set<string>();
  /** A game's Eastern day when not that of its start. */
  boardDay = new Map<string, string>();
  constructor(private clock: { now(): number }) {}

  add(game: Partial<ScriptGame> & { id: string }): ScriptGame {
    const g = { state: 'in' as const, start: Date.UTC(2025, 0, 1, 0, 0), plays: 0, home: 0, ...game };
    this.games.set(g.id, g);
    return g;
  }

  client = {
    call: async (op: string, params?: Record<string, string | number>): Promise<unknown> => {
      const id = params?.event_id === undefined ? undefined : String(params.event_id);
      const dates = params?.dates === undefined ? undefined : String(params.dates);
      this.calls.push({ op, id, at: this.clock.now(), ...(dates === undefined ? {} : { dates }) });
      // Failures are keyed by game id, by `<op>?dates` for a dated board, else by the operation.
      const failKey = id ?? (dates === undefined ? op : `${op}?dates`);
      const left = this.failing.get(failKey) ?? 0;
      if (left > 0) {
        this.failing.set(failKey, left - 1);
        throw new UpstreamHttpError(503, `http://upstream/${op}`);
      }
      const junk = this.garbage.get(id ?? op) ?? 0;
      if (junk > 0) {
        this.garbage.set(id ?? op, junk - 1);
        return { header: { competitions: [] }, plays: 'not a list' };
      }
      if (op.endsWith('_scoreboard')) {
        // The default board lists every game (the tests' idea of "today"); a dated board those
        // of that Eastern day, as ESPN files them.
        const listed = [...this.games.values()].filter(
          (g) => dates === undefined || (this.boardDay.get(g.id) ?? easternDay(g.start)) === dates,
        );
        if (dates === undefined) {
          const hidden = this.offDefaultBoard;
          return scoreboard(
            listed
              .filter((g) => !hidden.has(g.id))
              .map((g) => ({ id: g.id, state: g.state, date: new Date(g.start).toISOString() })),
          );
        }
        return scoreboard(
          listed.map((g) => ({
            id: g.id,
            state: g.state,
            date: new Date(g.start).toISOString(),
          })),
        );
      }
      const g = this.games.get(id ?? '');
      if (!g) throw new UpstreamPayloadError(`http://upstream/${op}`, 'no such game');
      return summary({
        id: g.id,
        state: g.state,
        ...(g.name ? { name: g.name } : {}),
        period: g.period ?? (g.state === 'pre' ? 0 : 1),
        clock: g.clock ?? '10:00',
        home: g.home,
        away: 0,
        plays: g.state === 'pre' ? undefined : Array.from({ length: g.plays }, (_, i) => rawPlay(i)),
      });
    },
  };

  summaryCalls(id: string): number[] {
    return this.calls.filter((c) => c.id === id).map((c) => c.at);
  }
  /** Reads of the default board (no `dates`). */
  scoreboardCalls(): number[] {
    return this.calls.filter((c) => c.op.endsWith('_scoreboard') && c.dates === undefined).map((c) => c.at);
  }
  /** Reads of a dated board, with the day asked for. */
  datedCalls(): Array<{ at: number; dates: string }> {
    return this.calls.flatMap((c) =>
      c.op.endsWith('_scoreboard') && c.dates !== undefined ? [{ at: c.at, dates: c.dates }] : [],
    );
  }
}

/** The context the engine's parts share, on virtual time and a memory bus, for testing one part. */
export function engineContext(
  clock: VirtualClock,
  client: EngineContextOptions['client'],
  overrides: Partial<EngineContextOptions> = {},
): EngineRuntime {
  return createEngineContext({
    client,
    bus: createMemoryBus({ now: () => clock.now() }),
    scheduler: clock,
    logger: silentLogger,
    intervals: resolveIntervals({ client, leagues: ['mens'] }),
    instanceId: 'test',
    finishedGameTtlMs: DEFAULT_FINISHED_GAME_TTL_MS,
    random: () => 0.5,
    liveBudget: DEFAULT_LIVE_BUDGET,
    ...overrides,
  });
}

/**
 * The whole engine over a script's client, on virtual time and (unless `options.bus` gives one) a
 * memory bus, with every event it emits collected in `events`. Not started; the caller closes it.
 */
export function scriptedEngine(
  script: Script,
  clock: VirtualClock,
  options: Partial<EngineOptions> = {},
): { bus: NonNullable<EngineOptions['bus']>; engine: Engine; events: GameEvent[] } {
  const bus = options.bus ?? createMemoryBus({ now: () => clock.now() });
  const engine = createEngine({
    client: script.client,
    leagues: ['mens'],
    bus,
    scheduler: clock,
    random: () => 0.5,
    ...options,
  });
  const events: GameEvent[] = [];
  engine.events$.subscribe((e) => events.push(e));
  return { bus, engine, events };
}
