// The event model as the client library ships it: a copy of src/model/events.ts (and the League
// of src/core/leagues.ts) that needs nothing else from courtside. test/live-client/types.test.ts
// fails when the two drift apart.

export type League = 'mens' | 'womens' | 'mens-college' | 'womens-college';

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
  /** Poll rank (1-25) when ranked, null when unranked; absent from older daemons. */
  rank?: number | null;
  /** The team's conference (college), null when the upstream names none. */
  conference?: Conference | null;
}

/** A college conference, by ESPN's group id (`2` ACC, `8` Big 12, `23` SEC…). */
export interface Conference {
  id: string;
  /** The conference's name, when the payload gives it. */
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
  /** The period's name in the game's league: `1st Quarter`, `2nd Half`, `OT`, `2OT`; absent from older daemons. */
  label?: string;
  /** True for an overtime period; absent from older daemons. */
  overtime?: boolean;
}

export interface ScoreChangedData {
  score: Score;
  previous: Score;
  period: number | null;
  clock: string | null;
  /** Present (true) when a side's score went down: the upstream corrected a scoring play. */
  correction?: true;
}

export interface PlayAddedData {
  play: PlayRow;
  /** Id of the play just before this one in the upstream's list (null: first). */
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
  /** Personal fouls, as the box score's PF counts them (in college, technicals too). */
  fouls: number;
  /** Unsportsmanlike technical fouls charged to the player. */
  technicals: number;
  /** Six personal fouls (five in college), two technicals, two flagrant 1s or a flagrant 2: out of the game. */
  disqualified: boolean;
  name: string | null;
  jersey: string | null;
}

/** What a team shoots on a common foul in the bonus. */
export type FreeThrows = 'one_and_one' | 'two';

/** One team's part of the game situation. */
export interface TeamSituation {
  teamId: string;
  /** Team fouls charged to this team in the situation's period. */
  fouls: number;
  /** True when this team shoots free throws on the other team's next common foul. */
  bonus: boolean;
  /**
   * What this team shoots on the other team's next common foul: null, a one-and-one (men's
   * college, 7th to 9th team foul of the half) or two free throws; absent from older daemons.
   */
  freeThrows?: FreeThrows | null;
  timeouts: {
    taken: number;
    /** Null only in situations stored by versions that gave a WNBA overtime no number. */
    remaining: number | null;
    /**
     * The WNBA's reset timeout; null in the NBA. `remaining`: left in the current window (the last
     * two minutes of the 4th or of an overtime), or the one to come before it; `available`: it may
     * be called now.
     */
    reset: { taken: number; remaining: number; available: boolean } | null;
  };
  /** Players charged with at least one foul or technical, by ESPN athlete id. */
  players: Record<string, PlayerFouls>;
}

/** Team fouls, the bonus, timeouts and fouls per player. */
export interface GameSituation {
  /** `nba`, `wnba`, `ncaam` (men's college) or `ncaaw` (women's college). */
  rules: 'nba' | 'wnba' | 'ncaam' | 'ncaaw';
  /** The period the team fouls count for; null before the game has one. */
  period: number | null;
  home: TeamSituation;
  away: TeamSituation;
}

export interface SituationChangedData {
  /** The whole new situation: a consumer replaces what it held. */
  situation: GameSituation;
  /** The situation before (null: none was computed before). */
  previous: GameSituation | null;
  /** What changed: `period`, `home.fouls`, `away.bonus`, `home.timeouts`, `away.players`... */
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
  /** Position in the event log. */
  offset?: string;
  type: T;
  league: League;
  gameId: string;
  /** Increases by one per event within a game, across restarts and fail-overs. */
  seq: number;
  /** When the engine observed the change, ISO 8601 UTC. */
  at: string;
  teams: { home: TeamRef; away: TeamRef };
  data: EventDataMap[T];
}

/** The discriminated union of all events: `event.type` narrows `event.data`. */
export type GameEvent = { [T in EventType]: EventEnvelope<T> }[EventType];

/** A team as the scorebug shows it. */
export interface SnapshotTeam extends TeamRef {
  displayName: string | null;
  /** Hex colour without `#`. */
  color: string | null;
  alternateColor: string | null;
  logo: string | null;
}

/** The current state of one game: a `snapshot` frame, and `GET /v1/games/<league>/<id>`. */
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
  /** The period's name (`1st Half`, `OT`); null before the game has a period; absent from older daemons. */
  periodLabel?: string | null;
  /** True while the game is in (or ended in) overtime; absent from older daemons. */
  overtime?: boolean;
  clock: string | null;
  /** Scheduled start, ISO 8601. */
  date: string | null;
  scoreboard: Record<string, unknown> | null;
  /** The newest plays, oldest first (at most 20). */
  recentPlays: PlayRow[];
  winProbability: { playId: string; homeWinPercentage: number; tiePercentage: number | null } | null;
  /** Fouls, bonus and timeouts; null before the engine knows the teams; absent from older daemons. */
  situation?: GameSituation | null;
  updatedAt: string;
}
