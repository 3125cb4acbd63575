import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Conditional responses shared by the routes: a strong ETag from a hash of the body, `304` when
 * the client's `If-None-Match` already names it, and `HEAD` answered with headers only.
 */
export function etagOf(body: string | Uint8Array): string {
  // sha1 is plenty for change detection (not security); 27 base64url chars keep headers short.
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export function matchesIfNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}

export interface BodyOptions {
  status?: number;
  contentType: string;
  cacheControl: string;
  headers?: Record<string, string | string[]>;
}

/** Writes `body` with an ETag, or a bare 304 when the client already holds it. */
export function sendBody(
  req: IncomingMessage,
  res: ServerResponse,
  body: string | Uint8Array,
  options: BodyOptions,
): void {
  const etag = etagOf(body);
  const common = { etag, 'cache-control': options.cacheControl, ...options.headers };
  if (matchesIfNoneMatch(req, etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(options.status ?? 200, {
    'content-type': options.contentType,
    'content-length': bytes.byteLength,
    ...common,
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** True for GET and HEAD, the only methods the read-only routes answer. */
export function isRead(req: IncomingMessage): boolean {
  return req.method === 'GET' || req.method === 'HEAD';
}
