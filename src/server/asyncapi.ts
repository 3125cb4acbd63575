import { z } from 'zod';
import { VERSION } from '../core/version.js';
import {
  VIEWER_ERROR_CODES,
  VIEWER_OPS as VIEWER_MESSAGES,
  viewerMessageSchemas,
  DEFAULT_LIMITS,
  MAX_DELAY_SECONDS,
} from './viewer-protocol.js';
import { SERVER_FRAME_TYPES, type ServerFrameType } from './delivery/frames.js';
import { schemaRef, streamSchemas, type Json } from './stream-schemas.js';

/**
 * The AsyncAPI 3 document of `/v1/stream` (WebSocket) and `/v1/stream/sse`, described from the
 * server's side: it receives the viewer messages and sends the frames. The viewer messages are
 * the zod schemas the gateway validates with, converted to JSON Schema; the frames are keyed by
 * `ServerFrame`'s types and the events by `EventType`, so the compiler refuses a frame or an event
 * type the document does not describe. docs/protocol.md explains the behaviour behind each.
 */
export interface AsyncApiOptions {
  /** When true, the servers require a token (bearer header or `?token=`). */
  auth?: boolean;
}

const msgRef = (name: string): Json => ({ $ref: `#/components/messages/${name}` });
const channelMsgRef = (channel: string, name: string): Json => ({
  $ref: `#/channels/${channel}/messages/${name}`,
});

type ViewerOp = (typeof VIEWER_MESSAGES)[number];

const frameName = (type: ServerFrameType): string => `${type}Frame`;

/** A zod schema as an AsyncAPI (draft-07) schema, without the `$schema` key AsyncAPI does not take. */
function fromZod(schema: z.ZodType): Json {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Json;
  return rest;
}

const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  op: 'The operation',
  id: 'The subscription id, unique on the connection',
  leagues: 'Only events of these leagues (mens = NBA, womens = WNBA)',
  games: 'Only events of these ESPN game ids',
  teams: 'Only events of games these teams play (ids or abbreviations, case-insensitive)',
  types: 'Only events of these types',
  since: 'Replay every matching event logged after this offset, then continue live',
  snapshot: 'Send a snapshot of each matching game first (default false)',
  delay: 'Spoiler delay in seconds: the subscription shows every game as it was this long ago',
};

function described(schema: Json): Json {
  const properties = schema.properties as Record<string, Json>;
  for (const [name, value] of Object.entries(properties)) {
    const description = FIELD_DESCRIPTIONS[name];
    if (description) value.description = description;
  }
  return schema;
}

const OFFSET: Json = {
  type: 'string',
  pattern: '^[0-9]{1,15}-[0-9]{1,15}$',
  description: 'A log offset, <ms>-<n>',
};
const typed = (type: ServerFrameType): Json => ({ type: 'string', const: type });

/** Each server frame's payload, keyed by its type (`ServerFrame` in delivery/frames.ts). */
const FRAME_PAYLOADS: { [T in ServerFrameType]: Json } = {
  welcome: {
    type: 'object',
    required: ['type', 'version', 'heartbeatMs', 'retention', 'offset', 'limits'],
    properties: {
      type: typed('welcome'),
      version: { type: 'string' },
      heartbeatMs: { type: 'integer', description: 'Interval of the server pings' },
      retention: { type: 'integer', description: 'Events kept in the log' },
      offset: { ...OFFSET, description: 'Newest offset this server has delivered' },
      limits: {
        type: 'object',
        required: [
          'maxSubscriptions',
          'maxFilterValues',
          'maxMessageBytes',
          'maxBufferedBytes',
          'maxDelaySeconds',
        ],
        properties: Object.fromEntries(
          [
            'maxSubscriptions',
            'maxFilterValues',
            'maxMessageBytes',
            'maxBufferedBytes',
            'maxDelaySeconds',
          ].map((name) => [name, { type: 'integer' }]),
        ),
      },
    },
  },
  subscribed: {
    type: 'object',
    required: ['type', 'id', 'offset'],
    properties: {
      type: typed('subscribed'),
      id: { type: 'string' },
      offset: { ...OFFSET, description: 'Live delivery starts after this offset' },
    },
  },
  snapshot: {
    type: 'object',
    required: ['type', 'sub', 'game'],
    properties: { type: typed('snapshot'), sub: { type: 'string' }, game: schemaRef('GameSnapshot') },
  },
  event: {
    type: 'object',
    required: ['type', 'sub', 'event'],
    properties: { type: typed('event'), sub: { type: 'string' }, event: schemaRef('GameEvent') },
  },
  unsubscribed: {
    type: 'object',
    required: ['type', 'id'],
    properties: { type: typed('unsubscribed'), id: { type: 'string' } },
  },
  error: {
    type: 'object',
    required: ['type', 'code', 'message'],
    properties: {
      type: typed('error'),
      code: schemaRef('ErrorCode'),
      message: { type: 'string' },
      id: { type: 'string', description: 'The subscription the error concerns, when known' },
      retryAfterMs: { type: 'integer', description: 'For a refusal by a limit: when asking again is served' },
    },
  },
  pong: { type: 'object', required: ['type'], properties: { type: typed('pong') } },
};

