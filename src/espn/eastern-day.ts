/**
 * ESPN files games by the US-Eastern day: a game tipping off at 22:30 Eastern is on that day's
 * board although it is the next day in UTC. Days are computed with the platform's time-zone data
 * for America/New_York, daylight-saving changes included, never with a fixed offset.
 */
export const EASTERN_TIME_ZONE = 'America/New_York';

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: EASTERN_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function easternWallTime(ms: number): WallTime {
  const out: Record<string, number> = {};
  for (const part of PARTS.formatToParts(new Date(ms))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return out as unknown as WallTime;
}

/** The Eastern day of an instant, as `YYYYMMDD`. */
export function easternDay(ms: number): string {
  const t = easternWallTime(ms);
  return `${t.year}${String(t.month).padStart(2, '0')}${String(t.day).padStart(2, '0')}`;
}

/** The Eastern day of an ESPN date such as `2024-12-02T03:30Z`, or undefined when it is not a date. */
export function easternDayOf(date: unknown): string | undefined {
  if (typeof date !== 'string') return undefined;
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? undefined : easternDay(ms);
}

/** The instant at which the Eastern wall clock shows `yyyymmdd` `hour:minute`. */
export function easternInstant(yyyymmdd: string, hour: number, minute = 0): number {
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  const wanted = Date.UTC(y, m - 1, d, hour, minute);
  // The wall clock's distance from UTC at a guess, applied twice so a guess on the other side of a
  // daylight-saving change lands on the right offset.
  let at = wanted;
  for (let i = 0; i < 2; i++) {
    const t = easternWallTime(at);
    const shown = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
    at += wanted - shown;
  }
  return at;
}
