import type { GameEvent, GameSnapshot } from '../../model/events.js';
import type { Offset } from '../../bus/types.js';
import type { ViewerError } from '../viewer-protocol.js';

/**
 * What the server sends on `/v1/stream` (docs/protocol.md, "Server → client"), one type per frame,
 * and the prepared form of an event that every frame carrying it shares. The property order of
 * each type is the order of its keys on the wire.
 */

export interface WelcomeFrame {
  type: 'welcome';
  version: string;
  heartbeatMs: number;
  retention: number;
  offset: Offset;
  limits: {
    maxSubscriptions: number;
    maxFilterValues: number;
    maxMessageBytes: number;
    maxBufferedBytes: number;
    maxDelaySeconds: number;
  };
}

export interface SubscribedFrame {
  type: 'subscribed';
  id: string;
  offset: Offset;
}

export interface SnapshotFrame {
  type: 'snapshot';
  sub: string;
  game: GameSnapshot;
}

/** Never serialised from this shape: its text is the prepared event's JSON behind a prefix. */
export interface EventFrame {
  type: 'event';
  sub: string;
  event: GameEvent;
}

export interface UnsubscribedFrame {
  type: 'unsubscribed';
  id: string;
}

/** `resume_gap`, `slow_consumer` and every refusal: the code says which. */
export type ErrorFrame = { type: 'error' } & ViewerError;

export interface PongFrame {
  type: 'pong';
}

export type ServerFrame =
  WelcomeFrame | SubscribedFrame | SnapshotFrame | EventFrame | UnsubscribedFrame | ErrorFrame | PongFrame;

export type ServerFrameType = ServerFrame['type'];

/** Every server frame's `type`, as data (the AsyncAPI document lists exactly these). */
export const SERVER_FRAME_TYPES = [
  'welcome',
  'subscribed',
  'snapshot',
  'event',
  'unsubscribed',
  'error',
  'pong',
] as const satisfies readonly ServerFrameType[];

// Fails to compile when a frame type is added to `ServerFrame` but not to the list above.
type MissingFrameType = Exclude<ServerFrameType, (typeof SERVER_FRAME_TYPES)[number]>;
const everyFrameTypeListed: [MissingFrameType] extends [never] ? true : MissingFrameType = true;
void everyFrameTypeListed;

/** Frames a viewer gets for a request of its own, as opposed to events and snapshots. */
export type ReplyFrame = Exclude<ServerFrame, EventFrame | SnapshotFrame>;

/**
 * The one way to build an error frame. The fields keep the order the error was written in: the
 * protocol's parser names the subscription last, the gateway's own refusals before the message.
 */
export function errorFrame(error: ViewerError): ErrorFrame {
  return { type: 'error', ...error };
}

/** An event with its JSON text, computed once and shared by every frame that carries it. */
export interface PreparedEvent {
  readonly event: GameEvent;
  readonly offset: Offset;
  /** The offset's millisecond part: when the event was appended to the log. */
  readonly offsetMs: number;
  readonly json: string;
  /** WebSocket frames by subscription id (the only part of a frame that varies by viewer). */
  wsFrames?: Map<string, Buffer>;
  sseFrame?: Buffer;
}

export function prepare(event: GameEvent): PreparedEvent {
  const offset = event.offset ?? '0-0';
  return { event, offset, offsetMs: parseInt(offset, 10) || 0, json: JSON.stringify(event) };
}
