import {
  EVENT_TYPES,
  type EventEnvelope,
  type EventType,
  type GameEndedData,
  type GameSituation,
  type GameSnapshot,
  type GameStartedData,
  type GameStatusData,
  type PeriodData,
  type PlayAddedData,
  type PlayerFouls,
  type PlayRemovedData,
  type PlayRow,
  type PlayUpdatedData,
  type Score,
  type ScoreChangedData,
  type SituationChangedData,
  type SnapshotTeam,
  type TeamRef,
  type Conference,
  type TeamSituation,
  type WinprobChangedData,
} from '../model/events.js';
import { LEAGUES } from '../core/leagues.js';

/**
 * JSON Schemas (draft-07, which AsyncAPI's schema format extends) of what the streams carry: the
 * event envelope, each event type's `data`, and the game snapshot. Every object schema is built
 * from a map keyed by its TypeScript interface's properties, so a property added to the model
 * without a schema here fails to compile. References point into `#/components/schemas/`, the
 * place both the AsyncAPI and the OpenAPI documents keep their schemas.
 */
export type Json = Record<string, unknown>;

export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * An object schema with one entry per property of `T` (the compiler checks the keys) and the
 * required ones named. Extra properties are allowed: a newer daemon may add fields.
 */
function objectOf<T>(
  description: string,
  properties: { [K in keyof T]-?: Json },
  required: ReadonlyArray<RequiredKeys<T>>,
): Json {
  return { type: 'object', description, required: [...required], properties };
}

const nullable = (type: string, extra: Json = {}): Json => ({ type: [type, 'null'], ...extra });
const nullableRef = (name: string): Json => ({ oneOf: [schemaRef(name), { type: 'null' }] });
const str = (description?: string): Json => ({ type: 'string', ...(description ? { description } : {}) });
const int = (description?: string): Json => ({ type: 'integer', ...(description ? { description } : {}) });
const GAME_STATE: Json = { type: 'string', enum: ['pre', 'in', 'post'] };

const PLAY_ROW = objectOf<PlayRow>(
  "One row of the summary's plays table; every column is present, null when ESPN gives no value",
  {
    id: nullable('string'),
    sequence_number: nullable('string'),
    text: nullable('string'),
    away_score: nullable('integer'),
    home_score: nullable('integer'),
    scoring_play: nullable('boolean'),
    score_value: nullable('integer'),
    participants: nullable('string', { description: 'Athlete ids, comma-separated' }),
    wallclock: nullable('string', { description: 'ISO 8601' }),
    shooting_play: nullable('boolean'),
    points_attempted: nullable('integer'),
    short_description: nullable('string'),
    type_id: nullable('string'),
    type_text: nullable('string'),
    period_number: nullable('integer'),
    period_display_value: nullable('string'),
    clock_display_value: nullable('string'),
    team_id: nullable('string'),
    coordinate_x: nullable('number'),
    coordinate_y: nullable('number'),
  },
  [
    'id',
    'sequence_number',
    'text',
    'away_score',
    'home_score',
    'scoring_play',
    'score_value',
    'participants',
    'wallclock',
    'shooting_play',
    'points_attempted',
    'short_description',
    'type_id',
    'type_text',
    'period_number',
    'period_display_value',
    'clock_display_value',
    'team_id',
    'coordinate_x',
    'coordinate_y',
  ],
);

const RANK: Json = nullable('integer', {
  description:
    "The team's poll rank (1-25) when ranked, null when unranked (college; null for the pro leagues)",
});
const CONFERENCE: Json = nullableRef('Conference');

const CONFERENCE_SCHEMA = objectOf<Conference>(
  "A college conference, by ESPN's group id",
  { id: str("ESPN's group id, e.g. 2 (ACC), 23 (SEC)"), name: nullable('string') },
  ['id'],
);

const TEAM_REF = objectOf<TeamRef>(
  'A team by ESPN id and abbreviation, with its rank and conference in college',
  { id: str(), abbreviation: str(), rank: RANK, conference: CONFERENCE },
  ['id', 'abbreviation'],
);

const SCORE = objectOf<Score>('Points of each side', { home: int(), away: int() }, ['home', 'away']);

const PLAYER_FOULS = objectOf<PlayerFouls>(
  "One player's fouls",
  {
    fouls: int('Personal fouls (every foul but technicals)'),
    technicals: int(),
    disqualified: { type: 'boolean', description: 'Fouled out or ejected' },
    name: nullable('string'),
    jersey: nullable('string'),
  },
  ['fouls', 'technicals', 'disqualified', 'name', 'jersey'],
);

