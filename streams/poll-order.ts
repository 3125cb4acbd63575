import type { EventDataMap, EventType } from '../src/model/events.js';

/**
 * Puts one poll's events in the order they happened on the game clock. A poll can hold the last
 * plays of a period and the status that ends it, or plays on both sides of a period boundary: a
 * consumer that reads events one by one (a terminal feed, an alert rule) must see the plays
 * before the end they lead to, and a period's start before its plays. The order is a function of
 * the poll's content alone, so the same payloads give the same `seq` on any instance.
 */

/** An event of the poll before its envelope and `seq`. */
export interface DraftEvent<T extends EventType = EventType> {
  type: T;
  id: string;
  data: EventDataMap[T];
}

export interface PollPlay {
  /** `play.removed`, `play.added` or `play.updated`, in the play diff's order. */
  event: DraftEvent;
  /** The play's period (for a removal, the last row held); null when unknown. */
  period: number | null;
  /** Win-probability events of this play, which follow it. */
  then: DraftEvent[];
}

export interface PollPeriodEvent {
  event: DraftEvent;
  period: number;
  /** `period.ended` (else `period.started`). */
  ends: boolean;
}

export interface PollStatus {
  event: DraftEvent;
  /**
   * True for a game under way (started, resumed, into a new period): the status comes before the
   * events of its period. False for a status that stops the game or a period (end of period,
   * halftime, delay, final, suspension): it comes after what happened before it.
   */
  leads: boolean;
  /** The period the status speaks of; null: the game as a whole (final, suspended, postponed). */
  period: number | null;
}

export interface PollEvents {
  status: PollStatus | null;
  /** `game.started`. */
  started: DraftEvent | null;
  plays: PollPlay[];
  /** In order: started q, ended q, started q + 1 … */
  periods: PollPeriodEvent[];
  /** The header's period: the moment its score (and loose win probabilities) describe. */
  now: number;
  /** Win-probability events of plays this poll did not add or change. */
  looseWinprob: DraftEvent[];
  score: DraftEvent | null;
  /** `situation.changed`: the fouls and timeouts after the poll's plays, at the header's moment. */
  situation?: DraftEvent | null;
  /** `game.ended`. */
  ended: DraftEvent | null;
}

interface Placed {
  event: DraftEvent;
  /** Period the event belongs to, for placing the status among them. */
  key: number;
}

/**
 * The order (docs/events.md, "Order within one poll"): plays in the play diff's order, each
 * followed by its win probability; before a play of period p, the period events up to
 * `period.started` p; after the plays, the header's moment (loose win probabilities, the score,
 * then the situation), then the period events left (the end of the current period).
 * `game.status` goes where its period begins when it leads, after its period's events when it
 * stops a period, at the end when it speaks of the whole game. `game.started` comes before every play and period event;
 * `game.ended` last.
 */
export function orderPollEvents(poll: PollEvents): DraftEvent[] {
  const body: Placed[] = [];
  let next = 0;
  let key = 0;
  const flushTo = (period: number): void => {
    for (; next < poll.periods.length; next++) {
      const p = poll.periods[next] as PollPeriodEvent;
      if (p.ends ? p.period >= period : p.period > period) break;
      key = p.period;
      body.push({ event: p.event, key });
    }
  };
  for (const play of poll.plays) {
    if (play.period !== null) {
      flushTo(play.period);
      key = play.period;
    }
    body.push({ event: play.event, key });
    for (const wp of play.then) body.push({ event: wp, key });
  }
  flushTo(poll.now);
  for (const wp of poll.looseWinprob) body.push({ event: wp, key: poll.now });
  if (poll.score) body.push({ event: poll.score, key: poll.now });
  if (poll.situation) body.push({ event: poll.situation, key: poll.now });
  for (; next < poll.periods.length; next++) {
    const p = poll.periods[next] as PollPeriodEvent;
    body.push({ event: p.event, key: p.period });
  }

  const events = body.map((b) => b.event);
  let head: DraftEvent[] = poll.started ? [poll.started] : [];
  const status = poll.status;
  if (status) {
    const period = status.period;
    const found =
      period === null ? -1 : body.findIndex(status.leads ? (b) => b.key >= period : (b) => b.key > period);
    const at = found === -1 ? body.length : found;
    // A status that leads from the poll's first event (the game starting) reads before
    // game.started: it is what says so.
    if (status.leads && at === 0) head = [status.event, ...head];
    else events.splice(at, 0, status.event);
  }
  return [...head, ...events, ...(poll.ended ? [poll.ended] : [])];
}
