import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A route handler: returns true when it handled the request (and wrote the response), false to
 * let the next handler try. Authentication has already been checked when a handler runs.
 */
export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => boolean | Promise<boolean>;

/**
 * Every code an HTTP error may carry, with the one status it goes with (docs/errors.md, "HTTP
 * errors"). Codes are spelled in upper case, like `CourtsideError` codes; the lower-case ones
 * belong to the stream protocol and stay as docs/protocol.md spells them, because stream viewers
 * match on them: the access checks every request passes (`unauthorized`, `forbidden_origin`,
 * `too_many_connections`) and the subscribe errors an SSE query can get.
 */
export const HTTP_ERRORS = {
  BAD_REQUEST: 400,
  INVALID_PARAMS: 400,
  invalid_message: 400,
  unknown_league: 400,
  unknown_event_type: 400,
  too_many_filters: 400,
  invalid_since: 400,
  unauthorized: 401,
  forbidden_origin: 403,
  NOT_FOUND: 404,
  UNKNOWN_OPERATION: 404,
  UNKNOWN_GAME: 404,
  UPSTREAM_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UPGRADE_REQUIRED: 426,
  ON_DEMAND_BUDGET: 429,
  RATE_LIMITED: 429,
  too_many_streams: 429,
  subscribe_rate_limited: 429,
  INTERNAL: 500,
  UPSTREAM_HTTP: 502,
  UPSTREAM_NETWORK: 502,
  UPSTREAM_PAYLOAD: 502,
  UPSTREAM_BLOCKED: 502,
  too_many_connections: 503,
  REDIS_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type HttpErrorCode = keyof typeof HTTP_ERRORS;
export const HTTP_ERROR_CODES = Object.keys(HTTP_ERRORS) as readonly HttpErrorCode[];

/** The subscribe errors a refused SSE query answers with, as a `subscribe` frame would get them. */
export const STREAM_QUERY_ERROR_CODES = [
  'invalid_message',
  'unknown_league',
  'unknown_event_type',
  'too_many_filters',
  'invalid_since',
] as const satisfies readonly HttpErrorCode[];
export type StreamQueryErrorCode = (typeof STREAM_QUERY_ERROR_CODES)[number];

/** The HTTP code for a stream protocol error of an SSE query; any other protocol code is `invalid_message`. */
export function streamQueryErrorCode(code: string): StreamQueryErrorCode {
  return (STREAM_QUERY_ERROR_CODES as readonly string[]).includes(code)
    ? (code as StreamQueryErrorCode)
    : 'invalid_message';
}

export function isHttpErrorCode(code: string): code is HttpErrorCode {
  return Object.hasOwn(HTTP_ERRORS, code);
}

/** The error body every HTTP error uses: `{ "error": { "code", "message" } }`. */
export interface ErrorBody {
  error: { code: HttpErrorCode; message: string; upstreamStatus?: number };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Answers an HTTP error; the compiler refuses a code outside `HTTP_ERRORS` or a status it does not go with. */
export function sendError<C extends HttpErrorCode>(
  res: ServerResponse,
  status: (typeof HTTP_ERRORS)[C],
  code: C,
  message: string,
  extra: { upstreamStatus?: number; headers?: Record<string, string | string[]> } = {},
): void {
  const body: ErrorBody = { error: { code, message } };
  if (extra.upstreamStatus !== undefined) body.error.upstreamStatus = extra.upstreamStatus;
  sendJson(res, status, body, { 'cache-control': 'no-store', ...extra.headers });
}
