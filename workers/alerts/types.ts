import type { League } from '../../src/core/leagues.js';
import type { Score, TeamRef } from '../../src/model/events.js';
import type { RuleName } from '../rules-file.js';

export type { RuleName } from '../rules-file.js';

/** One alert, as pushed to `<prefix>alerts` and POSTed to webhook subscribers. */
export interface Alert {
  /** `<rule>:<league>:<gameId>:<moment>`: the same moment always gives the same id. */
  id: string;
  rule: RuleName;
  league: League;
  gameId: string;
  /** What makes this alert unique within the game (a play id, `final`, `p4`, ...). */
  moment: string;
  /** One line fit for a chat bot. */
  text: string;
  /** When the moment happened: the triggering event's `at`. */
  at: string;
  eventId: string;
  seq: number;
  teams: { home: TeamRef; away: TeamRef };
  score: Score;
  period: number | null;
  clock: string | null;
  /** Rule-specific figures (run points, player id and points, win probability...). */
  details: Record<string, unknown>;
  /**
   * The teams' colours (hex, no `#`) from the game's snapshot, when the worker could read it:
   * chat destinations colour their messages with them.
   */
  colors?: { home: string | null; away: string | null };
}

export type Side = 'home' | 'away';

/** Per-game rule state, kept in Redis as JSON between events. */
export interface GameRuleState {
  /** The game's league (its period names); set from every event. */
  league: League;
  /** `seq` of the newest event applied. */
  lastSeq: number;
  teams: { home: TeamRef; away: TeamRef };
  score: Score;
  period: number | null;
  clock: string | null;
  /** The team that last held the lead (a tie does not clear it). */
  leader: Side | null;
  /**
   * The play that last changed `leader`, and the leader before it: a correction of that play's
   * running score that takes the lead away again gives the lead back to `previous`, silently.
   */
  leadChange?: { playId: string; previous: Side | null };
  /** Highest play `sequence_number` whose running score was applied (late inserts are older). */
  lastPlaySequence: number | null;
  run: { side: Side; points: number; startPlayId: string; alerted: boolean } | null;
  /** Points per athlete id. */
  points: Record<string, number>;
  /** Scoring plays counted: play id → [athlete id, points], so corrections adjust the sums. */
  credited: Record<string, [string, number]>;
  /** Player names seen in scoring play texts, by athlete id. */
  names: Record<string, string>;
  /** Pre-game underdog; undefined until the first win probability. */
  underdog?: Side | null;
  underdogStart?: number;
  ended: boolean;
  /** Moments already alerted in this game (`<rule>:<moment>`), so a condition that holds fires once. */
  fired: string[];
}
