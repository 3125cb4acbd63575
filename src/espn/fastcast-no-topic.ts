import { Backoff } from '../core/backoff.js';

/**
 * FastCast answers `S` with 200 even for a topic that does not exist (yet): only an `H` proves
 * the topic. Each subscription sent is watched for its `H`; one that brings none within the
 * timeout is "no topic", and the topic is asked for again after a backoff of its own (from
 * `retryMs`, doubling up to ten times it, reset by a document).
 */
export interface NoTopicWatch {
  /** An `S` for `topic` was sent on session `sid`: `expired(topic)` follows unless it is answered first. */
  subscribed(topic: string, sid: string): void;
  /** An `H` (or a refusal) answered the topic's subscription. */
  answered(topic: string): void;
  /** The delay before asking for a topic again that was no topic (the next step of its backoff). */
  retryDelay(topic: string): number;
  /** A document of the topic arrived: its next "no topic" backs off from the start. */
  delivered(topic: string): void;
  forget(topic: string): void;
}

export interface NoTopicOptions {
  readonly timeoutMs: number;
  readonly retryMs: number;
  /** Runs `fn` after `ms` (the client's timers, cleared when it closes). */
  readonly later: (ms: number, fn: () => void) => void;
  /** The session now open, null while none is. */
  readonly session: () => string | null;
  /** The subscription of `topic` went unanswered: still waiting for its `H`, on the same session. */
  readonly expired: (topic: string) => void;
  readonly random?: () => number;
}

const BACKOFF_FACTOR = 10;

export function createNoTopicWatch(options: NoTopicOptions): NoTopicWatch {
  // The subscription each topic waits on an `H` for, by a count per topic.
  const waiting = new Map<string, number>();
  const backoffs = new Map<string, Backoff>();
  return {
    subscribed(topic, sid) {
      const seq = (waiting.get(topic) ?? 0) + 1;
      waiting.set(topic, seq);
      options.later(options.timeoutMs, () => {
        if (options.session() !== sid || waiting.get(topic) !== seq) return;
        waiting.delete(topic);
        options.expired(topic);
      });
    },
    answered: (topic) => void waiting.delete(topic),
    retryDelay(topic) {
      let b = backoffs.get(topic);
      if (!b) {
        b = new Backoff({
          baseMs: options.retryMs,
          maxMs: options.retryMs * BACKOFF_FACTOR,
          ...(options.random ? { random: options.random } : {}),
        });
        backoffs.set(topic, b);
      }
      return b.next();
    },
    delivered: (topic) => backoffs.get(topic)?.reset(),
    forget(topic) {
      waiting.delete(topic);
      backoffs.delete(topic);
    },
  };
}
