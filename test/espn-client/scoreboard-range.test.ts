import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEspnClient, type CallNotice, type EspnClient } from '../../src/espn-client/client.js';
import { mergeBoards, planRange } from '../../src/espn-client/scoreboard-range.js';
import { InvalidParamsError } from '../../src/core/errors.js';
import { easternDayOf } from '../../src/espn/eastern-day.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { FIXTURES_DIR, HAVE_FIXTURES } from '../support/fixtures.js';

/**
 * Date ranges against the simulator playing 2026 ESPN (ranges refused with a 400, a limit above 500
 * cut to 25): the client never sends a range, asks the days or months, and merges.
 */

interface Board {
  leagues: unknown[];
  events: { id: string; date: string }[];
}

let upstream: RunningUpstream;
const clients: EspnClient[] = [];
const client = (options: Parameters<typeof createEspnClient>[0] = {}): EspnClient => {
  const c = createEspnClient({ upstream: upstream.url, cache: false, retries: 0, ...options });
  clients.push(c);
  return c;
};

/** The simulator's own board of one day, asked directly (a single day is sent as it is). */
async function dayBoard(day: string): Promise<Board> {
  return (await client().mens_scoreboard({ dates: day }, { returnParsed: false })) as Board;
}

function days(start: string, count: number): string[] {
  const out: string[] = [];
  const d = new Date(
    Date.UTC(Number(start.slice(0, 4)), Number(start.slice(4, 6)) - 1, Number(start.slice(6))),
  );
  for (let i = 0; i < count; i++, d.setUTCDate(d.getUTCDate() + 1))
    out.push(d.toISOString().slice(0, 10).replaceAll('-', ''));
  return out;
}

beforeAll(async () => {
  upstream = await startUpstream(HAVE_FIXTURES ? { fixturesDir: FIXTURES_DIR } : {});
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.clear();
  upstream.faults.clear();
});

