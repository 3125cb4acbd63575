import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../model/events.js';
import { OFFSET_PATTERN } from '../bus/types.js';
import { LEAGUES, type League } from '../core/leagues.js';

/**
 * What viewers send on `/v1/stream` (and, as query parameters, on `/v1/stream/sse`), validated
 * with strict zod schemas. A message that fails gets an error `code` and a message naming the
 * field and value that were wrong; the gateway answers with an `error` frame and keeps the
 * connection up.
 */

/** Limits the gateway enforces; every one is reported to the viewer in `welcome`. */
export interface GatewayLimits {
  /** Connections (WebSocket and SSE together) before new ones get 503. */
  maxConnections: number;
  /** Subscriptions one WebSocket connection may hold at once. */
  maxSubscriptions: number;
  /** Values one filter field (leagues, games, teams, conferences, types) may list. */
  maxFilterValues: number;
  /** Largest viewer message, bytes (ws `maxPayload`; larger closes with 1009). */
  maxMessageBytes: number;
  /** Bytes waiting for one viewer (socket buffer + delayed + replay-held) before it is dropped. */
  maxBufferedBytes: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  // ~10 KiB of server memory per idle connection: 20k stays well under 300 MB.
  maxConnections: 20_000,
  // A scorebug needs 1, a multi-game dashboard a handful; 20 bounds per-connection index cost.
  maxSubscriptions: 20,
  // A night has at most 15 games per league; 100 leaves room for ids and abbreviations of many teams.
  maxFilterValues: 100,
  // The largest valid subscribe (4 fields × 100 values) is ~8 KiB of JSON; twice that is plenty.
  maxMessageBytes: 16 * 1024,
  // A 300 s spoiler delay on a full two-league slate holds ~2-3 MB of frames; 8 MiB leaves headroom.
  maxBufferedBytes: 8 * 1024 * 1024,
};

/**
 * The spoiler delay's ceiling, seconds: five minutes covers broadcast delays, and bounds how many
 * events a subscription may hold back in memory.
 */
export const MAX_DELAY_SECONDS = 300;

/**
 * Every error code a viewer may get in an `error` frame (or an SSE `error` event), as data so that
 * the AsyncAPI document lists exactly these.
 */
export const VIEWER_ERROR_CODES = [
  'invalid_json',
  'invalid_message',
  'unknown_op',
  'unknown_league',
  'unknown_event_type',
  'too_many_filters',
  'invalid_since',
  'duplicate_subscription',
  'too_many_subscriptions',
  'unknown_subscription',
  'resume_gap',
  'slow_consumer',
  'subscribe_rate_limited',
  'internal_error',
] as const;

export type ViewerErrorCode = (typeof VIEWER_ERROR_CODES)[number];

export interface ViewerError {
  code: ViewerErrorCode;
  message: string;
  /** The subscription the error concerns, when known. */
  id?: string;
  /** For a refusal by a limit: when asking again would be served, in ms. */
  retryAfterMs?: number;
}

export interface SubscriptionFilter {
  leagues?: ReadonlySet<League>;
  games?: ReadonlySet<string>;
  /** Team ids and abbreviations (upper case). */
  teams?: ReadonlySet<string>;
  /** Conference ids (ESPN's group ids): a game matches when either team is in one. */
  conferences?: ReadonlySet<string>;
  /** Only games in which at least one team has a poll rank. */
  ranked?: true;
  types?: ReadonlySet<EventType>;
}

export interface SubscribeRequest {
  op: 'subscribe';
  id: string;
  filter: SubscriptionFilter;
  since?: string;
  snapshot: boolean;
  /** Spoiler delay, milliseconds. */
  delayMs: number;
}

export type ViewerMessage = SubscribeRequest | { op: 'unsubscribe'; id: string } | { op: 'ping' };

/** Every `op` a viewer may send, as data so that the AsyncAPI document and the docs list exactly these. */
export const VIEWER_OPS = [
  'subscribe',
  'unsubscribe',
  'ping',
] as const satisfies readonly ViewerMessage['op'][];

export type ParseResult = { ok: true; message: ViewerMessage } | { ok: false; error: ViewerError };

const SUB_ID = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\x20-\x7e]+$/, 'printable ASCII');
// ESPN game ids are digits; the simulator's may carry letters and dashes. 40 chars bounds memory.
const GAME_ID = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ or -, at most 40');
// ESPN's conference (group) ids are small numbers.
const CONFERENCE = z.string().regex(/^[0-9]{1,6}$/, 'a conference id (digits, e.g. "2" for the ACC)');
// Team ids are digits, abbreviations 2-4 letters; 10 allows either with room.
const TEAM = z
  .string()
  .regex(/^[A-Za-z0-9]{1,10}$/, 'a team id or abbreviation (letters/digits, at most 10)');

/**
 * The zod schemas of the three viewer messages: what `parse` validates against, and what the
 * AsyncAPI document describes (converted to JSON Schema).
 */
export function viewerMessageSchemas(limits: Pick<GatewayLimits, 'maxFilterValues'>) {
  const list = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(limits.maxFilterValues);
  const subscribe = z.strictObject({
    op: z.literal('subscribe'),
    id: SUB_ID,
    leagues: list(z.enum(LEAGUES)).optional(),
    games: list(GAME_ID).optional(),
    teams: list(TEAM).optional(),
    conferences: list(CONFERENCE).optional(),
    ranked: z.literal(true).optional(),
    types: list(z.enum(EVENT_TYPES as [EventType, ...EventType[]])).optional(),
    since: z.string().regex(OFFSET_PATTERN, 'an offset like 1732252800000-0').optional(),
    snapshot: z.boolean().optional(),
    delay: z.number().int().min(0).max(MAX_DELAY_SECONDS).optional(),
  });
  const unsubscribe = z.strictObject({ op: z.literal('unsubscribe'), id: SUB_ID });
  const ping = z.strictObject({ op: z.literal('ping') });
  return { subscribe, unsubscribe, ping };
}

