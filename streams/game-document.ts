import { EMPTY, type Observable } from 'rxjs';
import type { GameKey } from '../src/bus/types.js';
import { operationName } from '../src/espn/operations.js';
import type { EngineContext } from './engine-context.js';
import type { GamePush, GamePushListener, PushFeedStatus } from './engine-types.js';
import { NOT_FED_REASON } from './game-feed.js';
import { gameKeyOf } from './game-tracker.js';
import {
  checkResync,
  documentArrived,
  fellBack,
  pollDue,
  reconcileOverdue,
  reconciled,
  resyncing,
  wantReconcile,
} from './push-health.js';
import { newPushState, setHealth, type PushState } from './push-state.js';
import { readSummaryHeader } from './summary-header.js';
import { reconcileSummary } from './summary-merge.js';

/**
 * Each game's document, as its follower asks for it: the one push delivered, the summary polled,
 * or the two merged (summary-merge.ts). Push is one client for every game (EnginePush), subscribed
 * for the games this instance feeds; what it reports becomes each game's push health
 * (push-health.ts, stepped here only) and pending document, and a pending document wakes the
 * game's follower. With push off, every document is polled.
 */
export interface GameDocuments {
  /** The game's next document, or why there is none this time. */
  next(key: GameKey, request: DocumentRequest): Promise<NextDocument>;
  /** How often the game's summary is wanted now. */
  demand(key: GameKey): SummaryDemand;
  /** A pushed document waits to be diffed. */
  pending(key: GameKey): boolean;
  /** Fires when a pushed document arrives (never with push off). */
  wakes(key: GameKey): Observable<void>;
  /** This instance feeds the game (its follower runs, with the lease): push is subscribed for it. */
  fed(key: GameKey): void;
  /**
   * This instance no longer feeds the game (its follower stopped): push forgets it, with what it
   * delivered, and the game is polled when it is fed here again.
   */
  unfed(key: GameKey): void;
  /**
   * Another instance holds the game: a pushed document is the lease holder's to diff (left pending
   * here, it would have the follower ask for the lease again and again with no pause).
   */
  standBy(key: GameKey): void;
  /** The game ended: its next document is polled (ESPN's final corrections), push or not. */
  ended(key: GameKey): void;
  /** How push feeds the game, for status pages; null when push is off. */
  feedStatus(key: GameKey): PushFeedStatus | null;
  /** The game is forgotten. */
  release(key: GameKey): void;
  /** Closes the push client, if push is on. */
  close(): Promise<void>;
}

export interface DocumentRequest {
  /** Names the summary in error messages. */
  readonly where: string;
  /** Whether the live budget lets the summary be requested now (the request is then counted). */
  mayRequest(): Promise<boolean>;
}

/**
 * `document`: the one to diff, `pushed` when push delivered it as it is. `push-fed`: healthy push
 * feeds the game and no reconciliation is due. `deferred`: the budget had no room for the request
 * the game wanted (none was made).
 */
export type NextDocument =
  | { readonly kind: 'document'; readonly doc: unknown; readonly pushed: boolean }
  | { readonly kind: 'push-fed' }
  | { readonly kind: 'deferred' };

/**
 * How often the game's summary is wanted: `scheduled` when push health spaces its polls (a pushed
 * game's reconciliation, or its final corrections when it ends), so the budget need not space them
 * again.
 */
export interface SummaryDemand {
  readonly everyMs: number;
  readonly scheduled: boolean;
}

const PUSH_FED: NextDocument = { kind: 'push-fed' };
const DEFERRED: NextDocument = { kind: 'deferred' };

