import type { League } from '../core/leagues.js';
import type { JsonObject, ScoreboardEvent } from './espn-shapes.js';
import type { GameState } from './game-status.js';
import type { Random } from './random.js';

/** Where a simulated game stands at a moment. */
export interface GameView {
  readonly state: GameState;
  readonly period: number;
  readonly displayClock: string;
  readonly clock: number;
  /** The last revealed play ended a period (end of quarter, halftime). */
  readonly endOfPeriod: boolean;
  readonly homeScore: number;
  readonly awayScore: number;
  /** Plays revealed (before removals). */
  readonly revealed: number;
  readonly totalPlays: number;
}

/** A live game the simulator serves: a finished summary revealed over time. */
export interface SimulatedGame {
  readonly league: League;
  readonly id: string;
  /**
   * True for a game the simulator made up (`simulate`), false for a replay of a recorded one.
   * A synthetic game's id starts with 9, which no ESPN event id does.
   */
  readonly synthetic: boolean;
  /** The finished summary payload the game ends as. */
  readonly final: Readonly<JsonObject>;
  /** Clock time (ms) the game starts. */
  readonly startAt: number;
  /** Clock time (ms) the last play is revealed. */
  readonly endAt: number;
  state(now: number): GameView;
  /** The summary payload as ESPN would serve it at `now`. */
  summary(now: number): JsonObject;
  /** The summary as JSON text (cached while nothing changes). */
  summaryText(now: number): string;
  /** The game as a scoreboard `events[]` entry at `now`. */
  scoreboardEvent(now: number): ScoreboardEvent;
  /** Changes an already revealed play (text or score); the change persists. Returns the play id. */
  correctPlay(now: number, random: Random): string | undefined;
  /** Makes an already revealed play vanish from then on. Returns the play id. */
  removePlay(now: number, random: Random): string | undefined;
  /**
   * Reveals a play late: a new play, with an id higher than every other and a sequence number lower
   * than the plays after it, in the middle of the revealed list. Returns its id.
   */
  insertPlay(now: number, random: Random): string | undefined;
  /**
   * Corrects a revealed scoring play down by a point: its value, its running score and that of
   * every play after it, and the game's score. Returns the play id.
   */
  rescorePlay(now: number, random: Random): string | undefined;
}
