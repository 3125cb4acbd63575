import { OPERATIONS, type OperationSpec } from '../../espn/operations.js';
import { PARAM_RULES } from '../../espn/params.js';
import { columnsFor, SUMMARY_TABLE_NAMES } from '../../tables/index.js';
import { VERSION } from '../../core/version.js';
import { LEAGUE_INFO, LEAGUES } from '../../core/leagues.js';
import { HTTP_ERROR_CODES, sendError, type RouteHandler } from '../http-types.js';
import { CONTENT_TYPES, FORMATS } from './ops.js';
import { SNAPSHOT_SCHEMAS } from '../stream-schemas.js';
import { isRead, JSON_TYPE, sendBody } from './respond.js';

/**
 * `GET /openapi.json`: an OpenAPI 3.1 document generated from the operation registry, so the
 * documented API is exactly the served one.
 */
export interface OpenApiOptions {
  /** When true, the document declares the bearer scheme and requires it everywhere. */
  auth?: boolean;
}

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

/** The filters `/v1/games/live` and `/` share (games-query.ts reads them). */
const GAMES_FILTERS: Json[] = [
  {
    name: 'league',
    in: 'query',
    description: `One or more leagues, comma-separated or repeated: ${LEAGUES.join(', ')}`,
    schema: { type: 'string', example: 'mens-college,womens-college' },
  },
  {
    name: 'conference',
    in: 'query',
    description:
      'ESPN conference (group) ids, comma-separated or repeated; a game matches when either team is in one (2 ACC, 8 Big 12, 23 SEC)',
    schema: { type: 'string', pattern: '^[0-9]{1,6}(,[0-9]{1,6})*$', example: '2,23' },
  },
  {
    name: 'ranked',
    in: 'query',
    description: 'true (or 1): only games where either team has a poll rank; false: every game',
    schema: { enum: ['true', '1', 'false', '0'] },
  },
];

const TEAM_COMPACT: Json = {
  type: 'object',
  required: ['abbreviation', 'rank', 'score'],
  properties: {
    abbreviation: { type: 'string' },
    rank: { type: ['integer', 'null'], description: 'poll rank 1-25, null when unranked' },
    score: { type: 'integer' },
  },
};

const COMPACT_GAME: Json = {
  type: 'object',
  description: 'One game in a few fields (view=compact)',
  required: ['id', 'league', 'state', 'away', 'home', 'period', 'clock', 'feed'],
  properties: {
    id: { type: 'string' },
    league: { enum: [...LEAGUES] },
    state: { enum: ['pre', 'in', 'post'] },
    away: TEAM_COMPACT,
    home: TEAM_COMPACT,
    period: { type: ['string', 'null'], description: "the period's label: 1st Half, 3rd Quarter, OT" },
    clock: { type: ['string', 'null'] },
    feed: {
      type: ['string', 'null'],
      description:
        'how this instance follows the game (push, polling, standby); null when it does not track it',
    },
  },
};

export function buildOpenApi(options: OpenApiOptions = {}): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS.values()) paths[`/v1/ops/${op.name}`] = { get: operationItem(op) };
  Object.assign(paths, fixedPaths());
  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'courtside',
      version: VERSION,
      description:
        "Typed tables, raw payloads, live game state and event streams from ESPN's public basketball API (NBA = mens, WNBA = womens, NCAA men's = mens-college, NCAA women's = womens-college; operation names use mens_college_ and womens_college_).",
    },
    paths,
    components: {
      schemas: {
        CompactGame: COMPACT_GAME,
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: {
                  enum: [...HTTP_ERROR_CODES],
                  description: 'docs/errors.md lists each with its status',
                },
                message: { type: 'string' },
                upstreamStatus: { type: 'integer', description: 'HTTP status the upstream answered, on 502' },
              },
            },
          },
        },
        Row: {
          type: 'object',
          additionalProperties: true,
          description: 'One row; values are strings, numbers, booleans or null',
        },
        ...SNAPSHOT_SCHEMAS,
      },
      responses: {
        NotModified: { description: 'The client already holds this body (If-None-Match matched the ETag)' },
        BadRequest: errorResponse('Invalid parameter, named in the message; nothing was sent upstream'),
        NotFound: errorResponse('Unknown operation or game'),
        Unauthorized: errorResponse('Missing or invalid bearer token'),
        RedisUnavailable: {
          ...errorResponse(
            'REDIS_UNAVAILABLE: Redis is restarting or unreachable; retry after Retry-After seconds',
          ),
          headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
        },
      },
      ...(options.auth
        ? {
            securitySchemes: {
              bearerAuth: {
                type: 'http',
                scheme: 'bearer',
                description: 'A token from COURTSIDE_TOKENS; `?token=` also works',
              },
            },
          }
        : {}),
    },
  };
  if (options.auth) document.security = [{ bearerAuth: [] }];
  return document;
}

