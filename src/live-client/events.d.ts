// Generated from src/model/events.ts by `npm run gen:events-dts`: do not edit, change the
// model and run it again. The types the model imports are inlined, so that the client library
// needs nothing else from courtside. test/live-client/typecheck/drift.ts checks them against the model.

/** The model's `League` (src/core/leagues.ts). */
export type League = 'mens' | 'womens' | 'mens-college' | 'womens-college';

/**
 * The event model. Every event shares one envelope; `type` discriminates `data`.
 * `id` is deterministic from the content (an updated play's id carries a version hash), so a
 * duplicate caused by a restart or fail-over is recognisable downstream. `seq` increases per game.
 * `offset` is the position in the event log, assigned when the event is appended.
 */
export type EventType =
  | 'game.started'
  | 'game.ended'
  | 'game.status'
  | 'period.started'
  | 'period.ended'
  | 'score.changed'
  | 'play.added'
  | 'play.updated'
  | 'play.removed'
  | 'winprob.changed'
  | 'situation.changed';

/** One row of the summary's `plays` table, exact columns and types. */
export interface PlayRow {
  id: string | null;
  sequence_number: string | null;
  text: string | null;
  away_score: number | null;
  home_score: number | null;
  scoring_play: boolean | null;
  score_value: number | null;
  participants: string | null;
  wallclock: string | null;
  shooting_play: boolean | null;
  points_attempted: number | null;
  short_description: string | null;
  type_id: string | null;
  type_text: string | null;
  period_number: number | null;
  period_display_value: string | null;
  clock_display_value: string | null;
  team_id: string | null;
  coordinate_x: number | null;
  coordinate_y: number | null;
}

export interface TeamRef {
  id: string;
  abbreviation: string;
  /**
   * The team's poll rank (1-25) when ranked, null when unranked. Set by the engine on every event
   * and snapshot; absent only in events stored by versions before it.
   */
  rank?: number | null;
  /** The team's conference (college), null when the upstream names none (the pro leagues). */
  conference?: Conference | null;
}

/** A college conference, by ESPN's group id (`2` ACC, `8` Big 12, `23` SEC…). */
export interface Conference {
  id: string;
  /** The conference's name, when the payload gives it (a conference game's header does). */
  name: string | null;
}

export interface Score {
  home: number;
  away: number;
}

export type GameState = 'pre' | 'in' | 'post';

export interface GameStartedData {
  home: TeamRef;
  away: TeamRef;
  /** Scheduled start, ISO 8601. */
  date: string | null;
}

export interface GameEndedData {
  score: Score;
  /** `home`, `away`, or null if the upstream names no winner. */
  winner: 'home' | 'away' | null;
  periods: number;
  detail: string | null;
}

export interface GameStatusData {
  state: GameState;
  previousState: GameState | null;
  /** ESPN status type name, e.g. STATUS_IN_PROGRESS, STATUS_POSTPONED, STATUS_SUSPENDED. */
  name: string | null;
  detail: string | null;
  description: string | null;
}

export interface PeriodData {
  period: number;
  /**
   * The period's name for the game's league: `1st Quarter`, `2nd Half`, `OT`, `2OT`. Absent only in
   * events stored by versions before it.
   */
  label?: string;
  /** True for an overtime period. Absent only in events stored by versions before it. */
  overtime?: boolean;
}

export interface ScoreChangedData {
  score: Score;
  previous: Score;
  period: number | null;
  clock: string | null;
  /**
   * Present (true) when a side's score went down: the upstream corrected a scoring play (a three
   * ruled a two, a basket waived off), so this is not a moment of the game.
   */
  correction?: true;
}

export interface PlayAddedData {
  play: PlayRow;
  /**
   * Id of the play just before this one in the upstream's list (null: first). Plays are not
   * sorted by sequence number upstream; inserting after `after` rebuilds the upstream's order.
   */
  after?: string | null;
  /** Position in the upstream's list when the event was produced (0-based); a fallback for `after`. */
  index?: number;
}

export interface PlayUpdatedData {
  play: PlayRow;
  /** Names of the `plays` columns whose values changed. */
  changed: string[];
  previous: Partial<PlayRow>;
  /** Present when the play changed position in the upstream's list: move it after this id (null: first). */
  after?: string | null;
  /** True when the play changed position (then `changed` may be empty). */
  moved?: boolean;
}

export interface PlayRemovedData {
  playId: string;
  /** The last row held for the play before it vanished. */
  play: PlayRow | null;
}

export interface WinprobChangedData {
  playId: string;
  homeWinPercentage: number;
  previousHomeWinPercentage: number | null;
  tiePercentage: number | null;
}

/** One player's fouls, for foul-trouble graphics. */
export interface PlayerFouls {
  /**
   * Personal fouls, as the box score's PF counts them: every foul but technicals in the NBA and
   * WNBA; in college technicals too (they count toward the five that disqualify).
   */
  fouls: number;
  /** Unsportsmanlike technical fouls charged to the player (two eject, in both leagues). */
  technicals: number;
  /**
   * Six personal fouls (five in college: fouled out), two technicals, two flagrant fouls type 1
   * (NBA, WNBA) or one flagrant foul type 2 (ejected): the player is out of the game.
   */
  disqualified: boolean;
  /** From the summary's box score when it lists the player, else null. */
  name: string | null;
  jersey: string | null;
}

/** What a team shoots on a common foul in the bonus: a one-and-one, or two free throws. */
export type FreeThrows = 'one_and_one' | 'two';