describe('the simulator plays 2026 ESPN', () => {
  it('refuses a range with a 400, even one day, and cuts a limit above 500 to 25 events', async () => {
    const base = `${upstream.url}/apis/site/v2/sports/basketball/nba/scoreboard`;
    for (const dates of ['20241201-20241207', '20241201-20241201']) {
      const res = await fetch(`${base}?dates=${dates}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: 'Failed to get events endpoint.' });
    }
    const month = (await (await fetch(`${base}?dates=202412&limit=500`)).json()) as Board;
    expect(month.events.length).toBeGreaterThan(25);
    const cut = (await (await fetch(`${base}?dates=202412&limit=501`)).json()) as Board;
    expect(cut.events).toHaveLength(25);
  });
});

describe('a date range', () => {
  it('is asked day by day up to a week and merged: each game of the seven days once, in order', async () => {
    const week = days('20241201', 7);
    const expected = new Map<string, string>();
    for (const day of week) for (const e of (await dayBoard(day)).events) expected.set(e.id, day);
    expect(expected.size).toBeGreaterThan(7);
    upstream.requests.clear();

    const notices: CallNotice[] = [];
    const merged = (await client().mens_scoreboard(
      { dates: '20241201-20241207' },
      { returnParsed: false, onNotice: (n) => notices.push(n) },
    )) as Board;
    const ids = merged.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(expected.keys()));
    const times = merged.events.map((e) => Date.parse(e.date));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Filed by the Eastern day: a 22:30 tip-off is the next day in UTC and still on its own day.
    for (const e of merged.events) expect(easternDayOf(e.date)).toBe(expected.get(e.id));
    expect(merged.events.some((e) => e.date.slice(0, 10).replaceAll('-', '') !== easternDayOf(e.date))).toBe(
      true,
    );
    expect(merged.leagues).toHaveLength(1);
    expect(merged).not.toHaveProperty('day');

    const sent = upstream.requests.entries.map((r) => r.query);
    expect(sent.map((q) => q.dates).sort()).toEqual(week);
    for (const q of sent) {
      expect(q.dates).not.toContain('-');
      expect(q.limit).toBe('500');
    }
    expect(upstream.requests.entries.every((r) => r.status === 200)).toBe(true);
    expect(notices).toEqual([expect.objectContaining({ kind: 'range-merged' })]);
    expect(notices[0]?.message).toContain('7 scoreboard(s)');

    // The tabular form: the scoreboard rows of the merged events.
    const rows = (await client().mens_scoreboard({ dates: '20241201-20241207' }, { flavour: 'rows' })) as {
      game_id: string;
    }[];
    expect(rows.map((r) => r.game_id)).toEqual(ids);
  });

  it('over more than a week is asked month by month, cut to the range, limit applied last', async () => {
    const span = days('20241125', 10); // 25 November to 4 December: two months
    const expected: { id: string; date: string }[] = [];
    for (const day of span) expected.push(...(await dayBoard(day)).events);
    expected.sort((a, b) => Date.parse(a.date) - Date.parse(b.date) || (a.id < b.id ? -1 : 1));
    upstream.requests.clear();

    const merged = (await client().mens_scoreboard(
      { dates: '20241125-20241204' },
      { returnParsed: false },
    )) as Board;
    expect(merged.events.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(upstream.requests.entries.map((r) => r.query)).toEqual([
      { dates: '202411', limit: '500' },
      { dates: '202412', limit: '500' },
    ]);

    const limited = (await client().mens_scoreboard(
      { dates: '20241125-20241204', limit: 5 },
      { returnParsed: false },
    )) as Board;
    expect(limited.events.map((e) => e.id)).toEqual(expected.slice(0, 5).map((e) => e.id));
  });

  it('takes a month YYYYMM and a year YYYY as the range of their days', async () => {
    const december = (await client().mens_scoreboard({ dates: '202412' }, { returnParsed: false })) as Board;
    const fromDays = (await client().mens_scoreboard(
      { dates: '20241201-20241231' },
      { returnParsed: false },
    )) as Board;
    expect(december.events.map((e) => e.id)).toEqual(fromDays.events.map((e) => e.id));
    upstream.requests.clear();
    const year = (await client({ concurrency: 3 }).mens_scoreboard(
      { dates: '2024' },
      { returnParsed: false },
    )) as Board;
    expect(upstream.requests.entries.map((r) => r.query.dates).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `2024${String(i + 1).padStart(2, '0')}`),
    );
    // More than the 500 a single dates=2024 board would hold.
    expect(year.events.length).toBeGreaterThan(500);
    expect(year.events.every((e) => easternDayOf(e.date)?.startsWith('2024'))).toBe(true);
  });

  it('asks at most `concurrency` boards at a time', async () => {
    upstream.faults.set({ latency: 150 });
    await client({ concurrency: 2 }).mens_scoreboard({ dates: '20241201-20241206' }, { returnParsed: false });
    const arrivals = upstream.requests.entries.map((r) => r.at).sort((a, b) => a - b);
    expect(arrivals).toHaveLength(6);
    expect((arrivals[2] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(120);
    expect((arrivals[4] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(260);
  });

  it('fails as a whole when one board fails, asking no further boards', async () => {
    upstream.faults.failNext(1, { status: 500 });
    const error = await client({ concurrency: 1 })
      .mens_scoreboard({ dates: '20241201-20241207' }, { returnParsed: false })
      .catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('UPSTREAM_HTTP');
    expect(upstream.requests.count()).toBe(1);
  });

  it('over more than 12 months is refused before any request', async () => {
    await expect(client().mens_scoreboard({ dates: '20231201-20241231' })).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
    expect(upstream.requests.count()).toBe(0);
  });
});

describe('a limit above 500', () => {
  it('is sent as 500, with a notice saying why', async () => {
    const notices: CallNotice[] = [];
    const board = (await client().mens_scoreboard(
      { dates: '202412', limit: 800 },
      { returnParsed: false, onNotice: (n) => notices.push(n) },
    )) as Board;
    // A month is merged: the limit is courtside's, never sent.
    expect(board.events.length).toBeGreaterThan(25);
    upstream.requests.clear();
    notices.length = 0;
    await client().mens_news({ limit: 800 }, { returnParsed: false, onNotice: (n) => notices.push(n) });
    expect(upstream.requests.entries[0]?.query).toEqual({ limit: '500' });
    expect(notices).toEqual([expect.objectContaining({ kind: 'limit-capped' })]);
    expect(notices[0]?.message).toMatch(/limit 800 lowered to 500/);
  });
});

describe('merging, unit by unit', () => {
  it('plans days up to a week, months beyond', () => {
    expect(planRange('20241201')).toBeUndefined();
    expect(planRange('20241201-20241207')?.requests).toHaveLength(7);
    expect(planRange('20241130-20241208')?.requests).toEqual(['202411', '202412']);
    expect(planRange('202402')).toEqual({ start: '20240201', end: '20240229', requests: ['202402'] });
    expect(planRange('2024')?.requests).toHaveLength(12);
  });

  it('cuts by the Eastern day, keeps the first copy of an id, orders by date, then applies the limit', () => {
    const plan = { start: '20241201', end: '20241207', requests: ['202411', '202412'] };
    const ev = (id: string, date: string, note = '') => ({ id, date, note });
    const boards = [
      {
        leagues: ['first'],
        day: { date: '2024-11-30' },
        provider: 'p',
        events: [ev('a', '2024-12-01T04:30Z')],
      },
      {
        leagues: ['second'],
        events: [
          ev('late', '2024-12-08T03:30Z'), // 22:30 Eastern on 7 December
          ev('b', '2024-12-02T00:00Z', 'first copy'),
          ev('b', '2024-12-02T00:00Z', 'second copy'),
          ev('after', '2024-12-08T05:30Z'), // 00:30 Eastern on 8 December
          ev('c', '2024-12-01T17:00Z'),
        ],
      },
    ];
    const merged = mergeBoards(plan, boards, undefined, (d) => d);
    expect((merged.events as { id: string }[]).map((e) => e.id)).toEqual(['c', 'b', 'late']);
    expect((merged.events as { note: string }[])[1]?.note).toBe('first copy');
    expect(merged.leagues).toEqual(['first']);
    expect(merged.provider).toBe('p');
    expect(merged).not.toHaveProperty('day');
    expect((mergeBoards(plan, boards, 2, (d) => d).events as unknown[]).length).toBe(2);
    expect(() => mergeBoards(plan, [{ nope: 1 }], undefined, (d) => d)).toThrow(/events list/);
  });
});