function operationItem(op: OperationSpec): Json {
  const parameters: Json[] = op.params.map((name) => ({
    name,
    in: 'query',
    required:
      (op.pathParams as readonly string[]).includes(name) ||
      op.queryParams.some((q) => q.name === name && q.required === true),
    description: PARAM_RULES[name].expected,
    schema: { type: 'string' },
  }));
  parameters.push({
    name: 'format',
    in: 'query',
    required: false,
    description:
      'json (rows, the default), rows (same), csv, arrow (Arrow IPC stream) or raw (the upstream JSON)',
    schema: { enum: [...FORMATS], default: 'json' },
  });
  const isSummary = op.result === 'summary';
  if (isSummary) {
    parameters.push({
      name: 'table',
      in: 'query',
      required: false,
      description: 'One summary table; required with format=csv and format=arrow',
      schema: { enum: [...SUMMARY_TABLE_NAMES] },
    });
  }
  return {
    operationId: op.name,
    summary: `${LEAGUE_INFO[op.league].title} ${op.suffix.replace(/_/g, ' ')}`,
    tags: [op.league],
    parameters,
    responses: {
      '200': {
        description: `The ${op.result} result; Cache-Control max-age ${Math.floor(op.ttlMs / 1000)} s`,
        headers: {
          ETag: { schema: { type: 'string' } },
          'Cache-Control': { schema: { type: 'string' } },
          'Courtside-Notice': {
            description:
              'One per change to the call: `<kind>; <sentence>`, kind limit-capped, range-merged, ' +
              'calendar-from-scoreboard or empty-body (docs/operations.md)',
            schema: { type: 'string' },
          },
          'Courtside-Source': {
            description:
              'Where the answer came from when not the endpoint itself: merged-scoreboards, scoreboard-calendar, empty-body',
            schema: { type: 'string' },
          },
        },
        content: {
          'application/json': { schema: jsonSchemaFor(op) },
          [CONTENT_TYPES.csv.split(';')[0] as string]: { schema: { type: 'string' } },
          [CONTENT_TYPES.arrow]: { schema: { type: 'string', contentEncoding: 'binary' } },
        },
      },
      '304': { $ref: '#/components/responses/NotModified' },
      '400': { $ref: '#/components/responses/BadRequest' },
      '401': { $ref: '#/components/responses/Unauthorized' },
      '404': { $ref: '#/components/responses/NotFound' },
      '429': {
        ...errorResponse(
          "RATE_LIMITED: this client is over its rate; ON_DEMAND_BUDGET: the daemon's on-demand upstream budget is spent and no earlier answer is held",
        ),
        headers: {
          'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
          RateLimit: {
            description: "What is left of the client's quota (IETF draft)",
            schema: { type: 'string' },
          },
          'RateLimit-Policy': { description: "The client's quota (IETF draft)", schema: { type: 'string' } },
        },
      },
      '502': errorResponse(
        'The upstream failed or answered an unusable payload; upstreamStatus carries its status',
      ),
      '504': errorResponse('The upstream did not answer in time'),
    },
  };
}

function rowsSchema(columns: readonly string[] | undefined): Json {
  if (!columns) return { type: 'array', items: ref('Row') };
  return {
    type: 'array',
    items: {
      type: 'object',
      required: [...columns],
      properties: Object.fromEntries(
        columns.map((c) => [c, { type: ['string', 'number', 'integer', 'boolean', 'null'] }]),
      ),
    },
  };
}

function jsonSchemaFor(op: OperationSpec): Json {
  const rawNote = { description: 'format=raw: the upstream JSON object as ESPN returns it', type: 'object' };
  if (op.result !== 'summary') return { oneOf: [rowsSchema(safeColumns(op.name)), rawNote] };
  const tables = Object.fromEntries(SUMMARY_TABLE_NAMES.map((t) => [t, rowsSchema(safeColumns(op.name, t))]));
  return {
    oneOf: [
      { type: 'object', description: 'Without `table`: every summary table by name', properties: tables },
      { type: 'array', description: 'With `table`: that table’s rows', items: ref('Row') },
      rawNote,
    ],
  };
}

function safeColumns(operation: string, table?: string): readonly string[] | undefined {
  try {
    return columnsFor(operation, table);
  } catch {
    return undefined;
  }
}

/** The paths that are not operations, by route group, in the document's order. */
function fixedPaths(): Record<string, Json> {
  return { ...gamePaths(), ...servicePaths(), ...streamPaths() };
}

