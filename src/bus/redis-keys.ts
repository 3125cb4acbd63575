import { InvalidOptionsError } from '../core/errors.js';
import { gameMember } from './game-member.js';
import type { GameKey } from './types.js';

/**
 * Where the bus keeps what in Redis: the one definition of the key layout, shared by the bus, the
 * configuration (its default prefix) and readers outside the bus (the alert worker).
 */

export const DEFAULT_PREFIX = 'courtside:';

/**
 * The default prefix on a Redis Cluster. Its hash tag puts every key of the log and game state in
 * one slot, so the commit script, MULTI and MGET touch one node and the log keeps one total order
 * (docs/decisions.md, "Redis Cluster").
 */
export const CLUSTER_PREFIX = '{courtside}:';

/** A prefix: letters, digits, `: . _ -`, with at most one `{hash tag}` (non-empty) anywhere in it. */
export const PREFIX_PATTERN = /^[A-Za-z0-9:._-]*(\{[A-Za-z0-9:._-]+\}[A-Za-z0-9:._-]*)?$/;

/** The `{tag}` part of a prefix, which decides the Cluster slot of every key under it; or undefined. */
export function hashTagOf(prefix: string): string | undefined {
  return /\{([^{}]+)\}/.exec(prefix)?.[1];
}

/**
 * The prefix to use on a Redis whose URL is of `topology`: on a Cluster an unset prefix becomes
 * `CLUSTER_PREFIX` and one without a hash tag is refused, as its keys would spread over slots and
 * every multi-key command would fail with CROSSSLOT. Elsewhere the prefix (or the default) as is.
 */
export function prefixForTopology(topology: string, prefix: string | undefined): string {
  if (topology !== 'cluster') return prefix ?? DEFAULT_PREFIX;
  if (prefix === undefined) return CLUSTER_PREFIX;
  if (hashTagOf(prefix) === undefined) {
    throw new InvalidOptionsError(
      `prefix ${JSON.stringify(prefix)} has no {hash tag}: on a Redis Cluster every key must share one slot, e.g. ${CLUSTER_PREFIX}`,
    );
  }
  return prefix;
}

/**
 * The key of a game's meta (its diff state, with the snapshot the engine keeps), for readers
 * outside the bus that need one field of it without a bus of their own (the alert worker's colours).
 */
export function gameMetaKey(prefix: string, game: GameKey): string {
  return `${prefix}game:${game.league}:${game.gameId}:meta`;
}

/** The keys of one bus under `prefix`: see `createRedisBus` for what each holds. */
export interface RedisKeys {
  stream: string;
  games: string;
  trimmed: string;
  epoch: string;
  lease(game: GameKey): string;
  offer(game: GameKey): string;
  meta(game: GameKey): string;
  entries(game: GameKey): string;
  lastCommit(game: GameKey): string;
  /** A game's member in the `games` set. */
  member(game: GameKey): string;
}

export function redisKeys(prefix: string): RedisKeys {
  const game = (g: GameKey): string => `${prefix}game:${g.league}:${g.gameId}`;
  return {
    stream: `${prefix}events`,
    games: `${prefix}games`,
    trimmed: `${prefix}events:trimmed`,
    epoch: `${prefix}epoch`,
    lease: (g) => `${prefix}lease:${g.league}:${g.gameId}`,
    offer: (g) => `${prefix}offer:${g.league}:${g.gameId}`,
    meta: (g) => gameMetaKey(prefix, g),
    entries: (g) => `${game(g)}:entries`,
    lastCommit: (g) => `${game(g)}:last-commit`,
    member: gameMember,
  };
}
