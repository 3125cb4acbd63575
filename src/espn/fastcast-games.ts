import type { League } from '../core/leagues.js';
import type { FastcastClient, FastcastListener, TopicLoss } from './fastcast-client.js';
import { gameTopic, parseGameTopic } from './fastcast-wire.js';
import type { TopicDocument } from './fastcast-topic.js';

/**
 * FastCast by game: the push service the live engine asks for (streams/engine-types.ts, `GamePush`)
 * over one FastCast client. Topics are named and read here, and the client's loss reasons are
 * told as the engine's two kinds of loss; the engine never sees a topic.
 */

export interface FastcastGame {
  readonly league: League;
  readonly gameId: string;
}

/** `behind`: a fresh checkpoint is on its way; `down`: push does not feed the game for now. */
export type FastcastGameLoss = 'behind' | 'down';

export interface FastcastGameListener {
  document(game: FastcastGame, update: { doc: unknown; fresh: boolean; where: string }): string | void;
  lost(game: FastcastGame, kind: FastcastGameLoss, detail: string): void;
}

export interface FastcastGames {
  subscribe(league: League, gameId: string): void;
  unsubscribe(league: League, gameId: string): void;
  close(): Promise<void>;
}

type TopicClient = Pick<FastcastClient, 'subscribe' | 'unsubscribe' | 'close'>;

// Losses after which the topic's document is behind but a fresh checkpoint is on its way. The
// others (the socket closed, no topic, a failed checkpoint, a resync storm) leave the game to
// polling until a document comes.
const BEHIND: ReadonlySet<TopicLoss> = new Set<TopicLoss>([
  'mid_gap',
  'bad_patch',
  'bad_payload',
  'bad_document',
]);

/** The engine's kind of loss for a FastCast loss reason. */
export const lossKind = (reason: TopicLoss): FastcastGameLoss => (BEHIND.has(reason) ? 'behind' : 'down');

/** A loss told in words: the reason (`mid gap`) and what the client said of it. */
export const lossDetail = (reason: TopicLoss, detail: string): string =>
  `${reason.replace(/_/g, ' ')}: ${detail}`;

/**
 * Opens a FastCast client with `open` and hands its reports to `listener` by game; topics that
 * name no game are ignored.
 */
export function createFastcastGames(
  open: (listener: FastcastListener) => TopicClient,
  listener: FastcastGameListener,
): FastcastGames {
  const client = open({
    document(topic: string, update: TopicDocument) {
      const game = parseGameTopic(topic);
      if (!game) return;
      return listener.document(game, {
        doc: update.doc,
        fresh: update.patches === 0,
        where: `fastcast ${topic}`,
      });
    },
    lost(topic, reason, detail) {
      const game = parseGameTopic(topic);
      if (game) listener.lost(game, lossKind(reason), lossDetail(reason, detail));
    },
  });
  return {
    subscribe: (league, gameId) => client.subscribe(gameTopic(league, gameId)),
    unsubscribe: (league, gameId) => client.unsubscribe(gameTopic(league, gameId)),
    close: () => client.close(),
  };
}
