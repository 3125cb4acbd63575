import type { GameStateDelta, NewGameEvent } from '../src/bus/types.js';
import type { GameSnapshot, PlayRow, TeamRef } from '../src/model/events.js';
import { eventIds } from './event-ids.js';
import { diffPeriods } from './game-diff-periods.js';
import { diffPlaysPhase } from './game-diff-plays.js';
import { diffSituation } from './game-diff-situation.js';
import { buildSnapshot } from './game-diff-snapshot.js';
import { diffEnd, diffScore, diffStatus } from './game-diff-status.js';
import { diffWinprob } from './game-diff-winprob.js';
import { toEntry, type GameDiffState, type GameMeta } from './diff-state.js';
import { setRecords } from './play-diff.js';
import type { RawPlay } from './play-fingerprint.js';
import { orderPollEvents } from './poll-order.js';
import {
  compareProgress,
  isFinal,
  isIrregularStatus,
  isUnderWay,
  rankOf,
  readSummaryHeader,
  type SummaryHeader,
} from './summary-header.js';

export { SNAPSHOT_PLAYS } from './game-diff-snapshot.js';

/** Responses behind what was already seen are ignored this many times in a row, then believed. */
export const STALE_ACCEPT_AFTER = 3;

export interface DiffContext {
  /** Wall-clock time of the observation, ms (the events' `at`). */
  now: number;
  /** Converts raw plays to `plays` rows (the tables parser), same order. */
  toRows(plays: readonly RawPlay[]): PlayRow[];
  /** The game's scoreboard row, when the scoreboard has been seen. */
  scoreboardRow?: Record<string, unknown> | null;
  /** Names the request in errors, e.g. `mens_summary?event=401585607`. */
  where: string;
}

export type SummaryDiff =
  | {
      kind: 'stale';
      reason: string;
      /** The streak of stale responses this one makes. */
      streak: number;
      /** Counts this response in the game's stale streak; call once it is taken as ignored. */
      apply(): void;
    }
  | {
      kind: 'diff';
      events: NewGameEvent[];
      delta: GameStateDelta;
      /** False when nothing worth storing changed (no events, no entries, same status and clock). */
      dirty: boolean;
      snapshot: GameSnapshot;
      header: SummaryHeader;
      /** Makes this diff the game's state; call only once its events are committed. */
      apply(): void;
    };

/**
 * Diffs one raw summary against the game's state: returns the events (with `seq`), the bus delta
 * and the new snapshot, without changing the state until `apply()`. Throws
 * `UpstreamPayloadError` for a body that cannot be read (no events are produced from it).
 */
export function diffSummary(state: GameDiffState, raw: unknown, ctx: DiffContext): SummaryDiff {
  const scoreboardRow =
    ctx.scoreboardRow === undefined ? (state.meta.snapshot?.scoreboard ?? null) : ctx.scoreboardRow;
  const h = withScoreboardRanks(readSummaryHeader(raw, ctx.where), scoreboardRow);
  const meta = state.meta;
  const body = raw as Record<string, unknown>;

  const stale = staleDiff(state, h, body.plays);
  if (stale) return stale;

  const ids = eventIds(state.league, state.gameId);
  const at = new Date(ctx.now).toISOString();
  const teams = { home: teamRef(h.home.team), away: teamRef(h.away.team) };
  const next: GameMeta = { ...meta };
  const final = isFinal(h);

  // Each kind of event is worked out first, one phase each; orderPollEvents then puts them in
  // game-clock order. Ids come from the game's counters, never from positions, so the order does
  // not change them. The phases write only `next` and this poll's `records`, never the state.
  const { status, started } = diffStatus(meta, next, h, ids, teams);
  const plays = diffPlaysPhase(state, body.plays, ids, ctx.toRows);
  const records = plays.records;
  const winprob = diffWinprob(state, body.winprobability, ids, records, plays.byPlay);
  if (winprob.latest !== undefined) next.winProbability = winprob.latest;
  const scoreEvent = diffScore(meta, next, h, ids);
  const periods = diffPeriods(state, h, ids, records, plays.periods);
  const period = periods.period;
  next.periodsStarted = periods.startedTo;
  next.periodsEnded = periods.endedTo;
  const ended = diffEnd(meta, next, h, ids, period);
  const order = plays.plays?.order ?? state.plays.order;
  const { situation, event: situationEvent } = diffSituation(state, next, {
    h,
    raw,
    ids,
    teams,
    order,
    records,
    startedTo: periods.startedTo,
  });

  const ordered = orderPollEvents({
    status: status && {
      event: status,
      leads: isUnderWay(h),
      // In `post` or `pre` the status speaks of the game as a whole, not of one period.
      period: h.state === 'in' ? period : null,
    },
    started,
    plays: plays.events,
    periods: periods.events,
    now: period,
    looseWinprob: winprob.loose,
    score: scoreEvent,
    situation: situationEvent,
    ended,
  });
  const events: NewGameEvent[] = ordered.map(
    (e, i) =>
      ({
        id: e.id,
        type: e.type,
        league: state.league,
        gameId: state.gameId,
        seq: meta.seq + i + 1,
        at,
        teams,
        data: e.data,
      }) as NewGameEvent,
  );

  next.seq = meta.seq + events.length;
  next.state = h.state;
  next.statusName = h.name;
  next.statusDetail = h.detail;
  next.statusDescription = h.description;
  next.period = h.period ?? (final && period > 0 ? period : meta.period);
  next.clock = h.clock;
  next.teams = { home: h.home.team, away: h.away.team };
  next.date = h.date;

  const snapshot = buildSnapshot(state, h, next, { order, records, scoreboardRow, situation, at });
  next.snapshot = snapshot;

  const dirty =
    events.length > 0 ||
    records.size > 0 ||
    h.clock !== meta.clock ||
    h.detail !== meta.statusDetail ||
    scoreboardRow !== (meta.snapshot?.scoreboard ?? null) ||
    meta.snapshot === null;
  const delta: GameStateDelta = {
    meta: next,
    ...(records.size > 0 ? { set: [...records].map(([id, r]) => [id, toEntry(r)] as const) } : {}),
  };
  return {
    kind: 'diff',
    events,
    delta,
    dirty,
    snapshot,
    header: h,
    apply() {
      state.meta = next;
      if (plays.plays) {
        state.plays.order = plays.plays.order;
        state.plays.recs = plays.plays.recs;
      }
      setRecords(state.plays, records);
      state.staleStreak = 0;
      state.wpSeen = winprob.seen;
    },
  };
}

