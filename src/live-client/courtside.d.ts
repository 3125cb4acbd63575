// Types of courtside.js, which pages load as is from the daemon (/client/courtside.js) and Node
// imports as `courtside/client`. Hand-written: the module is plain JavaScript so that it needs no
// build step.
import type { EventType, GameEvent, GameSnapshot, League, PlayRow } from './events.js';

export type * from './events.js';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** A change of the connection's state, with why. */
export interface StateChange {
  state: ConnectionState;
  previous: ConnectionState;
  /** Why, for a person: "connected", "connection lost (1006)", "heartbeat: nothing heard for ...". */
  reason: string;
  /** Set when the client closed for good on an error, or gave up on a silent connection. */
  code?:
    | 'unauthorized'
    | 'forbidden'
    | 'retries_exhausted'
    | 'no_websocket'
    | 'invalid_url'
    | 'heartbeat_timeout'
    | 'connect_timeout';
  /** The WebSocket close code, when the socket closed. */
  closeCode?: number;
  /** Reconnect attempts since the last successful one (0 once open). */
  attempt: number;
  /** `reconnecting`: when the next attempt starts. */
  retryInMs?: number;
  error?: Error;
}

export interface RetryOptions {
  /** The first retry's step, ms (default 500). Each wait is between half and all of its step. */
  minMs?: number;
  /** The largest step, ms (default 10000). */
  maxMs?: number;
  /** Growth of the step per failed attempt (default 2). */
  factor?: number;
  /** Retries in a row before the client closes for good (default Infinity). */
  attempts?: number;
}

/** A WebSocket constructor: the platform's, or the `ws` package's. */
export type WebSocketConstructor = new (url: string | URL, ...rest: never[]) => unknown;

export interface ConnectOptions {
  /** Bearer token (sent as a header with `ws`, as `?token=` otherwise). */
  token?: string;
  /** Reconnect backoff; false: do not reconnect. */
  retry?: RetryOptions | false;
  /** The implementation to use; default: global WebSocket, else the `ws` package. */
  WebSocket?: WebSocketConstructor;
  /** How long to wait for the daemon's `welcome` (default 10000 ms). */
  connectTimeoutMs?: number;
  /** A ceiling on the heartbeat interval; the server's own (`welcome.heartbeatMs`) is used when lower. */
  heartbeatMs?: number;
  /** Event ids remembered per subscription to drop duplicates (default 10000). */
  dedupeWindow?: number;
}

export interface SubscribeOptions {
  /** Subscription id on the connection (default `sub-<n>`), 1-64 printable ASCII. */
  id?: string;
  leagues?: League[];
  /** ESPN game ids. */
  games?: string[];
  /** Team ids or abbreviations (case-insensitive). */
  teams?: string[];
  /** Conference ids (ESPN's group ids, e.g. "2" ACC, "23" SEC): games in which either team plays. */
  conferences?: string[];
  /** true: only games in which at least one team has a poll rank. */
  ranked?: boolean;
  types?: EventType[];
  /** Send a snapshot of each matching game first (default false). */
  snapshot?: boolean;
  /** Spoiler delay, whole seconds 0-300. */
  delay?: number;
  /** Start after this offset (a previous run's last `event.offset`). */
  since?: string;
}

/** The `welcome` frame. */
export interface Welcome {
  type: 'welcome';
  version: string;
  heartbeatMs: number;
  retention: number;
  offset: string;
  limits: {
    maxSubscriptions: number;
    maxFilterValues: number;
    maxMessageBytes: number;
    maxBufferedBytes: number;
    maxDelaySeconds: number;
  };
}

/** A resume that could not be exact: snapshots of the matching games follow. */
export interface Gap {
  code: 'resume_gap';
  /** The daemon's explanation (names the newest lost offset when known). */
  message: string;
  /** The offset the subscription tried to resume from. */
  since: string | null;
}

export interface SnapshotMessage {
  type: 'snapshot';
  game: GameSnapshot;
}

export type GapMessage = { type: 'gap' } & Gap;

/** What `messages()` yields: `type` tells them apart and narrows an event's `data`. */
export type SubscriptionMessage = GameEvent | SnapshotMessage | GapMessage;

export class LiveClientError extends Error {
  /**
   * `unauthorized`, `forbidden`, `retries_exhausted`, `no_websocket`, `invalid_url`, `closed`, or
   * the daemon's code when it refused a subscription (`unknown_league`, `invalid_message`, ...).
   */
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown });
}

export type SubscriptionEvents = {
  event: [event: GameEvent];
  snapshot: [game: GameSnapshot];
  gap: [gap: Gap];
  state: [change: StateChange];
  /** The daemon refused the subscription, or the client closed on an error; `end` follows. */
  error: [error: LiveClientError];
  end: [];
};

