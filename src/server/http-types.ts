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

/** The error body every HTTP error uses: `{ "error": { "code", "message" } }`. */
export interface ErrorBody {
  error: { code: string; message: string; upstreamStatus?: number };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  extra: { upstreamStatus?: number; headers?: Record<string, string> } = {},
): void {
  const body: ErrorBody = { error: { code, message } };
  if (extra.upstreamStatus !== undefined) body.error.upstreamStatus = extra.upstreamStatus;
  sendJson(res, status, body, { 'cache-control': 'no-store', ...extra.headers });
}