const TEAM_SITUATION = objectOf<TeamSituation>(
  "One team's fouls, bonus and timeouts",
  {
    teamId: str(),
    fouls: int('Team fouls in the situation period'),
    bonus: {
      type: 'boolean',
      description: "This team shoots free throws on the other team's next common foul",
    },
    timeouts: {
      type: 'object',
      required: ['taken', 'remaining', 'reset'],
      properties: {
        taken: int(),
        remaining: nullable('integer'),
        reset: {
          oneOf: [
            {
              type: 'object',
              required: ['taken', 'remaining', 'available'],
              properties: { taken: int(), remaining: int(), available: { type: 'boolean' } },
            },
            { type: 'null' },
          ],
          description: "The WNBA's reset timeout; null in the NBA",
        },
      },
    },
    freeThrows: {
      oneOf: [{ type: 'string', enum: ['one_and_one', 'two'] }, { type: 'null' }],
      description:
        "What this team shoots on the other team's next common foul: null (none), one_and_one (men's college, 7th-9th team foul) or two",
    },
    players: {
      type: 'object',
      description: 'By ESPN athlete id',
      additionalProperties: schemaRef('PlayerFouls'),
    },
  },
  ['teamId', 'fouls', 'bonus', 'timeouts', 'players'],
);

const GAME_SITUATION = objectOf<GameSituation>(
  'Team fouls, the bonus, timeouts and fouls per player (docs/events.md, "Game situation")',
  {
    rules: { type: 'string', enum: ['nba', 'wnba', 'ncaam', 'ncaaw'] },
    period: nullable('integer'),
    home: schemaRef('TeamSituation'),
    away: schemaRef('TeamSituation'),
  },
  ['rules', 'period', 'home', 'away'],
);

const SNAPSHOT_TEAM = objectOf<SnapshotTeam>(
  'A team as the scorebug shows it',
  {
    id: str(),
    abbreviation: str(),
    displayName: nullable('string'),
    color: nullable('string', { description: 'Hex colour without #' }),
    alternateColor: nullable('string'),
    logo: nullable('string'),
    rank: RANK,
    conference: CONFERENCE,
  },
  ['id', 'abbreviation', 'displayName', 'color', 'alternateColor', 'logo'],
);

const GAME_SNAPSHOT = objectOf<GameSnapshot>(
  'The current state of one game',
  {
    league: { type: 'string', enum: [...LEAGUES] },
    gameId: str(),
    seq: int('The seq of the newest event applied to this snapshot'),
    state: GAME_STATE,
    status: {
      type: 'object',
      required: ['name', 'detail', 'description'],
      properties: { name: nullable('string'), detail: nullable('string'), description: nullable('string') },
    },
    teams: {
      type: 'object',
      required: ['home', 'away'],
      properties: { home: schemaRef('SnapshotTeam'), away: schemaRef('SnapshotTeam') },
    },
    score: schemaRef('Score'),
    period: nullable('integer'),
    periodLabel: nullable('string', {
      description: "The period's name in its league: 1st Quarter, 2nd Half, OT, 2OT",
    }),
    overtime: { type: 'boolean', description: 'The game is in (or ended in) overtime' },
    clock: nullable('string'),
    date: nullable('string', { description: 'Scheduled start, ISO 8601' }),
    scoreboard: nullable('object', { description: "The scoreboard table's row for this game" }),
    recentPlays: {
      type: 'array',
      items: schemaRef('PlayRow'),
      description: 'The newest plays, oldest first (at most 20)',
    },
    winProbability: {
      oneOf: [
        {
          type: 'object',
          required: ['playId', 'homeWinPercentage', 'tiePercentage'],
          properties: {
            playId: str(),
            homeWinPercentage: { type: 'number' },
            tiePercentage: nullable('number'),
          },
        },
        { type: 'null' },
      ],
    },
    situation: nullableRef('GameSituation'),
    updatedAt: str('ISO 8601'),
  },
  [
    'league',
    'gameId',
    'seq',
    'state',
    'status',
    'teams',
    'score',
    'period',
    'clock',
    'date',
    'scoreboard',
    'recentPlays',
    'winProbability',
    'updatedAt',
  ],
);

const PERIOD = objectOf<PeriodData>(
  'The period',
  {
    period: int(),
    label: str("The period's name in its league: 1st Quarter, 1st Half, OT, 2OT"),
    overtime: { type: 'boolean' },
  },
  ['period'],
);
const AFTER: Json = nullable('string', { description: 'Id of the play just before this one (null: first)' });

