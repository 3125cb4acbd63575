import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidOptionsError } from '../core/errors.js';
import { DEFAULT_LEAGUES, LEAGUES, isLeague, leagueOfSegment, type League } from '../core/leagues.js';
import { silentLogger, type Logger } from '../core/log.js';
import { obj } from '../tables/cells.js';
import type { JsonObject } from './espn-shapes.js';
import { DISCOVERY_PATH } from '../espn/fastcast-wire.js';
import { readCaptureFile } from '../espn/fastcast-capture.js';
import { createCaptureGame } from './capture-game.js';
import { captureTimeline, createCaptureClock } from './capture-timeline.js';
import { FastcastFaults } from './fastcast-faults.js';
import { createFastcast } from './fastcast-server.js';
import { createPushReplay } from './fastcast-replay.js';
import { Faults } from './faults.js';
import { FixtureStore, fixturesProblem } from './fixture-store.js';
import { createReplayGame } from './replay-game.js';
import { readReplaySummary } from './replay-summary.js';
import { RequestLog } from './request-log.js';
import { createSimulatorServer } from './server.js';
import type { SimulatedGame } from './simulated-game.js';
import { generateFinishedSummary } from './synthetic-game.js';
import { syntheticGameId } from './synthetic-ids.js';
import { saturdayOffsets, slateLeagues } from './slate.js';
import { ESPN_RULES, type RunningUpstream, type SimulateOptions, type UpstreamOptions } from './types.js';

export type {
  UpstreamOptions,
  RunningUpstream,
  SimulateOptions,
  FaultController,
  FaultSpec,
  UpstreamRequestLog,
  UpstreamRequest,
  SimulatedGame,
  GameView,
  EspnRules,
} from './types.js';
export { parseFaultSpec } from './faults.js';
export { FASTCAST_FAULTS, parseFastcastFaults } from './fastcast-faults.js';
export type { FastcastFault, FastcastFaultName } from './fastcast-faults.js';
export { parseSimulateSpec, type LeagueCounts } from './slate.js';
export { generateFinishedSummary } from './synthetic-game.js';

// Tip-offs five minutes apart make an evening's slate: the games are at different stages at once.
const DEFAULT_STAGGER_MS = 5 * 60_000;
// Synthetic ids number a game's place in its slate with three digits (synthetic-ids.ts).
const MAX_SLATE = 1000;

/**
 * Starts the simulator upstream: ESPN's paths for all 44 operations, from recordings,
 * replays, synthetic games and generated payloads, with injectable faults. An event, team or
 * athlete id it has nothing for gets the error ESPN answers for an unknown id.
 */
export async function startUpstream(options: UpstreamOptions = {}): Promise<RunningUpstream> {
  const clock = options.clock ?? { now: () => Date.now() };
  const logger = options.logger ?? silentLogger;
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new InvalidOptionsError(`speed: ${speed} is invalid; expected a number > 0`);
  const startAt = clock.now();
  const { games, addGame, addSlate } = servedGames(logger, speed);
  if (options.fixturesDir !== undefined) {
    const problem = fixturesProblem(options.fixturesDir);
    if (problem) throw new InvalidOptionsError(`fixturesDir: ${problem}`);
  }
  for (const file of options.replay ?? []) {
    const final = readReplaySummary(file);
    addGame(createReplayGame({ league: leagueOf(final, file), final, startAt, speed }), file);
  }
  if (options.simulate) addSlate(options.simulate, startAt);
  const captures = (options.pushReplay ?? []).map((file) => {
    if (options.push === false)
      throw new InvalidOptionsError('pushReplay: a capture is replayed over FastCast; expected push on');
    const capture = readCaptureFile(file, 'pushReplay');
    const captureClock = createCaptureClock(capture, clock, speed);
    addGame(createCaptureGame(capture, { startAt, speed, clock: captureClock }), file);
    return { timeline: captureTimeline(capture), clock: captureClock };
  });
  const replay = captures.length === 0 ? undefined : createPushReplay({ topics: captures, clock });
  const faults = new Faults(options.faults, options.seed ?? 1);
  const log = new RequestLog();
  const store = new FixtureStore(options.fixturesDir);
  const espnRules = options.espnRules ?? '2026';
  if (!ESPN_RULES.includes(espnRules))
    throw new InvalidOptionsError(
      `espnRules: "${String(espnRules)}" is invalid; expected ${ESPN_RULES.join(' or ')}`,
    );
  const pushFaults = new FastcastFaults(options.fastcastFaults);
  await pushFaults.prepare();
  const fastcast =
    options.push === false
      ? undefined
      : createFastcast(
          { games, faults, pushFaults, clock, logger, ...(replay ? { replay } : {}) },
          options.fastcast,
        );
  const sim = createSimulatorServer({
    store,
    games,
    faults,
    log,
    clock,
    logger,
    espnRules,
    blockEveryAgent: pushFaults.has('waf'),
    ...(fastcast ? { fastcast } : {}),
  });
  const url = await listen(sim.server, options.port ?? 0, options.host ?? '127.0.0.1');
  fastcast?.attach(sim.server, () => url);
  logger.info({ url, games: games.length, recordings: store.size }, 'upstream simulator listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    requests: log,
    faults,
    games,
    addSlate(simulate, from) {
      const added = addSlate(simulate, from);
      logger.info({ games: added.length, seed: simulate.seed }, 'upstream simulator: a new slate');
      return added;
    },
    removeGames(gone) {
      for (const game of gone) {
        const i = games.indexOf(game);
        if (i >= 0) games.splice(i, 1);
      }
    },
    fastcastUrl: fastcast ? url + DISCOVERY_PATH : null,
    close() {
      fastcast?.close();
      closing ??= new Promise<void>((resolve) => {
        sim.server.close(() => resolve());
        sim.destroyAll();
      });
      return closing;
    },
  };
}

