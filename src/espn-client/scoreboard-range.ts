import { UpstreamPayloadError } from '../core/errors.js';
import { easternDayOf } from '../espn/eastern-day.js';

/**
 * Scoreboards for more than one day. ESPN refuses `dates=A-B` since 2026-09-15 (400 "Failed to get
 * events endpoint."), and a `dates=YYYY` board is cut at 500 events while a season has 1,230 games.
 * So a range, a month or a year is answered by asking the days or months it covers and merging
 * them (docs/operations.md, "Date ranges").
 */

/** The most events ESPN returns for one request; a month of either league stays under it. */
export const MAX_UPSTREAM_LIMIT = 500;
// Up to a week is asked day by day: seven small boards, against one board of a whole month
// (up to ~240 games, several megabytes). Longer spans go month by month.
export const MAX_DAY_REQUESTS = 7;

export interface RangePlan {
  /** First and last Eastern day, `YYYYMMDD`. */
  readonly start: string;
  readonly end: string;
  /** The `dates` values to ask for, earliest first: days `YYYYMMDD` or months `YYYYMM`. */
  readonly requests: readonly string[];
}

/**
 * The plan for a validated `dates` value, or undefined when it names one day (sent as it is).
 * `YYYYMM` and `YYYY` are read as the range of their days.
 */
export function planRange(dates: string): RangePlan | undefined {
  let start: string;
  let end: string;
  if (/^[0-9]{8}-[0-9]{8}$/.test(dates)) {
    [start, end] = dates.split('-') as [string, string];
  } else if (/^[0-9]{6}$/.test(dates)) {
    start = `${dates}01`;
    end = `${dates}${String(daysInMonth(dates)).padStart(2, '0')}`;
  } else if (/^[0-9]{4}$/.test(dates)) {
    start = `${dates}0101`;
    end = `${dates}1231`;
  } else {
    return undefined;
  }
  const days = daysBetween(start, end);
  return { start, end, requests: days.length <= MAX_DAY_REQUESTS ? days : monthsOf(start, end) };
}

type Json = Record<string, unknown>;

/**
 * One scoreboard from the boards of a plan (earliest first): every top-level field but `events` and
 * `day` from the earliest board; `events` of all boards, each id once (the first board that lists
 * it wins), kept when its Eastern day is within the range, ordered by date, then cut to `limit`.
 */
export function mergeBoards(
  plan: RangePlan,
  boards: readonly unknown[],
  limit: number | undefined,
  url: (dates: string) => string,
): Json {
  const seen = new Set<string>();
  const events: { event: Json; at: number; id: string }[] = [];
  boards.forEach((board, i) => {
    const list = (board as Json | null)?.events;
    if (board === null || typeof board !== 'object' || !Array.isArray(list)) {
      throw new UpstreamPayloadError(url(plan.requests[i] ?? ''), 'scoreboard without an events list');
    }
    for (const item of list as unknown[]) {
      if (item === null || typeof item !== 'object') continue;
      const event = item as Json;
      const id = String(event.id);
      const day = easternDayOf(event.date);
      if (seen.has(id) || day === undefined || day < plan.start || day > plan.end) continue;
      seen.add(id);
      events.push({ event, at: Date.parse(String(event.date)), id });
    }
  });
  events.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const kept = limit === undefined ? events : events.slice(0, limit);
  const { events: _events, day: _day, ...top } = (boards[0] ?? {}) as Json;
  return { ...top, events: kept.map((e) => e.event) };
}

function daysInMonth(yyyymm: string): number {
  return new Date(Date.UTC(Number(yyyymm.slice(0, 4)), Number(yyyymm.slice(4, 6)), 0)).getUTCDate();
}

const fmt = (d: Date): string => d.toISOString().slice(0, 10).replaceAll('-', '');
const parse = (yyyymmdd: string): Date =>
  new Date(
    Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8))),
  );

/** Calendar days from `start` to `end`, both included (plain dates: no time zone involved). */
function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  // Bounded by validation: a range touches at most MAX_RANGE_MONTHS months.
  for (let d = parse(start); fmt(d) <= end; d.setUTCDate(d.getUTCDate() + 1)) days.push(fmt(d));
  return days;
}

function monthsOf(start: string, end: string): string[] {
  const months: string[] = [];
  let y = Number(start.slice(0, 4));
  let m = Number(start.slice(4, 6));
  const last = end.slice(0, 6);
  for (;;) {
    const month = `${y}${String(m).padStart(2, '0')}`;
    months.push(month);
    if (month >= last) return months;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
}