/** Each event type's `data`, keyed by the type: a type without a schema fails to compile. */
const EVENT_DATA: { [T in EventType]: Json } = {
  'game.started': objectOf<GameStartedData>(
    'The game went from pre to in',
    { home: schemaRef('TeamRef'), away: schemaRef('TeamRef'), date: nullable('string') },
    ['home', 'away', 'date'],
  ),
  'game.ended': objectOf<GameEndedData>(
    'The game is final',
    {
      score: schemaRef('Score'),
      winner: { type: ['string', 'null'], enum: ['home', 'away', null] },
      periods: int(),
      detail: nullable('string'),
    },
    ['score', 'winner', 'periods', 'detail'],
  ),
  'game.status': objectOf<GameStatusData>(
    "ESPN's status of the game changed",
    {
      state: GAME_STATE,
      previousState: { type: ['string', 'null'], enum: ['pre', 'in', 'post', null] },
      name: nullable('string', { description: 'e.g. STATUS_IN_PROGRESS, STATUS_POSTPONED' }),
      detail: nullable('string'),
      description: nullable('string'),
    },
    ['state', 'previousState', 'name', 'detail', 'description'],
  ),
  'period.started': PERIOD,
  'period.ended': PERIOD,
  'score.changed': objectOf<ScoreChangedData>(
    'The score changed',
    {
      score: schemaRef('Score'),
      previous: schemaRef('Score'),
      period: nullable('integer'),
      clock: nullable('string'),
      correction: {
        const: true,
        description: "Present when a side's score went down (an upstream correction)",
      },
    },
    ['score', 'previous', 'period', 'clock'],
  ),
  'play.added': objectOf<PlayAddedData>(
    'A play appeared',
    {
      play: schemaRef('PlayRow'),
      after: AFTER,
      index: int("Position in the upstream's list (0-based)"),
    },
    ['play'],
  ),
  'play.updated': objectOf<PlayUpdatedData>(
    'A play changed',
    {
      play: schemaRef('PlayRow'),
      changed: { type: 'array', items: str(), description: 'Names of the plays columns that changed' },
      previous: { type: 'object', description: 'The changed columns as they were' },
      after: AFTER,
      moved: { type: 'boolean' },
    },
    ['play', 'changed', 'previous'],
  ),
  'play.removed': objectOf<PlayRemovedData>(
    'A play vanished upstream',
    { playId: str(), play: nullableRef('PlayRow') },
    ['playId', 'play'],
  ),
  'winprob.changed': objectOf<WinprobChangedData>(
    'The home win probability changed',
    {
      playId: str(),
      homeWinPercentage: { type: 'number' },
      previousHomeWinPercentage: nullable('number'),
      tiePercentage: nullable('number'),
    },
    ['playId', 'homeWinPercentage', 'previousHomeWinPercentage', 'tiePercentage'],
  ),
  'situation.changed': objectOf<SituationChangedData>(
    'Fouls, bonus or timeouts changed',
    {
      situation: schemaRef('GameSituation'),
      previous: nullableRef('GameSituation'),
      changed: { type: 'array', items: str() },
    },
    ['situation', 'previous', 'changed'],
  ),
};

/** The schema name of an event type's `data`: `score.changed` → `ScoreChangedData`. */
export function eventDataSchemaName(type: EventType): string {
  return `${type
    .split('.')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}Data`;
}

/** The schema name of a whole event of one type: `score.changed` → `ScoreChangedEvent`. */
export function eventSchemaName(type: EventType): string {
  return eventDataSchemaName(type).replace(/Data$/, 'Event');
}

type EnvelopeKeys = { [K in keyof EventEnvelope]-?: Json };

function eventSchema(type: EventType): Json {
  const properties: EnvelopeKeys = {
    id: str('Deterministic from the content: the same event has the same id on every instance'),
    offset: str('Position in the event log, <ms>-<n>'),
    type: { type: 'string', const: type },
    league: { type: 'string', enum: [...LEAGUES] },
    gameId: str(),
    seq: int('Increases by one per event within a game'),
    at: str('When the engine observed the change, ISO 8601 UTC'),
    teams: {
      type: 'object',
      required: ['home', 'away'],
      properties: { home: schemaRef('TeamRef'), away: schemaRef('TeamRef') },
    },
    data: schemaRef(eventDataSchemaName(type)),
  };
  const required: ReadonlyArray<RequiredKeys<EventEnvelope>> = [
    'id',
    'type',
    'league',
    'gameId',
    'seq',
    'at',
    'teams',
    'data',
  ];
  return { type: 'object', description: `A ${type} event`, required: [...required, 'offset'], properties };
}

/** The snapshot and the pieces it is made of. */
export const SNAPSHOT_SCHEMAS: Readonly<Record<string, Json>> = {
  GameSnapshot: GAME_SNAPSHOT,
  SnapshotTeam: SNAPSHOT_TEAM,
  Score: SCORE,
  PlayRow: PLAY_ROW,
  GameSituation: GAME_SITUATION,
  TeamSituation: TEAM_SITUATION,
  PlayerFouls: PLAYER_FOULS,
  Conference: CONFERENCE_SCHEMA,
};

/** Every schema the streams carry: the snapshot's, each event type's and their union `GameEvent`. */
export function streamSchemas(): Record<string, Json> {
  const schemas: Record<string, Json> = { ...SNAPSHOT_SCHEMAS, TeamRef: TEAM_REF };
  for (const type of EVENT_TYPES) {
    schemas[eventDataSchemaName(type)] = EVENT_DATA[type];
    schemas[eventSchemaName(type)] = eventSchema(type);
  }
  schemas.GameEvent = {
    description: 'Any event; `type` says which',
    oneOf: EVENT_TYPES.map((type) => schemaRef(eventSchemaName(type))),
    discriminator: 'type',
  };
  return schemas;
}