/**
 * The stale phase: a response behind what was already seen is ignored (and counted) until it has
 * come STALE_ACCEPT_AFTER times in a row; then it is believed. Null when the response goes on.
 */
function staleDiff(state: GameDiffState, h: SummaryHeader, plays: unknown): SummaryDiff | null {
  const meta = state.meta;
  // Leaving or entering a postponement/suspension is news, never staleness.
  const irregular = isIrregularStatus(h.name) || isIrregularStatus(meta.statusName);
  if (meta.state !== null && !irregular && isStale(h, meta, plays, state.plays.order.length)) {
    const streak = state.staleStreak + 1;
    if (streak < STALE_ACCEPT_AFTER) {
      return {
        kind: 'stale',
        reason: `status ${h.state} period ${h.period ?? '?'} clock ${h.clock ?? '?'} is behind ${meta.state} period ${meta.period ?? '?'} clock ${meta.clock ?? '?'}`,
        streak,
        apply() {
          state.staleStreak = streak;
        },
      };
    }
  }
  return null;
}

/**
 * The rule for "an old response arriving after a newer one": the game's state went backwards
 * (post → in, in → pre without a postponement-like status), or the period/clock is behind what
 * was seen AND the play list is shorter. The clock alone is not enough: ESPN's header clock
 * follows the latest-entered play, which can show an earlier game time than the one before.
 */
function isStale(h: SummaryHeader, meta: GameMeta, plays: unknown, heldPlays: number): boolean {
  if (meta.state === null) return false;
  const seen = { state: meta.state, period: meta.period, clock: meta.clock };
  if (h.state !== meta.state) return compareProgress({ state: h.state, period: null, clock: null }, seen) < 0;
  return Array.isArray(plays) && plays.length < heldPlays && compareProgress(h, seen) < 0;
}

function teamRef(t: TeamRef): TeamRef {
  return { id: t.id, abbreviation: t.abbreviation, rank: t.rank ?? null, conference: t.conference ?? null };
}

/**
 * The header names a team's rank only when it is ranked; when it names none, the scoreboard row's
 * rank (its `curatedRank`, 99 read as unranked) is taken, if the row has one.
 */
function withScoreboardRanks(h: SummaryHeader, row: Record<string, unknown> | null): SummaryHeader {
  if (row === null) return h;
  const rankFor = (side: 'home' | 'away'): SummaryHeader['home'] => {
    const s = h[side];
    if (s.team.rank != null) return s;
    const rank = rankOf(row[`${side}_rank`]);
    return rank === null ? s : { ...s, team: { ...s.team, rank } };
  };
  return { ...h, home: rankFor('home'), away: rankFor('away') };
}
