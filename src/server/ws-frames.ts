import type { GameSnapshot } from '../model/events.js';
import type { ReplyFrame, SnapshotFrame } from './delivery/frames.js';
import type { FrameEncoding } from './delivery/sink.js';

/**
 * Server frames as WebSocket bytes: complete, unmasked text frames, written to the socket as they
 * are. Event and snapshot frames are built once and shared by every viewer that gets them.
 */

const snapshotFrames = new WeakMap<GameSnapshot, Map<string, Buffer>>();
// Frames kept per event or snapshot, one per subscription id, for this many ids at most: recent
// events stay in memory for replays, and viewers that all name their subscriptions apart would
// otherwise keep a frame each.
const MAX_SHARED_FRAMES = 16;

export const wsEncoding: FrameEncoding<ReplyFrame> = {
  name: 'WebSocket',
  resumeHint: 'resume with since',
  event(subId, p) {
    // One complete WebSocket frame per (event, subscription id), shared by every viewer whose
    // subscription has that id: the event's JSON is never re-serialised or re-framed per viewer.
    // The text is an `EventFrame`'s JSON, the event's own JSON spliced in as it was prepared.
    return sharedFrame(
      (p.wsFrames ??= new Map()),
      subId,
      () => `{"type":"event","sub":${JSON.stringify(subId)},"event":${p.json}}`,
    );
  },
  snapshot(subId, game) {
    // The snapshot source hands out an unchanged snapshot as the same object; viewers resuming
    // together (thousands, after a Redis restart) then share its frame, some 10-20 KB a game.
    let frames = snapshotFrames.get(game);
    if (!frames) snapshotFrames.set(game, (frames = new Map()));
    const frame: SnapshotFrame = { type: 'snapshot', sub: subId, game };
    return sharedFrame(frames, subId, () => JSON.stringify(frame));
  },
  reply(frame) {
    return textFrame(JSON.stringify(frame));
  },
};

function sharedFrame(frames: Map<string, Buffer>, subId: string, text: () => string): Buffer {
  let frame = frames.get(subId);
  if (!frame) {
    frame = textFrame(text());
    if (frames.size < MAX_SHARED_FRAMES) frames.set(subId, frame);
  }
  return frame;
}

/** A complete, unmasked, final text frame (RFC 6455 §5.2), as a server sends it. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  // Payload lengths up to 125 fit the first length byte; up to 65535 take 2 more bytes; else 8.
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header, 'utf8');
  return frame;
}
