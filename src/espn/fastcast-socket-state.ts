/**
 * The FastCast socket's states. The client has one socket at a time for every topic; it goes
 * `idle` (nothing subscribed yet) → `connecting` (discovery, then the upgrade) → `open` (upgraded,
 * `C` sent) → `heartbeat` (`C` answered: a session, watched for silence) → `reconnecting` (dropped,
 * waiting out a backoff) → `connecting` again, and `closed` once the client is closed, for good.
 *
 * The functions here are pure: the connection (fastcast-connection.ts) calls them with what the
 * socket did and the scheduler's clock, keeps the status they return and acts on it.
 */

/** Why a socket was dropped: the label of the reconnects metric. */
export type DropReason = 'closed' | 'silent' | 'refused' | 'error' | 'maintenance';

export type SocketState =
  /** No socket, and none asked for yet. */
  | { readonly name: 'idle' }
  /** Discovery, then the upgrade, are under way. */
  | { readonly name: 'connecting' }
  /** The socket is upgraded and `C` sent; its answer is awaited. */
  | { readonly name: 'open' }
  /** `C` was answered: session `sid`, and the last time anything was heard on the socket. */
  | { readonly name: 'heartbeat'; readonly sid: string; readonly lastHeard: number }
  /** The socket was dropped; a new one is opened after `waitMs`. */
  | { readonly name: 'reconnecting'; readonly reason: DropReason; readonly waitMs: number }
  /** The client is closed: nothing is opened again. */
  | { readonly name: 'closed' };

export type SocketStateName = SocketState['name'];

export interface SocketStatus {
  readonly state: SocketState;
  /** The heartbeat FastCast announced last (ms); kept across sockets until a `C` says otherwise. */
  readonly hbiMs: number;
}

// What FastCast announces; used until its own `C` answer says otherwise.
const DEFAULT_HBI_SECONDS = 30;

export const INITIAL_SOCKET: SocketStatus = { state: { name: 'idle' }, hbiMs: DEFAULT_HBI_SECONDS * 1000 };

// ---- reading ---------------------------------------------------------------------------------

/** The session open now, or null while there is none. */
export function sessionOf(s: SocketStatus): string | null {
  return s.state.name === 'heartbeat' ? s.state.sid : null;
}

/** A connection may start: there is no socket and none is being opened, and the client is not closed. */
export function mayConnect(s: SocketStatus): boolean {
  return s.state.name === 'idle' || s.state.name === 'reconnecting';
}

/** How often silence is checked for: a quarter of the heartbeat, at least 50 ms. */
export function heartbeatCheckMs(s: SocketStatus): number {
  return Math.max(50, s.hbiMs / 4);
}

/**
 * How long nothing has been heard on a session silent for over twice the heartbeat (it is taken
 * for dead even if TCP says otherwise), or null while it is not.
 */
export function silentFor(s: SocketStatus, now: number): number | null {
  if (s.state.name !== 'heartbeat') return null;
  const quiet = now - s.state.lastHeard;
  return quiet > 2 * s.hbiMs ? quiet : null;
}

// ---- transitions -----------------------------------------------------------------------------

const to = (s: SocketStatus, state: SocketState): SocketStatus =>
  s.state.name === 'closed' ? s : { ...s, state };

/** `connect`: discovery starts (from `idle` or `reconnecting` only). */
export function connecting(s: SocketStatus): SocketStatus {
  return mayConnect(s) ? to(s, { name: 'connecting' }) : s;
}

/** `opened`: the upgrade succeeded and `C` was sent. */
export function opened(s: SocketStatus): SocketStatus {
  return s.state.name === 'connecting' ? to(s, { name: 'open' }) : s;
}

/** `answered`: `C` answered 200 with session `sid` and, maybe, a heartbeat (seconds). */
export function answered(
  s: SocketStatus,
  sid: string,
  hbiSeconds: number | undefined,
  now: number,
): SocketStatus {
  if (s.state.name === 'closed') return s;
  const hbiMs = hbiSeconds !== undefined && hbiSeconds > 0 ? hbiSeconds * 1000 : s.hbiMs;
  return { hbiMs, state: { name: 'heartbeat', sid, lastHeard: now } };
}

/** `heard`: anything arrived on the socket (a message, a ping). */
export function heard(s: SocketStatus, now: number): SocketStatus {
  return s.state.name === 'heartbeat' ? to(s, { ...s.state, lastHeard: now }) : s;
}

/** `dropped`: the socket (or its discovery) failed, closed or was given up; the next in `waitMs`. */
export function dropped(s: SocketStatus, reason: DropReason, waitMs: number): SocketStatus {
  return to(s, { name: 'reconnecting', reason, waitMs });
}

/** `closed`: the client is closed. */
export function closed(s: SocketStatus): SocketStatus {
  return { ...s, state: { name: 'closed' } };
}