const FRAME_SUMMARIES: { [T in ServerFrameType]: string } = {
  welcome: 'First frame on every connection',
  subscribed: 'A subscribe was accepted',
  snapshot: 'The state of one matching game (snapshot: true, or after resume_gap)',
  event: 'A matching event',
  unsubscribed: 'An unsubscribe was done: no more frames for that id',
  error: 'A refused or malformed message, a resume gap, or a slow consumer',
  pong: 'The answer to ping',
};

/** What each viewer message is answered with. */
const REPLIES: Record<ViewerOp, readonly ServerFrameType[]> = {
  subscribe: ['subscribed', 'error'],
  unsubscribe: ['unsubscribed', 'error'],
  ping: ['pong'],
};

/** The SSE query: the subscribe fields, lists as comma-separated values. */
function sseQuery(subscribe: Json): Json {
  const fields = subscribe.properties as Record<string, Json>;
  const properties: Record<string, Json> = {};
  for (const name of ['leagues', 'games', 'teams', 'types'] as const) {
    const item = (fields[name]!.items ?? {}) as Json;
    const form = item.enum
      ? `one of ${(item.enum as string[]).join(', ')}`
      : `matching ${String(item.pattern)}`;
    properties[name] = {
      type: 'string',
      description: `${FIELD_DESCRIPTIONS[name]}: comma-separated (or repeated), each ${form}`,
    };
  }
  properties.since = { ...OFFSET, description: `${FIELD_DESCRIPTIONS.since}; the Last-Event-ID header wins` };
  properties.delay = { type: 'string', pattern: '^[0-9]+$', description: `Seconds, 0-${MAX_DELAY_SECONDS}` };
  properties.snapshot = {
    type: 'string',
    enum: ['1', 'true', '0', 'false', ''],
    description: FIELD_DESCRIPTIONS.snapshot,
  };
  return { type: 'object', properties, additionalProperties: true };
}

/** The SSE `error` event's data: the error frame without its type and subscription. */
const SSE_ERROR_CODES = ['resume_gap', 'slow_consumer', 'internal_error'] as const;

export function buildAsyncApi(options: AsyncApiOptions = {}): Json {
  const zodSchemas = viewerMessageSchemas(DEFAULT_LIMITS);
  const viewerSchemas: Record<ViewerOp, Json> = {
    subscribe: described(fromZod(zodSchemas.subscribe)),
    unsubscribe: described(fromZod(zodSchemas.unsubscribe)),
    ping: described(fromZod(zodSchemas.ping)),
  };

  const messages = messagesOf(viewerSchemas);

  const wsMessages = Object.fromEntries(
    [...VIEWER_MESSAGES.map((op) => `${op}Message`), ...SERVER_FRAME_TYPES.map(frameName)].map((name) => [
      name,
      msgRef(name),
    ]),
  );
  const sseMessages = Object.fromEntries(
    ['sseEvent', 'sseSnapshot', 'sseError'].map((name) => [name, msgRef(name)]),
  );

  const operations = operationsOf(viewerSchemas);

  const security = options.auth
    ? [{ $ref: '#/components/securitySchemes/bearer' }, { $ref: '#/components/securitySchemes/token' }]
    : undefined;
  const server = (protocol: string, description: string): Json => ({
    host: '{host}',
    protocol,
    description,
    variables: {
      host: { default: '127.0.0.1:8080', description: 'Where the daemon listens (COURTSIDE_PORT)' },
    },
    ...(security ? { security } : {}),
  });

  return {
    asyncapi: '3.1.0',
    info: {
      title: 'courtside streams',
      version: VERSION,
      description:
        'Live basketball game events (NBA = mens, WNBA = womens) over WebSocket and Server-Sent Events. Behaviour (resume, snapshots, spoiler delay, limits, close codes): docs/protocol.md.',
    },
    defaultContentType: 'application/json',
    servers: {
      websocket: server('ws', 'The WebSocket stream (wss behind TLS)'),
      sse: server('http', 'Server-Sent Events (https behind TLS)'),
    },
    channels: {
      stream: {
        address: '/v1/stream',
        title: 'WebSocket stream',
        description: `Several subscriptions per connection; one JSON text frame per message. The server pings every heartbeatMs; a peer silent for two intervals is dropped. Close codes: 1001 shutdown, 4000 slow consumer, 1009 message over ${DEFAULT_LIMITS.maxMessageBytes} bytes.`,
        servers: [{ $ref: '#/servers/websocket' }],
        messages: wsMessages,
        bindings: {
          ws: {
            method: 'GET',
            ...(options.auth ? { query: { type: 'object', properties: { token: { type: 'string' } } } } : {}),
          },
        },
      },
      streamSse: {
        address: '/v1/stream/sse',
        title: 'Server-Sent Events stream',
        description:
          'One subscription per request, from the query. An invalid query gets 400 with {"error":{"code","message"}} before the stream starts. A `: heartbeat` comment every heartbeatMs.',
        servers: [{ $ref: '#/servers/sse' }],
        messages: sseMessages,
      },
    },
    operations,
    components: {
      schemas: {
        ...streamSchemas(),
        ErrorCode: {
          type: 'string',
          enum: [...VIEWER_ERROR_CODES],
          description: 'docs/protocol.md, "Errors"',
        },
      },
      messages,
      ...(options.auth
        ? {
            securitySchemes: {
              bearer: { type: 'http', scheme: 'bearer', description: 'A token from COURTSIDE_TOKENS' },
              token: {
                type: 'httpApiKey',
                name: 'token',
                in: 'query',
                description: 'The same token, for browsers',
              },
            },
          }
        : {}),
    },
  };
}

