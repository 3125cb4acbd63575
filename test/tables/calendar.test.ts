import { describe, expect, it } from 'vitest';
import { LEAGUES } from '../../src/core/leagues.js';
import { isOperationName, operationName } from '../../src/espn/operations.js';
import { LEAGUE_GENERATORS } from '../../src/simulator/generated-payloads.js';
import { columnsFor, parseOperation, type Row } from '../../src/tables/index.js';
import { HAVE_FIXTURES, describeRecorded } from '../support/fixtures.js';
import { fixturesOf } from './helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const rowsOf = (op: string, raw: unknown) => parseOperation(op, raw, { flavour: 'rows' }) as Row[];

describeRecorded(!HAVE_FIXTURES)('calendar: the real date list', () => {
  for (const { name, raw, fixture } of fixturesOf('scoreboard')) {
    const dates: string[] = (raw as Json).leagues[0].calendar;
    const op = `${fixture.league}_calendar`;
    it(`${name}: leagues[0].calendar (${dates.length} dates) gives one row per date, in every form it comes in`, () => {
      expect(dates.length).toBeGreaterThan(100);
      for (const payload of [
        dates,
        { calendar: dates },
        { eventDate: { type: 'day', dates } },
        { leagues: [{ calendarType: 'day', calendar: dates }] },
        raw,
      ]) {
        const rows = rowsOf(op, payload);
        expect(rows.map((r) => r.date)).toEqual(dates);
        expect(Object.keys(rows[0] ?? {})).toEqual(columnsFor(op));
        for (const row of rows) {
          expect(row.season_type).toBeNull();
          expect(row.label).toBeNull();
        }
      }
    });

    it(`${name}: with season sections beside the dates, each date takes its section's type and label`, () => {
      const [first, last] = [dates[0] as string, dates.at(-1) as string];
      const middle = dates[Math.floor(dates.length / 2)] as string;
      const sections = [
        { label: 'Early', value: '1', startDate: first, endDate: middle },
        { label: 'Late', value: '2', startDate: dates[Math.floor(dates.length / 2) + 1], endDate: last },
      ];
      const rows = rowsOf(op, { sections, calendar: dates });
      expect(rows).toHaveLength(dates.length);
      rows.forEach((row, i) => {
        const early = Date.parse(dates[i] as string) <= Date.parse(middle);
        expect([row.season_type, row.season_label]).toEqual(early ? [1, 'Early'] : [2, 'Late']);
      });
    });
  }
});

describe('calendar: the sectioned form', () => {
  for (const league of LEAGUES.filter((l) => isOperationName(operationName(l, 'calendar')))) {
    it(`the simulator's ${league} calendar: one row per season section (its empty date list skipped)`, () => {
      const raw = LEAGUE_GENERATORS.calendar?.(league, {}) as Json;
      expect(raw.eventDate.dates).toEqual([]);
      const rows = rowsOf(operationName(league, 'calendar'), raw);
      expect(rows).toHaveLength(raw.items.length);
      rows.forEach((row, i) => {
        const item = raw.items[i];
        expect(row).toMatchObject({
          date: null,
          label: item.label,
          value: item.value,
          start_date: item.startDate,
          end_date: item.endDate,
          season_label: item.label,
          season_type: Number(item.value),
          extra: null,
        });
      });
    });
  }

  it('sections with entries: one row per entry, with the section as the season; unknown keys in extra', () => {
    const raw = {
      sections: [
        {
          label: 'Regular Season',
          value: '2',
          startDate: '2024-10-22T07:00Z',
          endDate: '2025-04-14T06:59Z',
          entries: [
            {
              label: 'Week 1',
              detail: 'Oct 22-28',
              value: '1',
              startDate: 'a',
              endDate: 'b',
              alternateLabel: 'W1',
            },
            { label: 'Week 2', value: '2' },
          ],
        },
        { label: 'Postseason', value: '3', entries: [] },
        'not a section',
      ],
    };
    const rows = rowsOf('mens_calendar', raw);
    expect(rows.map((r) => [r.label, r.detail, r.value, r.season_label, r.season_type])).toEqual([
      ['Week 1', 'Oct 22-28', '1', 'Regular Season', 2],
      ['Week 2', null, '2', 'Regular Season', 2],
      ['Postseason', null, '3', 'Postseason', 3],
    ]);
    expect(rows[0]?.extra).toBe('{"alternateLabel":"W1"}');
  });

  it('an empty list before the real one does not hide it; plain strings are not sections', () => {
    expect(
      rowsOf('womens_calendar', { calendar: [], leagues: [{ calendar: ['2025-05-02T07:00Z'] }] }),
    ).toHaveLength(1);
    expect(rowsOf('womens_calendar', { sections: ['x', 'y'] })).toEqual([]);
  });
});
