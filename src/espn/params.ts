import { InvalidParamsError } from '../core/errors.js';

/**
 * Client-side parameter names and their validators. Every value is checked before any request
 * is built, so a bad call never reaches the upstream.
 */
export type ParamName =
  | 'dates'
  | 'week'
  | 'season_type'
  | 'groups'
  | 'limit'
  | 'event_id'
  | 'season'
  | 'group'
  | 'standings_type'
  | 'team_id'
  | 'athlete_id';

export type ParamValue = string | number;
export type Params = Partial<Record<ParamName, ParamValue>>;

interface ParamRule {
  /** Human-readable form, quoted in errors. */
  readonly expected: string;
  /** Returns the normalised string sent upstream, or undefined when the value is invalid. */
  readonly check: (value: string) => string | undefined;
  /** Which part of the expected form an invalid value breaks, where `expected` alone leaves it a puzzle. */
  readonly problem?: (value: string) => string | undefined;
}

const ID = /^[A-Za-z0-9-]+$/;
// ESPN ids are short; a 64-character cap keeps hostile input out of URLs and logs.
const MAX_ID_LENGTH = 64;
// ESPN documents no maximum for `limit`; 1000 is above every list ESPN serves (teams, news).
const MAX_LIMIT = 1000;
// A range is answered month by month (docs/operations.md, "Date ranges"). A season touches at
// most 9 calendar months (NBA: preseason in October to the Finals in June); 12 lets any one
// season or calendar year through while bounding a call to 12 upstream requests.
export const MAX_RANGE_MONTHS = 12;
// A season has fewer than 30 weeks; 99 leaves room while keeping the value a small number.
const MAX_WEEK = 99;

const id = (expected: string): ParamRule => ({
  expected,
  check: (v) => (ID.test(v) && v.length <= MAX_ID_LENGTH ? v : undefined),
});

const positiveInt =
  (max: number) =>
  (v: string): string | undefined => {
    if (!/^[0-9]{1,7}$/.test(v)) return undefined;
    const n = Number(v);
    return n >= 1 && n <= max ? String(n) : undefined;
  };

export const PARAM_RULES: Readonly<Record<ParamName, ParamRule>> = {
  dates: {
    expected:
      `a date YYYYMMDD, a range YYYYMMDD-YYYYMMDD (real dates, in order, over at most ${MAX_RANGE_MONTHS} ` +
      'calendar months), a month YYYYMM or a year YYYY',
    check: checkDates,
    problem: datesProblem,
  },
  week: { expected: `a positive integer up to ${MAX_WEEK}`, check: positiveInt(MAX_WEEK) },
  season_type: {
    expected: 'an integer 1-4 (1 preseason, 2 regular season, 3 postseason, 4 off-season)',
    check: (v) => (/^[1-4]$/.test(v) ? v : undefined),
  },
  groups: id('an id of letters, digits and dashes'),
  limit: {
    // ESPN answers a limit above 500 with 25 items: such a limit is sent as 500 (with a notice).
    expected: `a positive integer up to ${MAX_LIMIT} (above 500 sent as 500)`,
    check: positiveInt(MAX_LIMIT),
  },
  event_id: id('an event id of letters, digits and dashes'),
  season: { expected: 'a four-digit year YYYY', check: (v) => (/^[0-9]{4}$/.test(v) ? v : undefined) },
  group: id('a group id of letters, digits and dashes'),
  standings_type: id('a standings type of letters, digits and dashes'),
  team_id: id('a team id of letters, digits and dashes'),
  athlete_id: id('an athlete id of letters, digits and dashes'),
};

function checkDates(v: string): string | undefined {
  return datesProblem(v) === undefined ? v : undefined;
}

/** Which rule a `dates` value breaks, in words; undefined when it is valid. */
export function datesProblem(v: string): string | undefined {
  if (/^[0-9]{4}$/.test(v)) return undefined;
  if (/^[0-9]{6}$/.test(v)) {
    const month = Number(v.slice(4, 6));
    return month >= 1 && month <= 12 ? undefined : `there is no month ${v.slice(4, 6)}`;
  }
  const m = /^([0-9]{8})(?:-([0-9]{8}))?$/.exec(v);
  if (!m) return 'not one of the forms: digits only, with one dash between the two days of a range';
  const start = m[1] as string;
  const end = m[2];
  for (const day of end === undefined ? [start] : [start, end]) {
    if (!isCalendarDate(day)) return `${day} is not a day of the calendar`;
  }
  if (end === undefined) return undefined;
  if (end < start)
    return `the range is reversed: it ends (${end}) before it starts (${start}); give the earlier day first`;
  const months = monthsBetween(start, end);
  if (months > MAX_RANGE_MONTHS) {
    return `the range touches ${months} calendar months, more than ${MAX_RANGE_MONTHS}; split it into calls of at most ${MAX_RANGE_MONTHS} months`;
  }
  return undefined;
}

/** Calendar months a range of `YYYYMMDD` days touches, both ends included. */
export function monthsBetween(start: string, end: string): number {
  const index = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(4, 6)) - 1;
  return index(end) - index(start) + 1;
}

function isCalendarDate(yyyymmdd: string): boolean {
  const y = Number(yyyymmdd.slice(0, 4));
  const mo = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * Validates one value against its rule and returns the string to send upstream.
 * Numbers are accepted where the string form is valid (e.g. `limit: 5`).
 */
export function validateParam(name: ParamName, value: unknown, operation?: string): string {
  const rule = PARAM_RULES[name];
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  const normalised = text === undefined ? undefined : rule.check(text);
  if (normalised === undefined) {
    const problem = text === undefined ? undefined : rule.problem?.(text);
    throw new InvalidParamsError(name, value, rule.expected, operation, problem);
  }
  return normalised;
}
