import type { League } from '../core/leagues.js';
import type { Logger } from '../core/log.js';
import type { FastcastOptions } from './fastcast-server.js';
import type { FastcastFault } from './fastcast-faults.js';
import type { LeagueCounts } from './slate.js';
import type { FaultController, FaultSpec } from './faults.js';
import type { UpstreamRequestLog } from './request-log.js';
import type { SimulatedGame } from './simulated-game.js';

export type { FaultController, FaultSpec } from './faults.js';
export type { UpstreamRequestLog, UpstreamRequest } from './request-log.js';
export type { SimulatedGame, GameView } from './simulated-game.js';

export interface SimulateOptions {
  games: number;
  seed: number;
  leagues?: League[];
  /** Real-time gap between consecutive games' starts, before `speed` applies; default 5 minutes. */
  staggerMs?: number;
  /**
   * A Saturday slate instead: this many games of each league (`games`, `leagues` and `staggerMs`
   * are then unused), interleaved, tipping off in waves on the hour and half hour (slate.ts).
   */
  perLeague?: LeagueCounts;
}

export interface UpstreamOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Recorded payloads laid out `<league>/<suffix>[__qualifier].json`; the folder must hold one at least. */
  fixturesDir?: string;
  /** Finished summary files, each replayed as a live game starting when the simulator starts. */
  replay?: string[];
  /**
   * FastCast captures (`courtside record --push` files), each replayed as recorded from the
   * simulator's start (times `speed`): the game's topic with its frames, and its summary and
   * scoreboard entry following the captured document. Needs `push`.
   */
  pushReplay?: string[];
  /** Synthetic games, deterministic for a seed; their event ids start with 9, which ESPN's never do. */
  simulate?: SimulateOptions;
  /** Game-time multiplier, default 1. */
  speed?: number;
  /** Injectable wall clock (ms), default Date.now. */
  clock?: { now(): number };
  /** e.g. "error=0.2,timeout=0.05,malformed=0.02,correct=0.05,remove=0.01,latency=200". */
  faults?: string | FaultSpec;
  /** Randomness of faults; default 1. */
  seed?: number;
  /**
   * Which ESPN the simulator plays. `'2026'` (default): ESPN as measured in 2026 (date ranges
   * refused, `limit` above 500 cut to 25 events, blocked User-Agent forms answered by the WAF).
   * `'legacy'`: the ESPN of before, for tests of the old behaviour.
   */
  espnRules?: EspnRules;
  /**
   * Plays FastCast, ESPN's push service, beside the site API (default true): discovery at
   * `/public/websockethost`, the socket, checkpoints, a topic per game. False: polling only.
   */
  push?: boolean;
  /**
   * FastCast behaviours seen on ESPN's service, played for every game or the games named
   * (src/simulator/fastcast-faults.ts), e.g. `"no-h@401585607,absent-keys=10,inflate-bomb=65536"`.
   * `waf` blocks the site API even with push off.
   */
  fastcastFaults?: string | readonly FastcastFault[];
  /** FastCast's timings (heartbeat, publication tick, token lifetime). */
  fastcast?: FastcastOptions;
  logger?: Logger;
}

export type EspnRules = '2026' | 'legacy';
export const ESPN_RULES: readonly EspnRules[] = ['2026', 'legacy'];

export interface RunningUpstream {
  /** http://HOST:PORT, no trailing slash. */
  readonly url: string;
  readonly requests: UpstreamRequestLog;
  readonly faults: FaultController;
  /** The games served, in the order added; `addSlate` and `removeGames` change it. */
  readonly games: readonly SimulatedGame[];
  /**
   * Adds a slate of synthetic games whose first tips off at `startAt` (clock ms; the others
   * staggered after it), listed as scheduled until then; returns the games added. A game whose id
   * is already served is skipped, so a new slate needs a seed of its own.
   */
  addSlate(simulate: SimulateOptions, startAt: number): readonly SimulatedGame[];
  /** Stops serving these games: their ids are answered as unknown from then on. */
  removeGames(games: readonly SimulatedGame[]): void;
  /** FastCast's discovery URL (`<url>/public/websockethost`), or null when push is off. */
  readonly fastcastUrl: string | null;
  close(): Promise<void>;
}
