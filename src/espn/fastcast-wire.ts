import { deflateSync, inflateSync } from 'node:zlib';
import { UpstreamPayloadError } from '../core/errors.js';
import { LEAGUE_SEGMENT, leagueOfSegment, type League } from '../core/leagues.js';
import { fastcastOversize } from '../core/metrics.js';

/**
 * FastCast's wire format: ESPN's WebSocket publish/subscribe service that its own pages use for
 * live games. Known from public notes of clients that talked to it in July 2026
 * (docs/upstream.md, "FastCast"); every field is read defensively, since ESPN can change it.
 *
 * Messages are JSON text with an `op`:
 * - `C` connect (answer: `rc`, `hbi` heartbeat seconds, `sid` session id);
 * - `S` subscribe to a topic `tc` (answer: `rc` 200, or 404 when the topic does not exist now);
 * - `H` the topic's checkpoint: `pl` is the URL of the full current document;
 * - `R` catch-up and `P` live patches: `pl` is a JSON string `{ts, "~c", pl}` (below);
 * - `I` (`pl: "0"`, consumes a `mid`) and `B`: keep-alives;
 * - `M` maintenance: the service is going away for a while (the client reconnects later);
 * - `U` unsubscribe.
 * One socket frame may hold several messages as a JSON array of them (`readFrames`).
 */

/**
 * The most a compressed (`~c: 1`) patch may inflate to, and the largest socket frame accepted:
 * 16 MiB. A whole game summary, the largest thing a patch replaces, is under 1 MiB; a payload
 * beyond this is broken or hostile, and is refused before it is allocated.
 */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** One RFC 6902 operation as it arrives (validated when applied). */
export interface PatchOperation {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
}

/** A message as read from the socket; unknown ops are kept so the caller can ignore them. */
export interface FastcastFrame {
  readonly op: string;
  readonly rc?: number;
  readonly hbi?: number;
  readonly sid?: string;
  readonly tc?: string;
  readonly mid?: number;
  readonly pl?: string;
}

/** A decoded `R`/`P` payload: when it was published (ms) and the patch. */
export interface FastcastPatch {
  readonly ts: number | null;
  readonly patch: readonly PatchOperation[];
}

/** ESPN's game-package topic of a game: the document shaped like the site summary. */
export function gameTopic(league: League, gameId: string): string {
  return `gp-basketball-${LEAGUE_SEGMENT[league]}-${gameId}`;
}

/** The league and game of a game-package topic, or undefined for any other topic. */
export function parseGameTopic(topic: string): { league: League; gameId: string } | undefined {
  const m = /^gp-basketball-([a-z-]+)-([0-9]+)$/.exec(topic);
  const league = m?.[1] === undefined ? undefined : leagueOfSegment(m[1]);
  if (!league || !m?.[2]) return undefined;
  return { league, gameId: m[2] };
}

/**
 * How the token goes into the socket URL. `given`: as discovery gave it, except the characters a
 * query-string parser would read otherwise: `+` (a space to it; standard base64 tokens hold it),
 * `&` and `#` (the value's end) and spaces are escaped, so the server reads back the very token it
 * gave; a `%` is left alone (a token holding one is taken to be escaped already). `encoded`: the
 * whole token percent-encoded (`encodeURIComponent`), as some clients send it and some servers
 * want it (`/` and `=` too).
 */
export type TokenForm = 'given' | 'encoded';