export type LiveClientEvents = {
  state: [change: StateChange];
  welcome: [welcome: Welcome];
  /** A fatal error (the client is closed), or an error frame about no subscription. */
  error: [error: LiveClientError];
};

declare class Emitter<Events extends { [K in keyof Events]: unknown[] }> {
  on<K extends keyof Events>(name: K, listener: (...args: Events[K]) => void): this;
  once<K extends keyof Events>(name: K, listener: (...args: Events[K]) => void): this;
  off<K extends keyof Events>(name: K, listener: (...args: Events[K]) => void): this;
  listenerCount(name: keyof Events): number;
}

export class Subscription extends Emitter<SubscriptionEvents> implements AsyncIterable<GameEvent> {
  readonly id: string;
  /** Where a resume starts: the last event's offset (or the `subscribed` one before any). */
  readonly since: string | undefined;
  /** Confirmed by the daemon on the current connection. */
  readonly active: boolean;
  readonly ended: boolean;
  readonly stats: { events: number; duplicates: number; snapshots: number; gaps: number };
  /** Events only, in order, each once; ends on unsubscribe/close, throws if the daemon refused it. */
  [Symbol.asyncIterator](): AsyncIterator<GameEvent>;
  /** Snapshots, gap notices and events, in the order they arrived. */
  messages(): AsyncIterableIterator<SubscriptionMessage>;
  /** Ends the subscription; nothing more is delivered for it. */
  unsubscribe(): void;
}

export class LiveClient extends Emitter<LiveClientEvents> {
  /** The stream URL (`ws(s)://host/v1/stream`). */
  readonly url: URL;
  readonly state: ConnectionState;
  /** The daemon's last `welcome`. */
  readonly welcome: Welcome | undefined;
  readonly subscriptions: Subscription[];
  subscribe(options?: SubscribeOptions): Subscription;
  /** Closes for good and ends every subscription; safe to call twice. */
  close(): Promise<void>;
}

/** Opens a client: `connect('http://127.0.0.1:8080')`, or `connect('/')` in a page of the daemon. */
export function connect(url: string | URL, options?: ConnectOptions): LiveClient;

/** `ws(s)://host/v1/stream` from a daemon URL, a stream URL, or a path relative to the page. */
export function streamUrl(url: string | URL): URL;

/** The wait before retry `attempt` (1-based): between half and all of the capped step. */
export function backoffMs(retry: Required<RetryOptions>, attempt: number, random?: () => number): number;

/** Plays kept in `recentPlays` (as the daemon keeps them in a snapshot). */
export const RECENT_PLAYS: 20;

/**
 * A game as the client rebuilds it: the fields of `GET /v1/games/<league>/<id>`, plus `plays`,
 * every play received, in the upstream's order.
 */
export interface LiveGame extends GameSnapshot {
  plays: PlayRow[];
}

/** What a reducer takes: events, snapshot messages, bare snapshots; gap notices are ignored. */
export type GameInput = GameEvent | SnapshotMessage | GameSnapshot | GapMessage;

export interface ReduceOptions {
  /** Plays kept per game, oldest dropped first (default: all). At least 20. */
  maxPlays?: number;
}

/** One step: the game after `input` (a new object when anything changed). */
export function reduceGame(
  prev: LiveGame | undefined,
  input: GameInput,
  options?: ReduceOptions,
): LiveGame | undefined;

export interface GameStore {
  /** Applies a snapshot or an event; returns its game's new state. */
  apply(input: GameInput): LiveGame | undefined;
  get(league: League, gameId: string): LiveGame | undefined;
  list(): LiveGame[];
  /** Forgets a game. */
  delete(league: League, gameId: string): boolean;
}

/** The games of one or more subscriptions, each a plain object replaced on every change. */
export function gameState(options?: ReduceOptions): GameStore;

/** A game without its `plays`: the shape of `GET /v1/games/<league>/<id>`. */
export function toSnapshot(game: LiveGame): GameSnapshot;

// Earlier names, kept for existing users: `Client` alone was ambiguous beside the ESPN client
// of the main entry.
/** @deprecated use LiveClient */
export const Client: typeof LiveClient;
/** @deprecated use LiveClient */
export type Client = LiveClient;
/** @deprecated use LiveClientError */
export const CourtsideClientError: typeof LiveClientError;
/** @deprecated use LiveClientError */
export type CourtsideClientError = LiveClientError;
/** @deprecated use LiveClientEvents */
export type ClientEvents = LiveClientEvents;
