import type { GameStateDelta, NewGameEvent } from '../src/bus/types.js';
import type { League } from '../src/core/leagues.js';
import { isOvertime, periodLabel } from '../src/core/periods.js';
import type {
  EventDataMap,
  EventType,
  GameSnapshot,
  PeriodData,
  PlayRow,
  Score,
  TeamRef,
} from '../src/model/events.js';
import { eventIds } from './event-ids.js';
import { toEntry, type GameDiffState, type GameMeta } from './game-state.js';
import { diffPlays, setRecords, type PlayDiff, type PlayRecord } from './play-diff.js';
import { sameRawPlay, type RawPlay } from './play-fingerprint.js';
import { orderPollEvents, type DraftEvent, type PollPeriodEvent, type PollPlay } from './poll-order.js';
import { computeSituation, emptySituation, isNews, situationChanges } from './situation.js';
import { readRoster } from './situation-roster.js';
import {
  compareProgress,
  isEndOfPeriod,
  isFinal,
  isIrregularStatus,
  isUnderWay,
  rankOf,
  readSummaryHeader,
  type SummaryHeader,
} from './summary-header.js';

/** Responses behind what was already seen are ignored this many times in a row, then believed. */
export const STALE_ACCEPT_AFTER = 3;
/** Plays kept in a snapshot (the scorebug and a reconnecting client's context). */
export const SNAPSHOT_PLAYS = 20;

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
  | { kind: 'stale'; reason: string; streak: number }
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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const RAW_SOURCE = {
  idOf: (p: RawPlay): string | null =>
    typeof p?.id === 'string' ? p.id : typeof p?.id === 'number' ? String(p.id) : null,
  same: sameRawPlay,
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
  const body = raw as Obj;

  // Leaving or entering a postponement/suspension is news, never staleness.
  const irregular = isIrregularStatus(h.name) || isIrregularStatus(meta.statusName);
  if (meta.state !== null && !irregular && isStale(h, meta, body.plays, state.plays.order.length)) {
    if (state.staleStreak + 1 < STALE_ACCEPT_AFTER) {
      state.staleStreak++;
      return {
        kind: 'stale',
        reason: `status ${h.state} period ${h.period ?? '?'} clock ${h.clock ?? '?'} is behind ${meta.state} period ${meta.period ?? '?'} clock ${meta.clock ?? '?'}`,
        streak: state.staleStreak,
      };
    }
  }

  const ids = eventIds(state.league, state.gameId);
  const at = new Date(ctx.now).toISOString();
  const teams = { home: teamRef(h.home.team), away: teamRef(h.away.team) };
  const draft = <T extends EventType>(type: T, id: string, data: EventDataMap[T]): DraftEvent =>
    ({ type, id, data }) as DraftEvent;
  const next: GameMeta = { ...meta };
  const final = isFinal(h);

  // Each kind of event is worked out first; orderPollEvents then puts them in game-clock order.
  // Ids come from the game's counters, never from positions, so the order does not change them.

  // Status and start.
  let status: DraftEvent | null = null;
  if (h.state !== meta.state || h.name !== meta.statusName) {
    next.statusChanges = meta.statusChanges + 1;
    status = draft('game.status', ids.gameStatus(next.statusChanges, h.state, h.name), {
      state: h.state,
      previousState: meta.state,
      name: h.name,
      detail: h.detail,
      description: h.description,
    });
  }
  let started: DraftEvent | null = null;
  if (!meta.started && (h.state === 'in' || final)) {
    next.started = true;
    started = draft('game.started', ids.gameStarted(), { home: teams.home, away: teams.away, date: h.date });
  }

  // Plays: removals, then additions, updates and moves in list order.
  let plays: PlayDiff | undefined;
  const playEvents: PollPlay[] = [];
  const byPlay = new Map<string, PollPlay>();
  const playPeriods = new Set<number>();
  if (Array.isArray(body.plays)) {
    plays = diffPlays(state.plays, body.plays as RawPlay[], { ...RAW_SOURCE, toRows: ctx.toRows });
    for (const c of plays.changes) {
      const base = c.record;
      let event: DraftEvent;
      if (c.kind === 'removed') {
        event = draft('play.removed', ids.playRemoved(c.id, base.removes - 1), { playId: c.id, play: c.row });
      } else if (c.kind === 'added') {
        event = draft('play.added', ids.playAdded(c.id, base.adds - 1), {
          play: c.row,
          after: c.after,
          index: c.index,
        });
      } else {
        event = draft('play.updated', ids.playUpdated(c.id, base.updates, base.fp ?? ''), {
          play: c.row,
          changed: c.changed,
          previous: c.previous,
          ...(c.moved ? { after: c.after, moved: true } : {}),
        });
      }
      const period = periodOf(c.row);
      const entry: PollPlay = { event, period, then: [] };
      playEvents.push(entry);
      if (c.kind !== 'removed') {
        byPlay.set(c.id, entry);
        if (period !== null) playPeriods.add(period);
      }
    }
  }
  const records: Map<string, PlayRecord> = plays?.records ?? new Map();
  const current = (id: string): PlayRecord | undefined => records.get(id) ?? state.plays.records.get(id);

  // Win probability, per play id. The list is re-sent whole each poll; an entry equal to the
  // one at the same position last poll is unchanged without a lookup.
  const looseWinprob: DraftEvent[] = [];
  let wpSeen: GameDiffState['wpSeen'] = state.wpSeen;
  if (Array.isArray(body.winprobability)) {
    const list = body.winprobability as unknown[];
    const prev = state.wpSeen;
    const seenIds: string[] = [];
    const seenValues: number[] = [];
    let latest: GameMeta['winProbability'] = meta.winProbability;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!isObj(item)) continue;
      const playId =
        typeof item.playId === 'string'
          ? item.playId
          : typeof item.playId === 'number'
            ? String(item.playId)
            : null;
      const wp =
        typeof item.homeWinPercentage === 'number' && Number.isFinite(item.homeWinPercentage)
          ? item.homeWinPercentage
          : null;
      if (playId === null || wp === null) continue;
      const position = seenIds.length;
      seenIds.push(playId);
      seenValues.push(wp);
      const tie =
        typeof item.tiePercentage === 'number' && Number.isFinite(item.tiePercentage)
          ? item.tiePercentage
          : null;
      latest = { playId, homeWinPercentage: wp, tiePercentage: tie };
      if (prev !== null && prev.ids[position] === playId && prev.values[position] === wp) continue;
      const cur = current(playId);
      if (cur !== undefined && cur.wp === wp) continue;
      const record: PlayRecord = {
        ...(cur ?? {
          row: null,
          fp: null,
          after: null,
          wp: null,
          tie: null,
          adds: 0,
          updates: 0,
          removes: 0,
          wpChanges: 0,
        }),
        wp,
        tie,
        wpChanges: (cur?.wpChanges ?? 0) + 1,
      };
      records.set(playId, record);
      const event = draft('winprob.changed', ids.winprobChanged(playId, record.wpChanges), {
        playId,
        homeWinPercentage: wp,
        previousHomeWinPercentage: cur?.wp ?? null,
        tiePercentage: tie,
      });
      // A value for a play this poll brought follows that play; others sit at the header's moment.
      (byPlay.get(playId)?.then ?? looseWinprob).push(event);
    }
    next.winProbability = latest;
    wpSeen = { ids: seenIds, values: seenValues };
  }

  // Score: the header's (ahead of the last play's running score while live).
  let scoreEvent: DraftEvent | null = null;
  const live = h.state === 'in' || h.state === 'post';
  if (live && h.home.score !== null && h.away.score !== null) {
    const score: Score = { home: h.home.score, away: h.away.score };
    if (score.home !== meta.score.home || score.away !== meta.score.away) {
      // A side's score going down is a correction (a basket rescored or waived off), never play.
      const correction = score.home < meta.score.home || score.away < meta.score.away;
      if (correction) next.scoreEpoch = meta.scoreEpoch + 1;
      next.score = score;
      scoreEvent = draft('score.changed', ids.scoreChanged(score, next.scoreEpoch), {
        score,
        previous: meta.score,
        period: h.period,
        clock: h.clock,
        ...(correction ? { correction: true } : {}),
      });
    }
  }

  // Periods: every period started and ended once, in order, even when polls skipped some.
  // A final summary's status carries no period (seen in every recorded final): use the highest
  // period reached, from the status seen before or from the plays. A play of a period proves that
  // period started and the ones before it ended, even while the header does not show it yet: its
  // events then come after the period's start, never before it. Plays open periods only as a run
  // (plays of every period between): one bad row must not open dozens of periods.
  const headerPeriod = h.period ?? (final ? lastPeriod(meta, state, records) : 0);
  let playPeriod = Math.max(headerPeriod, meta.periodsStarted);
  while (playPeriods.has(playPeriod + 1)) playPeriod++;
  const period = final ? Math.max(headerPeriod, playPeriod) : headerPeriod;
  let startedTo = meta.periodsStarted;
  let endedTo = meta.periodsEnded;
  if (h.state === 'in' || final) {
    const reached = Math.max(period, playPeriod);
    const ended = final ? period : Math.max(isEndOfPeriod(h) ? period : period - 1, playPeriod - 1);
    startedTo = Math.max(startedTo, reached);
    endedTo = Math.max(endedTo, ended);
  }
  const periodEvents: PollPeriodEvent[] = [];
  for (let q = Math.min(meta.periodsStarted, meta.periodsEnded) + 1; q <= startedTo; q++) {
    if (q > meta.periodsStarted) {
      periodEvents.push({
        event: draft('period.started', ids.periodStarted(q), periodData(state.league, q)),
        period: q,
        ends: false,
      });
    }
    if (q > meta.periodsEnded && q <= endedTo) {
      periodEvents.push({
        event: draft('period.ended', ids.periodEnded(q), periodData(state.league, q)),
        period: q,
        ends: true,
      });
    }
  }
  next.periodsStarted = startedTo;
  next.periodsEnded = endedTo;

  // End.
  let ended: DraftEvent | null = null;
  if (final && !meta.ended) {
    next.ended = true;
    const score = next.score;
    const winner = h.home.winner
      ? 'home'
      : h.away.winner
        ? 'away'
        : score.home > score.away
          ? 'home'
          : score.away > score.home
            ? 'away'
            : null;
    ended = draft('game.ended', ids.gameEnded(), { score, winner, periods: period, detail: h.detail });
  }

  // Situation (fouls, bonus, timeouts): recomputed from the whole play list, so a foul corrected
  // or removed upstream corrects it. Reported when a team's part changed. The one before is the
  // snapshot's (null in the first poll and in states stored before the situation existed).
  const before = meta.snapshot?.situation ?? null;
  const situationPeriod = Math.max(h.period ?? 0, startedTo);
  const situation = computeSituation({
    league: state.league,
    teams,
    plays: rowsInOrder(plays?.order ?? state.plays.order, records, state.plays.records),
    period: situationPeriod > 0 ? situationPeriod : null,
    // The header's clock tells the time of its own period only; a final's last period is over.
    clock: final ? '0.0' : h.period === situationPeriod ? h.clock : null,
    roster: readRoster(raw),
    previous: before,
  });
  const changed = situationChanges(before ?? emptySituation(state.league, teams), situation);
  let situationEvent: DraftEvent | null = null;
  if (isNews(changed)) {
    next.situationChanges = meta.situationChanges + 1;
    situationEvent = draft('situation.changed', ids.situationChanged(next.situationChanges), {
      situation,
      previous: before,
      changed,
    });
  }

  const ordered = orderPollEvents({
    status: status && {
      event: status,
      leads: isUnderWay(h),
      // In `post` or `pre` the status speaks of the game as a whole, not of one period.
      period: h.state === 'in' ? period : null,
    },
    started,
    plays: playEvents,
    periods: periodEvents,
    now: period,
    looseWinprob,
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

  const order = plays?.order ?? state.plays.order;
  const recentPlays: PlayRow[] = [];
  for (let i = Math.max(0, order.length - SNAPSHOT_PLAYS); i < order.length; i++) {
    const row = current(order[i] as string)?.row;
    if (row) recentPlays.push(row);
  }
  const snapshot: GameSnapshot = {
    league: state.league,
    gameId: state.gameId,
    seq: next.seq,
    state: h.state,
    status: { name: h.name, detail: h.detail, description: h.description },
    teams: next.teams,
    score:
      h.home.score !== null && h.away.score !== null
        ? { home: h.home.score, away: h.away.score }
        : next.score,
    period: next.period,
    periodLabel: next.period !== null && next.period >= 1 ? periodLabel(state.league, next.period) : null,
    overtime: next.period !== null && isOvertime(state.league, next.period),
    clock: h.clock,
    date: h.date,
    scoreboard: scoreboardRow,
    recentPlays,
    winProbability: next.winProbability,
    situation,
    updatedAt: at,
  };
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
      if (plays) {
        state.plays.order = plays.order;
        state.plays.recs = plays.recs;
      }
      setRecords(state.plays, records);
      state.staleStreak = 0;
      state.wpSeen = wpSeen;
    },
  };
}