/** The socket path for `token` in the form `form`. */
export function socketPath(token: string, form: TokenForm = 'given'): string {
  const escaped =
    form === 'encoded' ? encodeURIComponent(token) : token.replace(/[+&# ]/g, (c) => encodeURIComponent(c));
  return `/FastcastService/pubsub/profiles/12000?TrafficManager-Token=${escaped}`;
}

export const DISCOVERY_PATH = '/public/websockethost';

function parseJson(text: string, where: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new UpstreamPayloadError(where, `${what} is not JSON`, { cause });
  }
}

/** Reads one text frame; throws `UpstreamPayloadError` when it is not a JSON object with an `op`. */
export function readFrame(text: string, where: string): FastcastFrame {
  return toMessage(parseJson(text, where, 'frame'), where);
}

/**
 * Reads one text frame holding one message or several (a JSON array of messages, in order). In an
 * array, an entry that is not a message is dropped and counted in `invalid`; the others are kept.
 * Throws `UpstreamPayloadError` when the text is not JSON or a lone message has no `op`.
 */
export function readFrames(text: string, where: string): { frames: FastcastFrame[]; invalid: number } {
  const value = parseJson(text, where, 'frame');
  if (!Array.isArray(value)) return { frames: [toMessage(value, where)], invalid: 0 };
  const messages: FastcastFrame[] = [];
  let invalid = 0;
  for (const entry of value as unknown[]) {
    try {
      messages.push(toMessage(entry, where));
    } catch {
      invalid++;
    }
  }
  return { frames: messages, invalid };
}

function toMessage(value: unknown, where: string): FastcastFrame {
  if (typeof value !== 'object' || value === null || typeof (value as { op?: unknown }).op !== 'string')
    throw new UpstreamPayloadError(where, 'frame has no op');
  const v = value as Record<string, unknown>;
  const num = (x: unknown): number | undefined =>
    typeof x === 'number' && Number.isFinite(x) ? x : undefined;
  const str = (x: unknown): string | undefined =>
    typeof x === 'string' ? x : typeof x === 'number' ? String(x) : undefined;
  const message: Record<string, unknown> = { op: v.op };
  const fields = {
    rc: num(v.rc),
    hbi: num(v.hbi),
    sid: str(v.sid),
    tc: str(v.tc),
    mid: num(typeof v.mid === 'string' ? Number(v.mid) : v.mid),
    pl: typeof v.pl === 'string' ? v.pl : v.pl === undefined ? undefined : JSON.stringify(v.pl),
  };
  for (const [k, x] of Object.entries(fields)) if (x !== undefined) message[k] = x;
  return message as unknown as FastcastFrame;
}

/**
 * Decodes an `R`/`P` frame's `pl`: `"~c": 1` means the inner `pl` is base64 of zlib-deflated JSON,
 * `"~c": 0` plain JSON (text or already an array). Throws `UpstreamPayloadError` naming the fault.
 */
export function decodePatchPayload(pl: string, where: string): FastcastPatch {
  const outer = parseJson(pl, where, 'patch payload');
  if (typeof outer !== 'object' || outer === null)
    throw new UpstreamPayloadError(where, 'patch payload is not an object');
  const o = outer as Record<string, unknown>;
  const ts = typeof o.ts === 'number' && Number.isFinite(o.ts) ? o.ts : null;
  let inner: unknown = o.pl;
  if (o['~c'] === 1 || o['~c'] === '1') {
    if (typeof inner !== 'string') throw new UpstreamPayloadError(where, 'compressed patch is not a string');
    try {
      // The limit stops zlib at 16 MiB: a small frame inflating to gigabytes never allocates them.
      inner = inflateSync(Buffer.from(inner, 'base64'), { maxOutputLength: MAX_PAYLOAD_BYTES }).toString(
        'utf8',
      );
    } catch (cause) {
      if ((cause as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        fastcastOversize.inc({ kind: 'inflated' });
        throw new UpstreamPayloadError(
          where,
          `compressed patch inflates past ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB; refused`,
          { cause },
        );
      }
      throw new UpstreamPayloadError(where, 'compressed patch does not inflate', { cause });
    }
  }
  if (typeof inner === 'string') inner = parseJson(inner, where, 'patch');
  if (!Array.isArray(inner)) throw new UpstreamPayloadError(where, 'patch is not an array of operations');
  for (const op of inner) {
    const ok =
      typeof op === 'object' &&
      op !== null &&
      typeof (op as PatchOperation).op === 'string' &&
      typeof (op as PatchOperation).path === 'string';
    if (!ok) throw new UpstreamPayloadError(where, 'patch holds an entry that is not an operation');
  }
  return { ts, patch: inner as PatchOperation[] };
}

/** Encodes a patch as FastCast publishes it (the simulator's side of `decodePatchPayload`). */
export function encodePatchPayload(
  patch: readonly PatchOperation[],
  ts: number,
  compressed: boolean,
): string {
  const json = JSON.stringify(patch);
  return JSON.stringify({
    ts,
    '~c': compressed ? 1 : 0,
    pl: compressed ? deflateSync(json).toString('base64') : json,
  });
}
