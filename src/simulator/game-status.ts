import type { League } from '../core/leagues.js';
import { finalLabel, periodFormat, periodLabel, periodShortLabel } from '../core/periods.js';

/** ESPN's status objects and clock formats, shared by the replayed summary and the scoreboard. */
export type GameState = 'pre' | 'in' | 'post';

/** `status.type` as ESPN sends it; the schedule's entries carry no detail lines. */
export interface StatusType {
  readonly id: string;
  readonly name: string;
  readonly state: GameState;
  readonly completed: boolean;
  readonly description: string;
  readonly detail?: string;
  readonly shortDetail?: string;
}

/** `status` of a game on the scoreboard and in the summary header. */
export interface GameStatus {
  readonly clock: number;
  readonly displayClock: string;
  readonly period: number;
  readonly type: StatusType;
}

export interface GameStatusInput {
  readonly state: GameState;
  readonly period: number;
  readonly displayClock: string;
  /** True when the last revealed play ended a period (end of quarter or half, halftime). */
  readonly endOfPeriod: boolean;
  /** Whose periods: quarters or halves, and their names (src/core/periods.ts). */
  readonly league: League;
}

/** "11:42" → 702, "45.1" → 45.1. */
export function clockSeconds(display: string): number {
  const [a = '0', b] = display.split(':');
  const value = b === undefined ? Number(a) : Number(a) * 60 + Number(b);
  return Number.isFinite(value) ? value : 0;
}

/** ESPN's game clock display: "m:ss" from a minute up, "s.t" under a minute. */
export function formatClock(seconds: number): string {
  if (seconds >= 60) {
    const whole = Math.ceil(seconds);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  }
  return (Math.max(0, Math.round(seconds * 10)) / 10).toFixed(1);
}

/** A `status.type`; without a detail line it has the short form of a team schedule's entries. */
export function statusType(
  id: string,
  name: string,
  state: GameState,
  description: string,
  detail?: string,
  shortDetail = detail,
): StatusType {
  const type = { id, name, state, completed: state === 'post', description };
  return detail === undefined ? type : { ...type, detail, shortDetail };
}

export const scheduledType = (detail?: string): StatusType =>
  statusType('1', 'STATUS_SCHEDULED', 'pre', 'Scheduled', detail);

export function statusObject(input: GameStatusInput, detailWhenPre = 'Scheduled'): GameStatus {
  const { state, period, displayClock, endOfPeriod, league } = input;
  if (state === 'pre') {
    return { clock: 0, displayClock: '0.0', period: 0, type: scheduledType(detailWhenPre) };
  }
  if (state === 'post') {
    const detail = finalLabel(league, period);
    return {
      clock: 0,
      displayClock: '0.0',
      period,
      type: statusType('3', 'STATUS_FINAL', 'post', 'Final', detail),
    };
  }
  const clock = clockSeconds(displayClock);
  let type: StatusType;
  if (endOfPeriod && period === periodFormat(league).regulation / 2) {
    type = statusType('23', 'STATUS_HALFTIME', 'in', 'Halftime', 'Halftime');
  } else if (endOfPeriod) {
    type = statusType(
      '22',
      'STATUS_END_PERIOD',
      'in',
      'End of Period',
      `End of ${periodLabel(league, period)}`,
      `End of ${periodShortLabel(league, period)}`,
    );
  } else {
    type = statusType(
      '2',
      'STATUS_IN_PROGRESS',
      'in',
      'In Progress',
      `${displayClock} - ${periodLabel(league, period)}`,
      `${displayClock} - ${periodShortLabel(league, period)}`,
    );
  }
  return { clock, displayClock, period, type };
}
