import { describe, expect, it } from 'vitest';
import { parseOperation, type Row } from '../../src/tables/index.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, loadFixture, describeRecorded } from '../support/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

/**
 * The tables of ESPN's own college payloads (../shared/fixtures/espn/mens-college and
 * womens-college, PROVENANCE.md there), each value checked against the raw JSON read here.
 */

const summary = (name: string, raw: unknown, table: string): Row[] =>
  parseOperation(name, raw, { flavour: 'rows', table }) as Row[];

const int = (v: unknown): number | null => (v === undefined || v === null ? null : Number(v));

// The box score's stat keys and the seed's columns they fill, written out here.
const BOX_COLUMN: Record<string, string> = {
  minutes: 'minutes',
  'fieldGoalsMade-fieldGoalsAttempted': 'field_goals_made_field_goals_attempted',
  'threePointFieldGoalsMade-threePointFieldGoalsAttempted':
    'three_point_field_goals_made_three_point_field_goals_attempted',
  'freeThrowsMade-freeThrowsAttempted': 'free_throws_made_free_throws_attempted',
  offensiveRebounds: 'offensive_rebounds',
  defensiveRebounds: 'defensive_rebounds',
  rebounds: 'rebounds',
  assists: 'assists',
  steals: 'steals',
  blocks: 'blocks',
  turnovers: 'turnovers',
  fouls: 'fouls',
  points: 'points',
};

