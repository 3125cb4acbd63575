import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { UpstreamPayloadError } from '../core/errors.js';

/** Reading an upstream response's body: inflating, decoding, bounding its size. */

// The largest recorded payload is 1.2 MB (league injuries); 32 MB bounds a hostile upstream.
const MAX_BODY_BYTES = 32 * 1024 * 1024;
// An error page is read only to tell a WAF's HTML from ESPN's JSON; its first bytes suffice.
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export async function readBody(
  body: Dispatcher.ResponseData['body'],
  encoding: string | undefined,
  url: string,
): Promise<{ text: string; bytes: number }> {
  let source: Readable = body;
  const coding = encoding?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    const inflate =
      coding === 'gzip' || coding === 'x-gzip'
        ? createGunzip()
        : coding === 'br'
          ? createBrotliDecompress()
          : coding === 'deflate'
            ? createInflate()
            : undefined;
    if (!inflate) {
      body.destroy();
      throw new UpstreamPayloadError(url, `unsupported content-encoding ${JSON.stringify(encoding)}`);
    }
    body.on('error', (error) => inflate.destroy(error));
    source = body.pipe(inflate);
  }
  // Decoded chunk by chunk into V8 strings, not gathered and concatenated: a concatenated copy per
  // poll (140-490 KB for a summary) is a native block glibc serves from its heap, where such blocks
  // fragment it. StringDecoder writes UTF-8 straight into V8 strings (TextDecoder's stream mode
  // goes through a UTF-16 buffer of twice the chunk), holding back only a character split across
  // chunks (docs/decisions.md, "Frames are written, never copied per client").
  const decoder = new StringDecoder('utf8');
  let text = '';
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        throw new UpstreamPayloadError(url, `body larger than ${MAX_BODY_BYTES} bytes`);
      }
      text += decoder.write(chunk);
    }
  } catch (error) {
    body.destroy();
    // zlib's own failures (codes Z_DATA_ERROR, Z_BUF_ERROR, ...) mean a corrupt body; anything
    // else (reset, abort) is the transport's and is classified by the caller.
    const zlibCode = (error as { code?: unknown }).code;
    if (typeof zlibCode === 'string' && zlibCode.startsWith('Z_')) {
      throw new UpstreamPayloadError(url, `cannot decode ${coding ?? ''} body`, { cause: error });
    }
    throw error;
  }
  return { text: text + decoder.end(), bytes: size };
}

/** The start of an error body, decoded as UTF-8 (a WAF page is ASCII); the rest is discarded. */
export async function readErrorBody(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size < MAX_ERROR_BODY_BYTES) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function isJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function header(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
