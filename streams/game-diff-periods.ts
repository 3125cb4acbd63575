import type { League } from '../src/core/leagues.js';
import { isOvertime, periodLabel } from '../src/core/periods.js';
import type { PeriodData } from '../src/model/events.js';
import type { eventIds } from './event-ids.js';
import { draft } from './game-diff-draft.js';
import type { GameDiffState } from './diff-state.js';
import type { PlayRecord } from './play-diff.js';
import type { PollPeriodEvent } from './poll-order.js';
import { isEndOfPeriod, isFinal, type SummaryHeader } from './summary-header.js';

/**
 * A summary diff's periods phase: every period started and ended once, in order, even when polls
 * skipped some. A final summary's status carries no period (seen in every recorded final): the
 * highest period reached is used, from the status seen before or from the plays. A play of a
 * period proves that period started and the ones before it ended, even while the header does not
 * show it yet: its events then come after the period's start, never before it. Plays open periods
 * only as a run (plays of every period between): one bad row must not open dozens of periods.
 */
export interface PeriodsPhase {
  /** The game's period now, for the events' order, the end and the snapshot. */
  readonly period: number;
  readonly startedTo: number;
  readonly endedTo: number;
  readonly events: PollPeriodEvent[];
}

export function diffPeriods(
  state: GameDiffState,
  h: SummaryHeader,
  ids: ReturnType<typeof eventIds>,
  records: Map<string, PlayRecord>,
  playPeriods: ReadonlySet<number>,
): PeriodsPhase {
  const meta = state.meta;
  const final = isFinal(h);
  const headerPeriod = h.period ?? (final ? lastPeriod(state, records) : 0);
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
  const events: PollPeriodEvent[] = [];
  for (let q = Math.min(meta.periodsStarted, meta.periodsEnded) + 1; q <= startedTo; q++) {
    if (q > meta.periodsStarted) {
      events.push({
        event: draft('period.started', ids.periodStarted(q), periodData(state.league, q)),
        period: q,
        ends: false,
      });
    }
    if (q > meta.periodsEnded && q <= endedTo) {
      events.push({
        event: draft('period.ended', ids.periodEnded(q), periodData(state.league, q)),
        period: q,
        ends: true,
      });
    }
  }
  return { period, startedTo, endedTo, events };
}

function lastPeriod(state: GameDiffState, records: Map<string, PlayRecord>): number {
  const meta = state.meta;
  let max = Math.max(meta.periodsStarted, meta.period ?? 0);
  if (max > 0) return max;
  for (const r of state.plays.records.values()) max = Math.max(max, r.row?.period_number ?? 0);
  for (const r of records.values()) max = Math.max(max, r.row?.period_number ?? 0);
  return max;
}

/** A period event's data: its number, its name in the league and whether it is an overtime. */
function periodData(league: League, period: number): PeriodData {
  return { period, label: periodLabel(league, period), overtime: isOvertime(league, period) };
}