describeRecorded(!HAVE_FIXTURES)(
  `college payloads (${HAVE_FIXTURES ? 'recorded' : NO_FIXTURES_REASON})`,
  () => {
    for (const game of ['401706886_final', '401828387_final']) {
      describe(`mens_college_summary ${game}`, () => {
        const raw = HAVE_FIXTURES ? loadFixture<any>(`mens-college/summary__${game}.json`) : {};

        it('plays: one row per play, in order, every column from the play', () => {
          const rows = summary('mens_college_summary', raw, 'plays');
          expect(rows).toHaveLength(raw.plays.length);
          raw.plays.forEach((play: any, i: number) => {
            expect(rows[i], play.id).toMatchObject({
              id: play.id,
              sequence_number: play.sequenceNumber,
              text: play.text ?? null,
              type_id: play.type?.id ?? null,
              type_text: play.type?.text ?? null,
              period_number: play.period.number,
              period_display_value: play.period.displayValue,
              clock_display_value: play.clock.displayValue,
              team_id: play.team?.id ?? null,
              away_score: play.awayScore,
              home_score: play.homeScore,
              scoring_play: play.scoringPlay,
              score_value: int(play.scoreValue),
              shooting_play: play.shootingPlay ?? null,
              wallclock: play.wallclock ?? null,
            });
          });
          // Two halves of 20 minutes: the periods are named so, the clock reads M:SS.
          expect(new Set(rows.map((r) => r.period_display_value))).toEqual(new Set(['1st Half', '2nd Half']));
          for (const r of rows) expect(r.clock_display_value).toMatch(/^\d{1,2}:\d{2}$/);
        });

        it('boxscore_player: every athlete with every stat of the box score, and no +/-', () => {
          const rows = summary('mens_college_summary', raw, 'boxscore_player');
          const expected: Record<string, unknown>[] = [];
          for (const team of raw.boxscore.players) {
            const stats = team.statistics[0];
            for (const athlete of stats.athletes) {
              const row: Record<string, unknown> = {
                team_id: team.team.id,
                team_abbreviation: team.team.abbreviation,
                athlete_id: athlete.athlete.id,
                athlete_display_name: athlete.athlete.displayName,
                athlete_jersey: athlete.athlete.jersey ?? null,
                athlete_position: athlete.athlete.position?.abbreviation ?? null,
                starter: athlete.starter,
                did_not_play: athlete.didNotPlay ?? null,
                plus_minus: null,
              };
              stats.keys.forEach((key: string, k: number) => {
                const column = BOX_COLUMN[key];
                if (column) row[column] = athlete.stats[k] ?? null;
              });
              expected.push(row);
            }
          }
          expect(rows).toHaveLength(expected.length);
          rows.forEach((row, i) => expect(row).toMatchObject(expected[i]!));
          expect(expected.length).toBeGreaterThan(10);
        });
      });
    }

    it('mens_college_summary 401706886: the values a reader checks by eye', () => {
      const raw = loadFixture<any>('mens-college/summary__401706886_final.json');
      const plays = summary('mens_college_summary', raw, 'plays');
      expect(plays[0]).toMatchObject({
        text: 'AJ Storr missed Layup.',
        period_display_value: '1st Half',
        clock_display_value: '19:49',
        team_id: '2305',
        shooting_play: true,
        scoring_play: false,
      });
      const last = plays.at(-1)!;
      expect([last.away_score, last.home_score]).toEqual([75, 72]);
      const box = summary('mens_college_summary', raw, 'boxscore_player');
      expect(box[0]).toMatchObject({
        athlete_display_name: 'KJ Adams Jr.',
        minutes: '33',
        points: '8',
        field_goals_made_field_goals_attempted: '4-6',
        fouls: '3',
        plus_minus: null,
      });
      const header = summary('mens_college_summary', raw, 'header');
      expect(header[0]).toMatchObject({
        league_uid: 's:40~l:41',
        league_abbreviation: 'NCAAM',
        season_type: 2,
      });
    });

    it('womens_college_summary: four quarters, then OT as period 5', () => {
      const raw = loadFixture<any>('womens-college/summary__401469447_final_ot.json');
      const plays = summary('womens_college_summary', raw, 'plays');
      expect(plays).toHaveLength(raw.plays.length);
      const periods = [...new Map(plays.map((r) => [r.period_number, r.period_display_value])).entries()];
      expect(periods).toEqual([
        [1, '1st Quarter'],
        [2, '2nd Quarter'],
        [3, '3rd Quarter'],
        [4, '4th Quarter'],
        [5, 'OT'],
      ]);
    });

    it('mens_college_scoreboard: ranks from curatedRank (99 is unranked) and conference ids', () => {
      const raw = loadFixture<any>('mens-college/scoreboard__20241201_default.json');
      const rows = parseOperation('mens_college_scoreboard', raw, { flavour: 'rows' }) as Row[];
      expect(rows).toHaveLength(raw.events.length);
      const competitors = raw.events[0].competitions[0].competitors;
      const side = (s: string) => competitors.find((c: any) => c.homeAway === s);
      expect(side('home').curatedRank.current).toBe(22);
      expect(side('away').curatedRank.current).toBe(99);
      expect(rows[0]).toMatchObject({
        home_abbreviation: 'XAV',
        home_rank: '22',
        away_rank: null,
        home_conference_id: side('home').team.conferenceId,
        away_conference_id: side('away').team.conferenceId,
        tournament_id: null,
        season_type: 2,
      });
      expect([rows[0]!.home_conference_id, rows[0]!.away_conference_id]).toEqual(['4', '16']);
    });

    it('mens_college_scoreboard: a tournament game has its tournament id, note and season type 3', () => {
      const raw = loadFixture<any>('mens-college/scoreboard__20241201_default.json');
      const event = raw.events[0];
      event.season = { ...event.season, type: 3, slug: 'post-season' };
      event.competitions[0].tournamentId = 22;
      event.competitions[0].notes = [{ type: 'event', headline: "Men's Basketball Championship - Elite 8" }];
      const [row] = parseOperation(
        'mens_college_scoreboard',
        { events: [event] },
        { flavour: 'rows' },
      ) as Row[];
      expect(row).toMatchObject({
        tournament_id: '22',
        note: "Men's Basketball Championship - Elite 8",
        season_type: 3,
      });
    });
  },
);