const json = (schema: Json, description: string): Json => ({
  description,
  content: { 'application/json': { schema } },
});

/** The home page and the games' state. */
function gamePaths(): Record<string, Json> {
  return {
    '/': {
      get: {
        operationId: 'home',
        summary:
          'A small HTML page: the upstream state, the live games by league with their overlays and filter links, the endpoints, the docs',
        parameters: GAMES_FILTERS,
        responses: {
          '200': { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } },
          '400': { $ref: '#/components/responses/BadRequest' },
        },
      },
    },
    '/v1/games/live': {
      get: {
        operationId: 'games_live',
        summary: 'Current state of every game in progress, and what the polls say of the upstream',
        parameters: [
          ...GAMES_FILTERS,
          {
            name: 'view',
            in: 'query',
            description: 'full (default): each game as a snapshot; compact: one small object per game',
            schema: { enum: ['full', 'compact'], default: 'full' },
          },
        ],
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['games'],
              properties: {
                games: {
                  type: 'array',
                  items: { oneOf: [ref('GameSnapshot'), ref('CompactGame')] },
                  description: 'GameSnapshot, or CompactGame with view=compact',
                },
                upstream: {
                  type: 'object',
                  description:
                    'The polls of the upstream: an empty list with ok false means no data, not a quiet night',
                  required: ['ok', 'since', 'lastError'],
                  properties: {
                    ok: { type: ['boolean', 'null'], description: 'null before the first poll ended' },
                    since: { type: ['string', 'null'], format: 'date-time' },
                    lastError: {
                      type: ['object', 'null'],
                      properties: {
                        at: { type: 'string', format: 'date-time' },
                        code: { type: 'string' },
                        message: { type: 'string' },
                      },
                    },
                  },
                },
              },
            },
            'Games in progress',
          ),
          '400': { $ref: '#/components/responses/BadRequest' },
          '503': { $ref: '#/components/responses/RedisUnavailable' },
        },
      },
    },
    '/v1/games/{league}/{gameId}': {
      get: {
        operationId: 'game_state',
        summary: 'Current state of one game',
        parameters: [
          { name: 'league', in: 'path', required: true, schema: { enum: [...LEAGUES] } },
          {
            name: 'gameId',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[A-Za-z0-9-]{1,64}$' },
          },
        ],
        responses: {
          '200': json(ref('GameSnapshot'), 'The game snapshot'),
          '400': { $ref: '#/components/responses/BadRequest' },
          '404': { $ref: '#/components/responses/NotFound' },
          '503': { $ref: '#/components/responses/RedisUnavailable' },
        },
      },
    },
  };
}

/** The operator's probes and the two documents. */
function servicePaths(): Record<string, Json> {
  return {
    '/healthz': {
      get: {
        operationId: 'healthz',
        summary: 'Upstream reachability, Redis, poller states',
        responses: {
          '200': json({ type: 'object' }, 'Healthy'),
          '503': json({ type: 'object' }, 'Unhealthy; the body says which part failed'),
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics (text exposition format)',
        responses: {
          '200': { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1 document') },
      },
    },
    '/v1/asyncapi.json': {
      get: {
        operationId: 'asyncapi',
        summary: 'The AsyncAPI 3 document of the WebSocket and SSE streams',
        responses: { '200': json({ type: 'object' }, 'AsyncAPI 3 document') },
      },
    },
  };
}

/** The WebSocket and SSE streams (their protocol: the AsyncAPI document). */
function streamPaths(): Record<string, Json> {
  return {
    '/v1/stream': {
      get: {
        operationId: 'stream_ws',
        summary: 'WebSocket event stream (upgrade); protocol in docs/protocol.md',
        responses: { '101': { description: 'Switching protocols to WebSocket' } },
      },
    },
    '/v1/stream/sse': {
      get: {
        operationId: 'stream_sse',
        summary: 'Server-Sent Events stream with the same filters as query parameters',
        parameters: ['leagues', 'games', 'teams', 'conferences', 'ranked', 'types', 'since', 'delay'].map(
          (name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string' },
          }),
        ),
        responses: {
          '200': {
            description: 'Event stream',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
        },
      },
    },
  };
}

export function createOpenApiRoute(options: OpenApiOptions = {}): RouteHandler {
  let body: string | undefined;
  return (req, res, url) => {
    if (url.pathname !== '/openapi.json') return false;
    if (!isRead(req)) {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET', { headers: { allow: 'GET, HEAD' } });
      return true;
    }
    // Built once: the registry does not change while the process runs.
    body ??= JSON.stringify(buildOpenApi(options));
    sendBody(req, res, body, { contentType: JSON_TYPE, cacheControl: 'public, max-age=3600' });
    return true;
  };
}