/** Every message: the viewer's, the WebSocket frames and the SSE messages. */
function messagesOf(viewerSchemas: Record<ViewerOp, Json>): Record<string, Json> {
  const messages: Record<string, Json> = {};
  for (const op of VIEWER_MESSAGES) {
    messages[`${op}Message`] = {
      name: op,
      title: `${op} (client → server)`,
      payload: viewerSchemas[op],
    };
  }
  for (const type of SERVER_FRAME_TYPES) {
    messages[frameName(type)] = {
      name: type,
      title: `${type} frame`,
      summary: FRAME_SUMMARIES[type],
      payload: FRAME_PAYLOADS[type],
    };
  }
  messages.sseEvent = {
    name: 'event',
    title: 'SSE event',
    summary: 'A matching event: `id:` is its offset, `event:` its type, `data:` its JSON',
    payload: schemaRef('GameEvent'),
  };
  messages.sseSnapshot = {
    name: 'snapshot',
    title: 'SSE snapshot',
    summary: '`event: snapshot`, `data:` the game snapshot',
    payload: schemaRef('GameSnapshot'),
  };
  messages.sseError = {
    name: 'error',
    title: 'SSE error',
    summary: '`event: error`; after slow_consumer the stream ends',
    payload: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...SSE_ERROR_CODES] },
        message: { type: 'string' },
        retryAfterMs: { type: 'integer' },
      },
    },
  };
  return messages;
}

/** What the daemon receives and sends, and what it replies to each viewer message. */
function operationsOf(viewerSchemas: Record<ViewerOp, Json>): Record<string, Json> {
  const operations: Record<string, Json> = {};
  for (const op of VIEWER_MESSAGES) {
    operations[`receive${capital(op)}`] = {
      action: 'receive',
      channel: { $ref: '#/channels/stream' },
      summary: `The client sends ${op}`,
      messages: [channelMsgRef('stream', `${op}Message`)],
      reply: {
        channel: { $ref: '#/channels/stream' },
        messages: REPLIES[op].map((type) => channelMsgRef('stream', frameName(type))),
      },
    };
  }
  for (const type of ['welcome', 'snapshot', 'event', 'error'] as const) {
    operations[`send${capital(type)}`] = {
      action: 'send',
      channel: { $ref: '#/channels/stream' },
      summary: FRAME_SUMMARIES[type],
      messages: [channelMsgRef('stream', frameName(type))],
    };
  }
  operations.sendSseStream = {
    action: 'send',
    channel: { $ref: '#/channels/streamSse' },
    summary: 'The event stream of one subscription given by the query',
    messages: ['sseSnapshot', 'sseEvent', 'sseError'].map((name) => channelMsgRef('streamSse', name)),
    bindings: { http: { method: 'GET', query: sseQuery(viewerSchemas.subscribe) } },
  };
  return operations;
}

function capital(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}
