/**
 * The check a FastCast checkpoint body passes before it becomes a game's document. The body is
 * downloaded from a URL the socket named, so it can be anything: another topic's document, an
 * error page decoded as JSON, or the document inside a wrapper. Used unchecked, a body without a
 * readable header makes every pushed diff and every reconciliation fail while the game still
 * looks fed by push; checked, a bad one leaves the game polling with the reason said.
 *
 * Accepted: a summary-shaped object (a `header` with a first competition) whose header names the
 * game subscribed to (`header.id` or `header.competitions[0].id`), bare or wrapped as
 * `{"pl": <document>}`. Public FastCast clients decode a `pl` given as JSON text as well, so a
 * wrapper whose `pl` is a string holding the document is unwrapped too.
 */
import { isObject } from '../core/is-object.js';

/** Why a checkpoint body was refused: bounded, a metric label. */
export type CheckpointFault = 'not_object' | 'bad_wrapper' | 'no_header' | 'other_game';

export type CheckpointCheck =
  | { readonly ok: true; readonly document: Record<string, unknown> }
  | { readonly ok: false; readonly reason: CheckpointFault; readonly detail: string };

type Obj = Record<string, unknown>;

const idOf = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;

const fail = (reason: CheckpointFault, detail: string): CheckpointCheck => ({ ok: false, reason, detail });

/** The document inside a `{"pl": ...}` wrapper, the body itself when it is not one. */
function unwrap(body: Obj): { document: unknown } | { error: string } {
  if (!('pl' in body) || 'header' in body) return { document: body };
  const pl = body.pl;
  if (typeof pl !== 'string') return { document: pl };
  try {
    return { document: JSON.parse(pl) as unknown };
  } catch {
    return { error: 'checkpoint wrapper {"pl": ...} holds text that is not JSON' };
  }
}

/** Checks a downloaded checkpoint body for game `gameId`; never throws. */
export function checkCheckpoint(body: unknown, gameId: string): CheckpointCheck {
  if (!isObject(body)) return fail('not_object', `checkpoint is ${describe(body)}, not a JSON object`);
  const unwrapped = unwrap(body);
  if ('error' in unwrapped) return fail('bad_wrapper', unwrapped.error);
  const doc = unwrapped.document;
  if (!isObject(doc))
    return fail('bad_wrapper', `checkpoint wrapper {"pl": ...} holds ${describe(doc)}, not a JSON object`);
  const header = doc.header;
  if (!isObject(header)) return fail('no_header', 'checkpoint has no header object (not a game summary)');
  const competition = Array.isArray(header.competitions) ? (header.competitions[0] as unknown) : undefined;
  if (!isObject(competition)) return fail('no_header', 'checkpoint header has no competition');
  const ids = [idOf(header.id), idOf(competition.id)].filter((id): id is string => id !== null);
  if (!ids.includes(gameId))
    return fail(
      'other_game',
      ids.length === 0
        ? `checkpoint header names no game (expected game ${gameId})`
        : `checkpoint header names game ${ids[0]}, not the subscribed game ${gameId}`,
    );
  return { ok: true, document: doc };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? 'a string' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
