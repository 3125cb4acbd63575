import { gameTopic, parseGameTopic } from '../src/espn/fastcast-wire.js';
import type { League } from '../src/core/leagues.js';
import type { EngineContext } from './engine-context.js';
import { documentArrived, fellBack, resyncing } from './push-health.js';
import { NOT_FED_REASON } from './game-feed.js';
import { setHealth } from './push-state.js';
import { readSummaryHeader } from './summary-header.js';
import type { GameTracker } from './summary-poller.js';

/**
 * The engine's side of FastCast: one push client for every game, a topic per game whose poller
 * runs, and what the client reports turned into each game's push health and pending document.
 */
export interface PushFeed {
  /** This instance feeds the game (its poller runs, with the lease): its topic is subscribed. */
  want(t: GameTracker): void;
  /**
   * This instance no longer feeds the game (standby, or its poller stopped): its topic is
   * forgotten, with what it delivered, and the game is polled when it is fed here again.
   */
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
  // The topics of the games this instance feeds (asked for at every poll that holds the lease).
  const subscribed = new Set<string>();
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
      if (!t.push) return;
      const topic = gameTopic(t.key.league, t.key.gameId);
      if (subscribed.has(topic)) return;
      subscribed.add(topic);
      client.subscribe(topic);
    },
    forget(t) {
      const push = t.push;
      const topic = gameTopic(t.key.league, t.key.gameId);
      if (!push || !subscribed.delete(topic)) return;
      client.unsubscribe(topic);
      // Unsubscribed, the topic reports nothing more: a health left at push would wait for
      // documents that never come once the game is fed here again, and a document kept would be
      // older than what the game's feeder committed meanwhile.
      push.doc = undefined;
      push.pending = false;
      setHealth(push, fellBack(push.health, now(), NOT_FED_REASON), t.key, logger);
    },
    close: () => client.close(),
  };
}
