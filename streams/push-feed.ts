import { gameTopic, parseGameTopic } from '../src/espn/fastcast-frames.js';
import type { League } from '../src/core/leagues.js';
import type { EngineContext } from './engine-context.js';
import { documentArrived, fellBack, resyncing } from './push-health.js';
import { setHealth } from './push-state.js';
import { readSummaryHeader } from './summary-header.js';
import type { GameTracker } from './summary-poller.js';

/**
 * The engine's side of FastCast: one push client for every game, a topic per game whose poller
 * runs, and what the client reports turned into each game's push health and pending document.
 */
export interface PushFeed {
  /** The game's poller started: its topic is subscribed. */
  want(t: GameTracker): void;
  /** The game's poller stopped: its topic is forgotten. */
  forget(t: GameTracker): void;
  close(): Promise<void>;
}

// Losses after which the topic's document is behind but a fresh checkpoint is on its way. The
// others (the socket closed, no topic, a failed checkpoint, a resync storm) leave the game to
// polling until a document comes.
const RESYNC_REASONS: ReadonlySet<string> = new Set(['mid_gap', 'bad_patch', 'bad_payload', 'bad_document']);

export function createPushFeed(
  ctx: EngineContext,
  push: NonNullable<EngineContext['push']>,
  trackerOf: (league: League, gameId: string) => GameTracker | undefined,
): PushFeed {
  const { logger, now } = ctx;
  const running = (topic: string): GameTracker | undefined => {
    const game = parseGameTopic(topic);
    const t = game && trackerOf(game.league, game.gameId);
    return t?.push && t.sub !== null ? t : undefined;
  };
  const client = push.connect({
    document(topic, update) {
      const t = running(topic);
      if (!t?.push) return;
      // A document whose header does not read would fail every diff and every reconciliation
      // while the game looked fed by push: refused, it is resynced and the game polled meanwhile.
      try {
        readSummaryHeader(update.doc, `fastcast ${topic}`);
      } catch (error) {
        return `pushed document unusable: ${(error as Error).message}`;
      }
      t.push.doc = update.doc;
      t.push.pending = true;
      setHealth(t.push, documentArrived(t.push.health, now(), update.patches === 0), t.key, logger);
      t.push.wake.next();
    },
    lost(topic, reason, detail) {
      const t = running(topic);
      if (!t?.push) return;
      const why = `${reason.replace(/_/g, ' ')}: ${detail}`;
      const next = RESYNC_REASONS.has(reason)
        ? resyncing(t.push.health, now(), why)
        : fellBack(t.push.health, now(), why);
      setHealth(t.push, next, t.key, logger);
    },
  });
  return {
    want(t) {
      if (t.push) client.subscribe(gameTopic(t.key.league, t.key.gameId));
    },
    forget(t) {
      if (t.push) client.unsubscribe(gameTopic(t.key.league, t.key.gameId));
    },
    close: () => client.close(),
  };
}