interface ServedGames {
  /** In the order added; the running upstream's `games`. */
  readonly games: SimulatedGame[];
  /** Adds a game unless its id is served already (logged with `source`, then skipped). */
  addGame(game: SimulatedGame, source: string): void;
  /** A slate of synthetic games whose first tips off at `from`; returns the games added. */
  addSlate(simulate: SimulateOptions, from: number): SimulatedGame[];
}

function servedGames(logger: Logger, speed: number): ServedGames {
  const games: SimulatedGame[] = [];
  const addGame = (game: SimulatedGame, source: string): void => {
    if (games.some((g) => g.league === game.league && g.id === game.id)) {
      logger.warn(
        { id: game.id, source },
        'upstream simulator: a game with this id is already served; skipped',
      );
      return;
    }
    games.push(game);
  };
  const addSlate = (simulate: SimulateOptions, from: number): SimulatedGame[] => {
    const { seed } = simulate;
    const plan = slatePlan(simulate);
    const before = games.length;
    // Each game's place among its league's games of the slate, which picks its teams.
    const slots = new Map<League, number>();
    plan.leagues.forEach((league, i) => {
      const slot = slots.get(league) ?? 0;
      slots.set(league, slot + 1);
      const final = generateFinishedSummary(league, syntheticGameId(seed, i), { seed, index: i, slot });
      const startAt = from + (plan.offsets[i] as number) / speed;
      addGame(createReplayGame({ league, final, startAt, speed, synthetic: true }), `simulate#${i}`);
    });
    return games.slice(before);
  };
  return { games, addGame, addSlate };
}

/** Listens on `host`:`port` (0: any free port); returns the simulator's URL. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** Each synthetic game's league and tip-off offset (real-time ms after the first). */
function slatePlan(simulate: SimulateOptions): { leagues: League[]; offsets: number[] } {
  if (simulate.perLeague) {
    for (const [league, n] of simulate.perLeague) {
      if (!isLeague(league) || !Number.isInteger(n) || n < 0)
        throw new InvalidOptionsError(
          `simulate.perLeague: ${String(league)}=${n} is invalid; expected a league of ${LEAGUES.join(', ')} and an integer >= 0`,
        );
    }
    const leagues = slateLeagues(simulate.perLeague);
    if (leagues.length > MAX_SLATE)
      throw new InvalidOptionsError(
        `simulate.perLeague: ${leagues.length} games; expected at most ${MAX_SLATE}`,
      );
    return { leagues, offsets: saturdayOffsets(leagues.length, simulate.seed) };
  }
  const { games: count, leagues = [...DEFAULT_LEAGUES] } = simulate;
  if (!Number.isInteger(count) || count < 0)
    throw new InvalidOptionsError(`simulate.games: ${count} is invalid; expected an integer >= 0`);
  if (!leagues.length || !leagues.every(isLeague))
    throw new InvalidOptionsError(`simulate.leagues: expected a non-empty list of ${LEAGUES.join(', ')}`);
  const stagger = simulate.staggerMs ?? DEFAULT_STAGGER_MS;
  return {
    leagues: Array.from({ length: count }, (_, i) => leagues[i % leagues.length] as League),
    offsets: Array.from({ length: count }, (_, i) => i * stagger),
  };
}

/**
 * The league of a replayed summary: from the header's league slug (ESPN's path segment, `nba`,
 * `mens-college-basketball`), else from the file's folder (`<league>/…`), else the men's league.
 */
function leagueOf(final: JsonObject, file: string): League {
  const slug = obj(obj(final.header).league).slug;
  const bySlug = typeof slug === 'string' ? leagueOfSegment(slug) : undefined;
  if (bySlug) return bySlug;
  const folder = /([a-z-]+)[/\\][^/\\]+$/.exec(file)?.[1];
  if (folder !== undefined && isLeague(folder)) return folder;
  return /wnba/i.test(file) ? 'womens' : 'mens';
}