/** One team's part of the game situation. */
export interface TeamSituation {
  /** ESPN team id (the same as the game's `teams.home.id` or `teams.away.id`). */
  teamId: string;
  /** Team fouls charged to this team in the situation's period, by the league's rule. */
  fouls: number;
  /**
   * True when THIS team shoots free throws on the other team's next common foul: the other team
   * has used up the fouls it may commit without penalty this period. The scorebug's bonus marker
   * goes next to this team.
   */
  bonus: boolean;
  /**
   * What THIS team shoots on the other team's next common foul: null (no free throws: the other
   * team is within its fouls), `one_and_one` (men's college, from the other team's 7th team foul
   * of the half) or `two` (the penalty in the NBA, the WNBA and women's college; men's college
   * from the 10th). `bonus` is `freeThrows !== null`. Absent only in situations stored before it.
   */
  freeThrows?: FreeThrows | null;
  timeouts: {
    /** Charged team timeouts taken in the game so far, overtime included. */
    taken: number;
    /**
     * Team timeouts the team may still call now, by the league's rule. Null only in situations
     * stored by versions that gave a WNBA overtime no number.
     */
    remaining: number | null;
    /**
     * The WNBA's reset timeout (one in the last two minutes of the 4th and one in those of each
     * overtime, never carried); null in the NBA. `taken`: in the game so far. `remaining`: what is
     * left of the current window's one, or, before a window opens, the one the team will have in it
     * (1). `available`: true only inside the window while one is left, when it may be called.
     */
    reset: { taken: number; remaining: number; available: boolean } | null;
  };
  /** Players charged with at least one foul or technical, by ESPN athlete id. */
  players: Record<string, PlayerFouls>;
}

/**
 * Team fouls, the bonus, timeouts and fouls per player, recomputed from the whole play list on
 * every poll (docs/events.md, "Game situation").
 */
export interface GameSituation {
  /**
   * The rules applied: `nba` for league `mens`, `wnba` for `womens`, `ncaam` for `mens-college`,
   * `ncaaw` for `womens-college`.
   */
  rules: 'nba' | 'wnba' | 'ncaam' | 'ncaaw';
  /** The period the team fouls count for; null before the game has one. */
  period: number | null;
  home: TeamSituation;
  away: TeamSituation;
}

export interface SituationChangedData {
  /** The whole new situation: a consumer replaces what it held. */
  situation: GameSituation;
  /** The situation before (null: none was computed before), as `score.changed` carries the score before. */
  previous: GameSituation | null;
  /** What changed: `period`, `home.fouls`, `away.bonus`, `home.timeouts`, `away.players`… */
  changed: string[];
}

export interface EventDataMap {
  'game.started': GameStartedData;
  'game.ended': GameEndedData;
  'game.status': GameStatusData;
  'period.started': PeriodData;
  'period.ended': PeriodData;
  'score.changed': ScoreChangedData;
  'play.added': PlayAddedData;
  'play.updated': PlayUpdatedData;
  'play.removed': PlayRemovedData;
  'winprob.changed': WinprobChangedData;
  'situation.changed': SituationChangedData;
}

export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  /** Position in the event log; absent until appended. */
  offset?: string;
  type: T;
  league: League;
  gameId: string;
  /** Increases by one per event within a game, across restarts and fail-overs. */
  seq: number;
  /** When the engine observed the change, ISO 8601 UTC. */
  at: string;
  /** The game's two teams, so consumers can filter by team without a lookup. */
  teams: { home: TeamRef; away: TeamRef };
  data: EventDataMap[T];
}

/** The discriminated union of all events. */
export type GameEvent = { [T in EventType]: EventEnvelope<T> }[EventType];

/** A team as the scorebug shows it. */
export interface SnapshotTeam extends TeamRef {
  displayName: string | null;
  /** Hex colour without `#`. */
  color: string | null;
  alternateColor: string | null;
  logo: string | null;
}

/**
 * The current state of one game: what a `snapshot` frame, `GET /v1/games/<league>/<id>` and the
 * overlay show. Built by the engine and stored with the game's state on the bus, so every
 * instance serves the same snapshot whichever instance polls the game.
 */
export interface GameSnapshot {
  league: League;
  gameId: string;
  /** The `seq` of the newest event applied to this snapshot. */
  seq: number;
  state: GameState;
  status: { name: string | null; detail: string | null; description: string | null };
  teams: { home: SnapshotTeam; away: SnapshotTeam };
  score: Score;
  period: number | null;
  /**
   * The period's name (`1st Half`, `3rd Quarter`, `OT`, `2OT`), null before the game has a period.
   * Absent only in snapshots stored by versions before it.
   */
  periodLabel?: string | null;
  /** True while the game is in (or ended in) overtime. Absent only in snapshots stored before it. */
  overtime?: boolean;
  clock: string | null;
  /** Scheduled start, ISO 8601. */
  date: string | null;
  /** The scoreboard table's row for this game, when the scoreboard has been seen. */
  scoreboard: Record<string, unknown> | null;
  /** The newest plays, oldest first (at most 20). */
  recentPlays: PlayRow[];
  winProbability: { playId: string; homeWinPercentage: number; tiePercentage: number | null } | null;
  /**
   * Fouls, bonus and timeouts (see `GameSituation`); null before the engine knows the teams.
   * Absent only in snapshots stored by versions before it.
   */
  situation?: GameSituation | null;
  updatedAt: string;
}
