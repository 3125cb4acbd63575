import { describe, expect, it } from 'vitest';
import { LEAGUE_GENERATORS } from '../../src/simulator/generated-payloads.js';
import { columnsFor, parseOperation, type Row } from '../../src/tables/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const rowsOf = (name: string, raw: unknown): Row[] => parseOperation(name, raw, { flavour: 'rows' }) as Row[];

describe('the college polls table', () => {
  it('has one row per ranked team of each poll, the poll on every row, in the declared columns', () => {
    const raw = LEAGUE_GENERATORS.rankings?.('mens-college', {}) as any;
    const rows = rowsOf('mens_college_rankings', raw);
    const polls = raw.rankings as any[];
    expect(rows).toHaveLength(polls.reduce((n, p) => n + p.ranks.length, 0));
    expect(Object.keys(rows[0]!)).toEqual(columnsFor('mens_college_rankings'));
    let i = 0;
    for (const poll of polls) {
      for (const rank of poll.ranks) {
        expect(rows[i++]).toEqual({
          id: poll.id,
          name: poll.name,
          short_name: poll.shortName,
          type: poll.type,
          headline: poll.headline,
          short_headline: poll.shortHeadline,
          trend: rank.trend,
          date: rank.date,
          last_updated: rank.lastUpdated,
          record_summary: rank.recordSummary,
          team_id: rank.team.id,
          team_uid: rank.team.uid,
          team_location: rank.team.location,
          team_name: rank.team.name,
          team_nickname: rank.team.nickname,
          team_abbreviation: rank.team.abbreviation,
          team_color: rank.team.color,
          team_logo: rank.team.logo,
          occurrence_type: poll.occurrence.type,
          occurrence_value: poll.occurrence.value,
          occurrence_display_value: poll.occurrence.displayValue,
          current: rank.current,
          previous: rank.previous,
          first_place_votes: rank.firstPlaceVotes,
          occurrence_number: poll.occurrence.number,
          points: rank.points,
          occurrence_last: poll.occurrence.last,
          // The team's keys beyond the columns (slug, displayName, logos, links, …).
          extra: expect.stringContaining('"displayName"'),
        });
      }
    }
  });

  it('reads an ESPN-shaped poll with missing fields as nulls, and no poll as no rows', () => {
    const raw = {
      rankings: [
        {
          id: '1',
          name: 'AP Top 25',
          ranks: [{ current: 1, team: { id: '150', color: '#013088' }, newKey: 'kept' }],
          others: [{ current: 26, team: { id: '2' } }],
        },
      ],
    };
    const [row, ...rest] = rowsOf('womens_college_rankings', raw);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ id: '1', current: 1, team_id: '150', team_color: '013088', points: null });
    expect(JSON.parse(row!.extra as string)).toEqual({ newKey: 'kept' });
    expect(rowsOf('mens_college_rankings', {})).toEqual([]);
    expect(rowsOf('mens_college_rankings', { rankings: 'none' })).toEqual([]);
  });
});
