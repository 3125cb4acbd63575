import { describe, expect, it } from 'vitest';
import { parsePlays, parseWinprobability } from '../../src/tables/index.js';
import { tableColumns } from '../../src/tables/schema.js';
import { HAVE_FIXTURES, describeRecorded } from '../support/fixtures.js';
import { fixturesOf, makePlay } from './helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PLAY_COLUMNS = tableColumns('plays', 'mens').map((c) => c.name);

describe('parsePlays', () => {
  it('maps one play to the spec columns with real types', () => {
    const [row] = parsePlays({ plays: [makePlay()] });
    expect(Object.keys(row ?? {})).toEqual(PLAY_COLUMNS);
    expect(row).toMatchObject({
      id: '4017001',
      sequence_number: '7',
      type_id: '110',
      type_text: 'Driving Layup Shot',
      away_score: 0,
      home_score: 2,
      score_value: 2,
      points_attempted: 2,
      period_number: 1,
      period_display_value: '1st Quarter',
      clock_display_value: '11:42',
      team_id: '19',
      coordinate_x: 25,
      coordinate_y: 3,
      scoring_play: true,
      shooting_play: true,
      participants: '[{"athlete":{"id":"4566434"}}]',
    });
  });

  it('reads integers from strings and gives null for what is missing', () => {
    const [row] = parsePlays({
      plays: [
        makePlay({
          awayScore: '12',
          homeScore: '44.4',
          team: undefined,
          participants: undefined,
          shortDescription: '',
        }),
      ],
    });
    expect(row?.away_score).toBe(12);
    expect(row?.home_score).toBeNull();
    expect(row?.team_id).toBeNull();
    expect(row?.participants).toBeNull();
    expect(row?.short_description).toBeNull();
  });

  it('reads the coordinates of plays without a location as null', () => {
    const [row] = parsePlays({ plays: [makePlay({ coordinate: { x: -214748340, y: -214748365 } })] });
    expect([row?.coordinate_x, row?.coordinate_y]).toEqual([null, null]);
  });

  it('keeps payload order and skips entries that are not objects', () => {
    const rows = parsePlays({ plays: [makePlay({ id: 'b' }), 3, null, makePlay({ id: 'a' })] });
    expect(rows.map((r) => r.id)).toEqual(['b', 'a']);
  });

  it('gives no rows for wrongly shaped payloads', () => {
    for (const raw of [null, undefined, 1, 'x', [], {}, { plays: {} }, { plays: 'x' }]) {
      expect(parsePlays(raw)).toEqual([]);
    }
  });

  describeRecorded(!HAVE_FIXTURES)('recorded summaries', () => {
    for (const { name, raw } of fixturesOf('summary')) {
      it(`${name}: one row per play, last play's scores match the header's score`, () => {
        const payload = raw as Json;
        const rows = parsePlays(payload);
        const plays: Json[] = Array.isArray(payload.plays) ? payload.plays : [];
        expect(rows).toHaveLength(plays.length);
        rows.forEach((row, i) => {
          expect(row.id).toBe(String(plays[i]?.id));
          expect(row.home_score).toBe(plays[i]?.homeScore);
        });
        if (!rows.length) return;
        const competitors: Json[] = payload.header.competitions[0].competitors;
        const score = (side: string) => Number(competitors.find((c) => c.homeAway === side)?.score);
        const last = rows.at(-1);
        if (payload.header.competitions[0].status?.type?.state === 'post') {
          expect(last?.home_score).toBe(score('home'));
          expect(last?.away_score).toBe(score('away'));
        } else {
          // A live header can be a poll fresher than its plays (the recorded live game is).
          expect(last?.home_score).toBeLessThanOrEqual(score('home'));
          expect(last?.away_score).toBeLessThanOrEqual(score('away'));
        }
      });
    }
  });
});

describe('parseWinprobability', () => {
  it('maps entries to doubles and the play id', () => {
    expect(
      parseWinprobability({ winprobability: [{ homeWinPercentage: '0.5', tiePercentage: 0, playId: 40 }] }),
    ).toEqual([{ home_win_percentage: 0.5, tie_percentage: 0, play_id: '40' }]);
  });

  it('gives no rows for wrongly shaped payloads', () => {
    for (const raw of [null, 1, [], {}, { winprobability: { a: 1 } }])
      expect(parseWinprobability(raw)).toEqual([]);
  });

  describeRecorded(!HAVE_FIXTURES)('recorded summaries', () => {
    for (const { name, raw } of fixturesOf('summary')) {
      it(`${name}: one row per entry, each play id among the plays`, () => {
        const payload = raw as Json;
        const rows = parseWinprobability(payload);
        const entries: Json[] = Array.isArray(payload.winprobability) ? payload.winprobability : [];
        expect(rows).toHaveLength(entries.length);
        const ids = new Set(parsePlays(payload).map((p) => p.id));
        for (const row of rows) {
          expect(typeof row.home_win_percentage).toBe('number');
          expect(ids.has(row.play_id)).toBe(true);
        }
      });
    }
  });
});