/** `followed`: whether the game's follower runs; push reports of other games are ignored. */
export function createGameDocuments(ctx: EngineContext, followed: (key: GameKey) => boolean): GameDocuments {
  const { logger, now, intervals } = ctx;
  const states = new Map<string, PushState>();
  // The games push is subscribed for (asked for at every poll that holds the lease).
  const subscribed = new Set<string>();
  const stateOf = (key: GameKey): PushState => {
    const k = gameKeyOf(key.league, key.gameId);
    let state = states.get(k);
    if (state === undefined) states.set(k, (state = newPushState(now())));
    return state;
  };
  const fedState = (key: GameKey): PushState | undefined => (followed(key) ? stateOf(key) : undefined);
  const push: GamePush | null = ctx.push && ctx.push.connect(pushListener(ctx, fedState));
  const stateIfPush = (key: GameKey): PushState | null => (push ? stateOf(key) : null);

  async function poll(key: GameKey): Promise<unknown> {
    return ctx.client.call(
      operationName(key.league, 'summary'),
      { event_id: key.gameId },
      { returnParsed: false, fresh: true, signal: ctx.signal },
    );
  }

  async function next(key: GameKey, request: DocumentRequest): Promise<NextDocument> {
    const p = stateIfPush(key);
    if (p === null)
      return (await request.mayRequest())
        ? { kind: 'document', doc: await poll(key), pushed: false }
        : DEFERRED;
    const reconcileMs = ctx.push?.reconcileMs ?? 0;
    const overdue = reconcileOverdue(p.health, now(), p.lastPollAt, reconcileMs, intervals.summaryMs);
    // A pushed document waiting is diffed without a request when the budget has no room for the
    // reconciliation: it is tried again at a later tick.
    if (p.pending && (!overdue || !(await request.mayRequest()))) {
      // A document push delivered: the same diff as a polled summary, without a request.
      p.pending = false;
      return { kind: 'document', doc: p.doc, pushed: true };
    }
    setHealth(p, checkResync(p.health, now(), intervals.summaryMs), key, logger);
    // Push is healthy: the summary waits for its reconciliation.
    if (!pollDue(p.health, now(), p.lastPollAt, reconcileMs)) return PUSH_FED;
    if (!(overdue && p.pending) && !(await request.mayRequest())) return DEFERRED;
    const polled = await poll(key);
    p.lastPollAt = now();
    setHealth(p, reconciled(p.health), key, logger);
    if (p.doc === undefined) return { kind: 'document', doc: polled, pushed: false };
    // The site API's CDN can lag push: an older summary never takes back what push delivered.
    const merged = reconcileSummary(p.doc, polled, request.where);
    // The pending pushed document, if any, is the one just merged.
    p.pending = false;
    if (merged.pollWins && p.health.name !== 'push') p.doc = undefined;
    return { kind: 'document', doc: merged.doc, pushed: false };
  }

  function unfed(key: GameKey): void {
    if (!push || !subscribed.delete(gameKeyOf(key.league, key.gameId))) return;
    push.unsubscribe(key.league, key.gameId);
    // Unsubscribed, push reports nothing more of the game: a health left at push would wait for
    // documents that never come once the game is fed here again, and a document kept would be
    // older than what the game's feeder committed meanwhile.
    const p = stateOf(key);
    p.doc = undefined;
    p.pending = false;
    setHealth(p, fellBack(p.health, now(), NOT_FED_REASON), key, logger);
  }

  return {
    next,
    demand(key) {
      const pushed = stateIfPush(key)?.health.name === 'push';
      return pushed
        ? { everyMs: ctx.push?.reconcileMs ?? intervals.summaryMs, scheduled: true }
        : { everyMs: intervals.summaryMs, scheduled: false };
    },
    pending: (key) => stateIfPush(key)?.pending === true,
    wakes: (key) => stateIfPush(key)?.wake ?? EMPTY,
    fed(key) {
      const k = gameKeyOf(key.league, key.gameId);
      if (!push || subscribed.has(k)) return;
      subscribed.add(k);
      push.subscribe(key.league, key.gameId);
    },
    unfed,
    standBy(key) {
      const p = stateIfPush(key);
      if (p) p.pending = false;
      unfed(key);
    },
    ended(key) {
      const p = stateIfPush(key);
      if (p) setHealth(p, wantReconcile(p.health), key, logger);
    },
    feedStatus: (key) => stateIfPush(key)?.status ?? null,
    release: (key) => void states.delete(gameKeyOf(key.league, key.gameId)),
    close: () => push?.close() ?? Promise.resolve(),
  };
}

/** What push reports, turned into the game's push health and pending document. */
function pushListener(
  ctx: EngineContext,
  fedState: (key: GameKey) => PushState | undefined,
): GamePushListener {
  const { logger, now } = ctx;
  return {
    document(key, update) {
      const p = fedState(key);
      if (!p) return;
      // A document whose header does not read would fail every diff and every reconciliation
      // while the game looked fed by push: refused, a fresh one is asked for and the game polled
      // meanwhile.
      try {
        readSummaryHeader(update.doc, update.where);
      } catch (error) {
        return `pushed document unusable: ${(error as Error).message}`;
      }
      p.doc = update.doc;
      p.pending = true;
      setHealth(p, documentArrived(p.health, now(), update.fresh), key, logger);
      p.wake.next();
    },
    lost(key, kind, detail) {
      const p = fedState(key);
      if (!p) return;
      const next = kind === 'behind' ? resyncing(p.health, now(), detail) : fellBack(p.health, now(), detail);
      setHealth(p, next, key, logger);
    },
  };
}
