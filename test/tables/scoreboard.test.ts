import type { Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { columnsFor, parseOperation, parseScoreboard } from '../../src/tables/index.js';
import { HAVE_FIXTURES, describeRecorded } from '../support/fixtures.js';
import { fixturesOf, makeScoreboardEvent } from './helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('parseScoreboard', () => {
  it('maps an event to one typed row', () => {
    const [row] = parseScoreboard({ events: [makeScoreboardEvent()] }, 'mens');
    expect(row).toMatchObject({
      game_id: '401000001',
      season_year: 2025,
      season_type: 2,
      status_period: 4,
      status_clock: 0,
      attendance: 18000,
      status_type_state: 'post',
      status_type_completed: true,
      venue_indoor: true,
      broadcast: 'TV1/TV2',
      note: null,
      home_id: '1',
      home_color: '00ff00',
      home_score: '101',
      home_winner: true,
      away_id: '2',
      away_score: '99',
      away_winner: false,
      home_rank: null,
    });
  });

  it('reads the clock as seconds and a season label as its ending year', () => {
    const event = makeScoreboardEvent({
      season: { year: '2024-25', type: '3' },
      status: { clock: '8:41', period: '4', type: {} },
    });
    const [row] = parseScoreboard({ events: [event] }, 'womens');
    expect(row?.status_clock).toBe(521);
    expect(row?.season_year).toBe(2025);
    expect(row?.season_type).toBe(3);
    expect(row?.status_period).toBe(4);
  });

  it('has the rank columns only when some team is ranked', () => {
    const plain = parseOperation(
      'mens_scoreboard',
      { events: [makeScoreboardEvent()] },
      { flavour: 'rows' },
    ) as Json[];
    expect(Object.keys(plain[0] ?? {})).not.toContain('home_rank');
    expect(Object.keys(plain[0] ?? {})).toEqual(columnsFor('mens_scoreboard'));
    const ranked = makeScoreboardEvent();
    ranked.competitions[0]!.competitors[1] = {
      ...ranked.competitions[0]!.competitors[1]!,
      curatedRank: { current: 7 },
    } as never;
    const rows = parseOperation(
      'mens_scoreboard',
      { events: [ranked, makeScoreboardEvent()] },
      { flavour: 'rows' },
    ) as Json[];
    const keys = Object.keys(rows[0] ?? {});
    expect(keys.slice(keys.indexOf('home_score'), keys.indexOf('home_score') + 4)).toEqual([
      'home_score',
      'home_rank',
      'home_conference_id',
      'home_winner',
    ]);
    expect(rows.map((r) => [r.home_rank, r.away_rank])).toEqual([
      [null, '7'],
      [null, null],
    ]);
    const table = parseOperation('mens_scoreboard', { events: [ranked] }) as Table;
    expect(String(table.schema.fields.find((f) => f.name === 'away_rank')?.type)).toBe('Utf8');
  });

  it('gives no rows for wrongly shaped payloads', () => {
    for (const raw of [null, 'x', [], {}, { events: {} }, { events: [1, 'a', null] }]) {
      expect(parseScoreboard(raw, 'mens')).toEqual([]);
    }
  });

  describeRecorded(!HAVE_FIXTURES)('recorded scoreboards', () => {
    for (const { name, raw, fixture } of fixturesOf('scoreboard')) {
      it(`${name}: one row per event, values from the payload`, () => {
        const payload = raw as Json;
        const rows = parseScoreboard(payload, fixture.league);
        expect(rows).toHaveLength(payload.events.length);
        rows.forEach((row, i) => {
          const event = payload.events[i];
          const competitors: Json[] = event.competitions[0].competitors;
          const home = competitors.find((c) => c.homeAway === 'home');
          expect(row.game_id).toBe(event.id);
          expect(row.status_type_state).toBe(event.status.type.state);
          expect(['pre', 'in', 'post']).toContain(row.status_type_state);
          expect(row.season_year).toBe(event.season.year);
          expect(row.home_id).toBe(home?.team.id);
          expect(row.home_score).toBe(home?.score ?? null);
          expect(row.home_color).toMatch(/^[0-9a-fA-F]{6}$/);
          expect(typeof row.status_clock).toBe('number');
        });
      });
    }
  });
});
