import type { Subscription } from 'rxjs';
import type { GameKey } from '../src/bus/types.js';
import type { League } from '../src/core/leagues.js';
import type { ScoreboardRow } from '../src/tables/index.js';
import type { ScheduledGame } from './cadence.js';
import type { Custody } from './custody.js';
import type { PollerStatus } from './engine-types.js';
import type { Following } from './game-feed.js';

/** One game this instance knows from a scoreboard: its listing, its follower and its custody. */
export interface GameTracker {
  readonly key: GameKey;
  /** From the scoreboard; null until a scoreboard listed the game. */
  scheduled: ScheduledGame | null;
  row: ScoreboardRow | null;
  /** `row` came with a scoreboard poll after the last commit: the next diff takes it in. */
  rowFresh: boolean;
  sub: Subscription | null;
  custody: Custody;
  /** Polls in a row that saw the game over. */
  postPolls: number;
  /** In its closing minutes or overtime, as last diffed: first served by the live budget. */
  urgent: boolean;
  readonly status: PollerStatus;
  /** Whether this instance stands by for the game or follows it itself, since when. */
  following: Following;
}

/** What one turn of a game's follower leaves it to do: go on at the next tick, or stop. */
export type PollOutcome = 'continue' | 'stop';

/** A game's key as one string (maps, the live budget). */
export const gameKeyOf = (league: League, gameId: string): string => `${league}:${gameId}`;