/**
 * The rows of the play list in order: this poll's records over the stored ones. A plain loop over
 * the two maps: it runs for the whole list on every poll (the situation's recount), where a
 * generator and a lookup closure per play cost more than the recount itself.
 */
function rowsInOrder(
  order: readonly string[],
  fresh: ReadonlyMap<string, PlayRecord>,
  stored: ReadonlyMap<string, PlayRecord>,
): PlayRow[] {
  const rows: PlayRow[] = [];
  for (const id of order) {
    const row = (fresh.get(id) ?? stored.get(id))?.row;
    if (row) rows.push(row);
  }
  return rows;
}

/** A row's period when it is a usable period number (1 or more), else null. */
function periodOf(row: PlayRow | null): number | null {
  const p = row?.period_number;
  return typeof p === 'number' && Number.isInteger(p) && p >= 1 ? p : null;
}

function lastPeriod(meta: GameMeta, state: GameDiffState, records: Map<string, PlayRecord>): number {
  let max = Math.max(meta.periodsStarted, meta.period ?? 0);
  if (max > 0) return max;
  for (const r of state.plays.records.values()) max = Math.max(max, r.row?.period_number ?? 0);
  for (const r of records.values()) max = Math.max(max, r.row?.period_number ?? 0);
  return max;
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

/** A period event's data: its number, its name in the league and whether it is an overtime. */
function periodData(league: League, period: number): PeriodData {
  return { period, label: periodLabel(league, period), overtime: isOvertime(league, period) };
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