type Schemas = ReturnType<typeof viewerMessageSchemas>;

export interface ViewerProtocol {
  /** Parses one text frame. */
  parse(text: string): ParseResult;
  /** Validates an already-decoded subscribe object (the SSE query builds one). */
  parseSubscribe(value: Record<string, unknown>): ParseResult;
}

export function createViewerProtocol(limits: Pick<GatewayLimits, 'maxFilterValues'>): ViewerProtocol {
  const s = viewerMessageSchemas(limits);
  const parseSubscribe = (value: Record<string, unknown>): ParseResult => validate(s, 'subscribe', value);
  return {
    parseSubscribe,
    parse(text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        return fail('invalid_json', `message is not JSON: ${(err as Error).message}`);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return fail(
          'invalid_message',
          `message must be a JSON object like {"op":"subscribe",...}, got ${describe(value)}`,
        );
      }
      const record = value as Record<string, unknown>;
      const op = record.op;
      if (op === 'subscribe' || op === 'unsubscribe' || op === 'ping') return validate(s, op, record);
      if (op === undefined)
        return fail('unknown_op', 'message has no "op"; expected subscribe, unsubscribe or ping');
      return fail('unknown_op', `unknown op ${show(op)}; expected subscribe, unsubscribe or ping`);
    },
  };
}

function validate(s: Schemas, op: keyof Schemas, record: Record<string, unknown>): ParseResult {
  const id = typeof record.id === 'string' && record.id.length <= 64 ? record.id : undefined;
  const result = s[op].safeParse(record);
  if (!result.success) {
    const error = describeIssue(result.error.issues[0], record, op);
    if (id !== undefined) error.id = id;
    return { ok: false, error };
  }
  const data = result.data;
  if (data.op === 'ping') return { ok: true, message: { op: 'ping' } };
  if (data.op === 'unsubscribe') return { ok: true, message: { op: 'unsubscribe', id: data.id } };
  const filter: SubscriptionFilter = {};
  if (data.leagues) filter.leagues = new Set(data.leagues);
  if (data.games) filter.games = new Set(data.games);
  if (data.teams) filter.teams = new Set(data.teams.map((t) => t.toUpperCase()));
  if (data.conferences) filter.conferences = new Set(data.conferences);
  if (data.ranked) filter.ranked = true;
  if (data.types) filter.types = new Set(data.types);
  const message: SubscribeRequest = {
    op: 'subscribe',
    id: data.id,
    filter,
    snapshot: data.snapshot ?? false,
    delayMs: (data.delay ?? 0) * 1000,
  };
  if (data.since !== undefined) message.since = data.since;
  return { ok: true, message };
}

function describeIssue(
  issue: z.core.$ZodIssue | undefined,
  record: Record<string, unknown>,
  op: string,
): ViewerError {
  if (!issue) return { code: 'invalid_message', message: `invalid ${op} message` };
  if (issue.code === 'unrecognized_keys') {
    return {
      code: 'invalid_message',
      message: `${op}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(show).join(', ')}`,
    };
  }
  const field = String(issue.path[0] ?? '');
  const where = issue.path.map((p, i) => (i === 0 ? String(p) : `[${String(p)}]`)).join('');
  const value = valueAt(record, issue.path);
  if (issue.code === 'invalid_value' && field === 'leagues' && issue.path.length === 2) {
    return {
      code: 'unknown_league',
      message: `unknown league ${show(value)} in ${where}; expected one of ${LEAGUES.join(', ')}`,
    };
  }
  if (issue.code === 'invalid_value' && field === 'types' && issue.path.length === 2) {
    return {
      code: 'unknown_event_type',
      message: `unknown event type ${show(value)} in ${where}; expected one of ${EVENT_TYPES.join(', ')}`,
    };
  }
  if (
    issue.code === 'too_big' &&
    issue.path.length === 1 &&
    ['leagues', 'games', 'teams', 'conferences', 'types'].includes(field)
  ) {
    return {
      code: 'too_many_filters',
      message: `${field} lists ${Array.isArray(value) ? value.length : '?'} values; at most ${String(issue.maximum)} allowed`,
    };
  }
  if (field === 'ranked') {
    return {
      code: 'invalid_message',
      message: `ranked ${show(value)} is invalid; expected true (only games with a ranked team), or leave it out`,
    };
  }
  if (field === 'since') {
    return {
      code: 'invalid_since',
      message: `since ${show(value)} is not an offset; expected a string like "1732252800000-0" (<ms>-<n>)`,
    };
  }
  if (field === 'delay') {
    return {
      code: 'invalid_message',
      message: `delay ${show(value)} is invalid; expected an integer number of seconds from 0 to ${MAX_DELAY_SECONDS}`,
    };
  }
  if (value === undefined && issue.code === 'invalid_type') {
    return { code: 'invalid_message', message: `${op}: "${where}" is required` };
  }
  return { code: 'invalid_message', message: `${op}: ${where} ${show(value)} is invalid: ${issue.message}` };
}

function valueAt(record: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = record;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    // Own properties only: a "__proto__" key in JSON is data, never the prototype.
    if (!Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function fail(code: ViewerErrorCode, message: string): ParseResult {
  return { ok: false, error: { code, message } };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** A value shown in an error message, truncated so a huge input cannot make a huge frame. */
function show(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'number' && !Number.isFinite(value)
        ? String(value)
        : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  // 60 chars names the value without echoing a 16 KiB payload back.
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
