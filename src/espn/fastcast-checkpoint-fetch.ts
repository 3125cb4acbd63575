import { UpstreamPayloadError } from '../core/errors.js';
import { fastcastBytes, fastcastCheckpointFailures } from '../core/metrics.js';
import { checkCheckpoint } from './fastcast-checkpoint.js';
import { parseGameTopic } from './fastcast-wire.js';
import type { DocumentRequest, FetchedDocument } from './http.js';

/**
 * Throws `UpstreamPayloadError` when FastCast is reached over TLS (`secure`) and the checkpoint is
 * not: the checkpoint is the game's whole document, so one named over a TLS socket and fetched in
 * the clear could be rewritten by anyone on the path. (Any other scheme is refused by the download
 * itself, `getDocument`.)
 */
export function checkCheckpointUrl(secure: boolean, url: string): void {
  if (secure && !/^https:\/\//i.test(url))
    throw new UpstreamPayloadError(
      url,
      'checkpoint URL is not https:// although FastCast is reached over https://',
    );
}

export interface CheckpointFetch {
  /** Whether FastCast is reached over TLS. */
  readonly secure: boolean;
  readonly userAgent: string;
  readonly origin: string;
  /** The HTTP client's `getDocument`: the live lane's connections, timeouts, retries, decoding. */
  readonly fetchDocument: (request: DocumentRequest) => Promise<FetchedDocument>;
}

/**
 * Downloads topic `topic`'s checkpoint from `url` and checks it (fastcast-checkpoint.ts; a game
 * topic's body must be its game's summary): the document to use, or an error saying why it
 * cannot be used, counted by reason.
 */
export async function fetchCheckpoint(how: CheckpointFetch, url: string, topic: string): Promise<unknown> {
  checkCheckpointUrl(how.secure, url);
  let fetched: FetchedDocument;
  try {
    fetched = await how.fetchDocument({
      name: 'fastcast_checkpoint',
      url,
      headers: { 'User-Agent': how.userAgent, Origin: how.origin },
    });
  } catch (error) {
    fastcastCheckpointFailures.inc({ reason: 'download' });
    throw error;
  }
  fastcastBytes.inc({ kind: 'checkpoint' }, fetched.bytes);
  const game = parseGameTopic(topic);
  if (!game) return fetched.body;
  const checked = checkCheckpoint(fetched.body, game.gameId);
  if (checked.ok) return checked.document;
  fastcastCheckpointFailures.inc({ reason: checked.reason });
  throw new UpstreamPayloadError(url, `checkpoint refused (${checked.reason}): ${checked.detail}`);
}
