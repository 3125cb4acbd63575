import type { League } from '../core/leagues.js';
import { arr, isObject, obj, stringify } from './cells.js';
import { extract, type Extractors } from './extract.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';

/**
 * The calendar in its two forms. ESPN's basketball calendar is a list of date strings (the same
 * list as `leagues[0].calendar` of every scoreboard): one row per date. A sectioned calendar
 * (season types, each with optional `entries`, as the simulator and other sports send it) gives
 * one row per entry, or per section when a section has no entries. When a payload has both, each
 * date takes the season type and label of the section whose dates hold it.
 */

interface Section {
  readonly label: unknown;
  readonly value: unknown;
  readonly start: number;
  readonly end: number;
}

interface CalendarItem {
  date?: unknown;
  label?: unknown;
  detail?: unknown;
  value?: unknown;
  start_date?: unknown;
  end_date?: unknown;
  season_label?: unknown;
  season_type?: unknown;
  extra?: unknown;
}

const CALENDAR: Extractors = {
  date: 'date',
  label: 'label',
  detail: 'detail',
  value: 'value',
  start_date: 'start_date',
  end_date: 'end_date',
  season_label: 'season_label',
  season_type: 'season_type',
  extra: 'extra',
};

// The keys of a section or entry that have their own columns; the rest go to `extra`.
const SECTION_KEYS = new Set(['label', 'detail', 'value', 'startDate', 'endDate', 'entries']);

function extraOf(entry: Record<string, unknown>): string | null {
  let rest: Record<string, unknown> | undefined;
  for (const key of Object.keys(entry)) {
    if (!SECTION_KEYS.has(key) && entry[key] !== null && entry[key] !== undefined)
      (rest ??= {})[key] = entry[key];
  }
  return rest ? stringify(rest) : null;
}

/** The first of `lists` that holds a value `keep` accepts, filtered to such values. */
function firstList<T>(lists: readonly unknown[], keep: (v: unknown) => v is T): T[] {
  for (const list of lists) {
    const kept = arr(list).filter(keep);
    if (kept.length) return kept;
  }
  return [];
}

const isDate = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** A section or entry: an object with at least a label, a value or a start date. */
const isSection = (v: unknown): v is Record<string, unknown> =>
  isObject(v) && (v.label != null || v.value != null || v.startDate != null);

function time(value: unknown): number {
  return typeof value === 'string' ? Date.parse(value) : NaN;
}

/** The calendar's rows as items of the declared columns. */
export function calendarItems(raw: unknown): CalendarItem[] {
  const top = obj(raw);
  const league = obj(arr(top.leagues)[0]);
  const sections = firstList([top.sections, top.items, top.calendar, league.calendar, raw], isSection);
  const dates = firstList([raw, top.calendar, league.calendar, obj(top.eventDate).dates, top.dates], isDate);
  if (dates.length) {
    const spans: Section[] = sections.map((s) => ({
      label: s.label,
      value: s.value,
      start: time(s.startDate),
      end: time(s.endDate),
    }));
    return dates.map((date) => {
      const t = time(date);
      const span = spans.find((s) => t >= s.start && t <= s.end);
      return { date, season_label: span?.label, season_type: span?.value };
    });
  }
  const items: CalendarItem[] = [];
  for (const section of sections) {
    const entries = arr(section.entries).filter(isSection);
    const season = { season_label: section.label, season_type: section.value };
    if (!entries.length) {
      items.push({ ...rowOf(section), ...season });
      continue;
    }
    for (const entry of entries) items.push({ ...rowOf(entry), ...season });
  }
  return items;
}

function rowOf(entry: Record<string, unknown>): CalendarItem {
  return {
    label: entry.label,
    detail: entry.detail,
    value: entry.value,
    start_date: entry.startDate,
    end_date: entry.endDate,
    extra: extraOf(entry),
  };
}

export function calendarFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('calendar', league, extract('calendar', league, CALENDAR, calendarItems(raw), layout));
}
