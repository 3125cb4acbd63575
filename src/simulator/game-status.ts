/** ESPN's status objects and clock formats, shared by the replayed summary and the scoreboard. */
export type GameState = 'pre' | 'in' | 'post';

export interface GameStatusInput {
  readonly state: GameState;
  readonly period: number;
  readonly displayClock: string;
  /** True when the last revealed play ended a period (end of quarter / halftime). */
  readonly endOfPeriod: boolean;
  readonly regulationPeriods: number;
}

const ORDINALS = ['1st', '2nd', '3rd', '4th'];

export function periodLabel(period: number, regulationPeriods = 4): string {
  if (period <= regulationPeriods) return `${ORDINALS[period - 1] ?? `${period}th`} Quarter`;
  const ot = period - regulationPeriods;
  return ot === 1 ? 'OT' : `${ot}OT`;
}

function periodShort(period: number, regulationPeriods = 4): string {
  return period <= regulationPeriods
    ? (ORDINALS[period - 1] ?? `${period}th`)
    : periodLabel(period, regulationPeriods);
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

export function statusObject(input: GameStatusInput, detailWhenPre = 'Scheduled'): Record<string, unknown> {
  const { state, period, displayClock, endOfPeriod, regulationPeriods } = input;
  if (state === 'pre') {
    return {
      clock: 0,
      displayClock: '0.0',
      period: 0,
      type: {
        id: '1',
        name: 'STATUS_SCHEDULED',
        state: 'pre',
        completed: false,
        description: 'Scheduled',
        detail: detailWhenPre,
        shortDetail: detailWhenPre,
      },
    };
  }
  if (state === 'post') {
    const detail = period > regulationPeriods ? `Final/${periodLabel(period, regulationPeriods)}` : 'Final';
    return {
      clock: 0,
      displayClock: '0.0',
      period,
      type: {
        id: '3',
        name: 'STATUS_FINAL',
        state: 'post',
        completed: true,
        description: 'Final',
        detail,
        shortDetail: detail,
      },
    };
  }
  const clock = clockSeconds(displayClock);
  let type: Record<string, unknown>;
  if (endOfPeriod && period === regulationPeriods / 2) {
    type = {
      id: '23',
      name: 'STATUS_HALFTIME',
      state: 'in',
      completed: false,
      description: 'Halftime',
      detail: 'Halftime',
      shortDetail: 'Halftime',
    };
  } else if (endOfPeriod) {
    const detail = `End of ${periodLabel(period, regulationPeriods)}`;
    type = {
      id: '22',
      name: 'STATUS_END_PERIOD',
      state: 'in',
      completed: false,
      description: 'End of Period',
      detail,
      shortDetail: `End of ${periodShort(period, regulationPeriods)}`,
    };
  } else {
    type = {
      id: '2',
      name: 'STATUS_IN_PROGRESS',
      state: 'in',
      completed: false,
      description: 'In Progress',
      detail: `${displayClock} - ${periodLabel(period, regulationPeriods)}`,
      shortDetail: `${displayClock} - ${periodShort(period, regulationPeriods)}`,
    };
  }
  return { clock, displayClock, period, type };
}
