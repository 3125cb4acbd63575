import type { Logger } from '../core/log.js';
import { fastcastBytes, fastcastFrames, fastcastUnknownOps } from '../core/metrics.js';
import { readFrames, type FastcastFrame } from './fastcast-wire.js';

/**
 * What the FastCast client does with a socket's text before acting on it: bytes and ops counted,
 * the text read into messages, anything that does not read logged and dropped, so nothing a
 * server sends can throw into the socket's handlers.
 */

// The ops counted by name in the frames metric; anything else is counted as `other`, and unknown.
const KNOWN_OPS: ReadonlySet<string> = new Set(['C', 'S', 'H', 'R', 'P', 'I', 'B', 'M', 'U']);

/** One socket frame's messages (one, or several sent as a JSON array), in order; none if it does not read. */
export function readSocketMessages(text: string, logger: Logger): FastcastFrame[] {
  fastcastBytes.inc({ kind: 'frame' }, Buffer.byteLength(text));
  try {
    const read = readFrames(text, 'fastcast');
    if (read.invalid > 0) logger.debug({ invalid: read.invalid }, 'FastCast frame entries ignored');
    return read.frames;
  } catch (error) {
    logger.debug({ err: error }, 'FastCast frame ignored');
    return [];
  }
}

/** Counts a message by its op; false (logged, and to be ignored) when the op is not one FastCast is known to send. */
export function knownOp(message: FastcastFrame, logger: Logger): boolean {
  const known = KNOWN_OPS.has(message.op);
  fastcastFrames.inc({ op: known ? message.op : 'other' });
  if (!known) {
    fastcastUnknownOps.inc();
    logger.debug({ op: message.op.slice(0, 16) }, 'FastCast message with an unknown op ignored');
  }
  return known;
}
