import { describe, expect, it } from 'vitest';
import type { League } from '../../src/core/leagues.js';
import type { GameEvent, GameSituation, GameSnapshot, PlayRow } from '../../src/model/events.js';
import { parsePlays } from '../../src/tables/index.js';
import { diffSummary } from '../../streams/game-diff.js';
import { newGameState, type GameDiffState } from '../../streams/diff-state.js';
import type { RawPlay } from '../../streams/play-fingerprint.js';
import { computeSituation, situationChanges } from '../../streams/situation.js';
import {
  HAVE_FIXTURES,
  NO_FIXTURES_REASON,
  finishedCollegeSummaries,
  loadFixture,
  describeRecorded,
} from '../support/fixtures.js';
import { playRow, rawPlay, summary } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */
type Json = Record<string, any>;

/**
 * The game situation of college games by the NCAA's rules. The recorded games are played through
 * the engine's diff period by period; at the end of every period the situation's team fouls and
 * free-throw level must equal a count made here from the plays, by the rules as the rule books
 * state them (docs/events.md), without the code under test.
 */

interface CollegeGame {
  name: string;
  league: League;
  raw: Json;
}

function collegeGames(): CollegeGame[] {
  return finishedCollegeSummaries().map((f) => {
    const relative = `${f.league}/${f.suffix}__${f.qualifier}.json`;
    return { name: relative, league: f.league, raw: loadFixture<Json>(relative) };
  });
}

const games = HAVE_FIXTURES ? collegeGames() : [];

// ---- The rules, written out independently of streams/situation*.ts ----------------------------

/** Regulation periods: two halves (men), four quarters (women). */
const regulation = (league: League): number => (league === 'mens-college' ? 2 : 4);

/**
 * The period whose team fouls a foul in period `p` counts toward. NCAA men's rules: fouls per half,
 * each extra period an extension of the second half; women's: per quarter, the 4th quarter's
 * count continued in every overtime.
 */
const countPeriod = (league: League, p: number): number => Math.min(p, regulation(league));

/**
 * A team foul in college: every personal foul (ESPN's college feeds type them all `PersonalFoul`,
 * offensive fouls included, which the NCAA counts as team fouls) and a player's technical foul.
 */
const isCollegeTeamFoul = (play: Json): boolean =>
  play.type?.text === 'PersonalFoul' || play.type?.text === 'Technical Foul';

/** What the fouled team shoots on the other team's foul number `n` of the count (a common foul). */
function shotsOnFoul(league: League, n: number): 'one_and_one' | 'two' | null {
  if (league === 'mens-college') return n >= 10 ? 'two' : n >= 7 ? 'one_and_one' : null;
  return n >= 5 ? 'two' : null;
}

interface Expected {
  fouls: number;
  freeThrows: 'one_and_one' | 'two' | null;
}

function expectedAt(game: CollegeGame, plays: Json[], period: number, teams: [string, string]) {
  const fouls = new Map<string, number>(teams.map((t) => [t, 0]));
  for (const play of plays) {
    const p = play.period?.number;
    const team = play.team?.id;
    if (!isCollegeTeamFoul(play) || typeof p !== 'number' || !fouls.has(team)) continue;
    if (countPeriod(game.league, p) !== countPeriod(game.league, period)) continue;
    fouls.set(team, (fouls.get(team) ?? 0) + 1);
  }
  const out: Record<string, Expected> = {};
  for (const team of teams) {
    const other = teams[0] === team ? teams[1] : teams[0];
    out[team] = {
      fouls: fouls.get(team) ?? 0,
      freeThrows: shotsOnFoul(game.league, (fouls.get(other) ?? 0) + 1),
    };
  }
  return out;
}

// ---- Driving the engine's diff ------------------------------------------------------------------

let now = Date.UTC(2025, 0, 1);
function poll(
  state: GameDiffState,
  raw: Json,
  league: League,
): { events: GameEvent[]; snapshot: GameSnapshot } {
  now += 3_000;
  const d = diffSummary(state, raw, {
    now,
    toRows: (plays: readonly RawPlay[]) => parsePlays({ plays }),
    where: `${league}_summary`,
  });
  if (d.kind === 'stale') throw new Error(`stale: ${d.reason}`);
  d.apply();
  return { events: d.events as GameEvent[], snapshot: d.snapshot };
}

/** The summary as it stood when period `period` had just ended, its plays up to `end` (included). */
function endOfPeriod(raw: Json, end: number, period: number): Json {
  const header = structuredClone(raw.header);
  header.competitions[0].status = {
    period,
    displayClock: '0:00',
    type: {
      name: 'STATUS_END_PERIOD',
      state: 'in',
      completed: false,
      detail: `End of period ${period}`,
      description: 'End of Period',
    },
  };
  return { ...raw, header, plays: raw.plays.slice(0, end + 1), winprobability: [] };
}

function sideOf(situation: GameSituation, team: string) {
  return situation.home.teamId === team ? situation.home : situation.away;
}

describeRecorded(!HAVE_FIXTURES || games.length === 0)(
  `college game situation on recorded games ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
  () => {
    it('has recorded games of both college leagues, one of them in overtime', () => {
      expect(games.filter((g) => g.league === 'mens-college').length).toBeGreaterThanOrEqual(2);
      expect(games.filter((g) => g.league === 'womens-college').length).toBeGreaterThanOrEqual(2);
      expect(games.some((g) => g.raw.plays.some((p: Json) => p.period.number > regulation(g.league)))).toBe(
        true,
      );
    });

    it.each(games.map((g) => [g.name, g] as const))(
      '%s: team fouls and free throws equal the count by the NCAA rules at the end of every period',
      (_name, game) => {
        const competitors: Json[] = game.raw.header.competitions[0].competitors;
        const teams = competitors.map((c) => String(c.team.id)) as [string, string];
        const state = newGameState(game.league, String(game.raw.header.id));
        const ends: number[] = [];
        game.raw.plays.forEach((p: Json, i: number) => {
          if (p.type.text === 'End Period') ends.push(i);
        });
        const periods = Math.max(...game.raw.plays.map((p: Json) => p.period.number as number));
        expect(ends.length).toBe(periods);
        let checkedFoulsOver0 = 0;
        for (const end of ends) {
          const period = game.raw.plays[end].period.number as number;
          const { snapshot } = poll(state, endOfPeriod(game.raw, end, period), game.league);
          const situation = snapshot.situation as GameSituation;
          expect(situation.rules).toBe(game.league === 'mens-college' ? 'ncaam' : 'ncaaw');
          expect(situation.period).toBe(period);
          const expected = expectedAt(game, game.raw.plays.slice(0, end + 1), period, teams);
          for (const team of teams) {
            const side = sideOf(situation, team);
            expect({ period, team, fouls: side.fouls, freeThrows: side.freeThrows }).toEqual({
              period,
              team,
              ...expected[team],
            });
            expect(side.bonus).toBe(side.freeThrows !== null);
            if (side.fouls > 0) checkedFoulsOver0++;
          }
        }
        expect(checkedFoulsOver0).toBeGreaterThan(0);
        // And the final summary, as the game ended.
        const { snapshot } = poll(state, game.raw, game.league);
        const expected = expectedAt(game, game.raw.plays, periods, teams);
        for (const team of teams) {
          const side = sideOf(snapshot.situation as GameSituation, team);
          expect({ fouls: side.fouls, freeThrows: side.freeThrows }).toEqual(expected[team]);
        }
      },
    );

    it.each(games.map((g) => [g.name, g] as const))(
      "%s: each player's fouls equal the box score's PF (technicals included); TV timeouts charge no team",
      (_name, game) => {
        const rows = parsePlays(game.raw);
        const competitors: Json[] = game.raw.header.competitions[0].competitors;
        const side = (c: Json) => ({ id: String(c.team.id) });
        const home = competitors.find((c) => c.homeAway === 'home') as Json;
        const away = competitors.find((c) => c.homeAway === 'away') as Json;
        const s = computeSituation({
          league: game.league,
          teams: { home: side(home), away: side(away) },
          plays: rows,
          period: null,
          clock: null,
        });
        const ours: Record<string, number> = {};
        for (const key of ['home', 'away'] as const) {
          for (const [id, p] of Object.entries(s[key].players)) if (p.fouls > 0) ours[id] = p.fouls;
          const team = s[key].teamId;
          const teamTimeouts = rows.filter(
            (r) => (r.type_text === 'ShortTimeOut' || r.type_text === 'RegularTimeOut') && r.team_id === team,
          );
          expect(s[key].timeouts.taken).toBe(teamTimeouts.length);
        }
        expect(rows.some((r) => r.type_text === 'OfficialTVTimeOut')).toBe(true);
        expect(ours).toEqual(boxScoreFouls(game.raw));
      },
    );

    it('names the periods of the recorded games: halves, quarters and OT', () => {
      for (const game of games) {
        const state = newGameState(game.league, String(game.raw.header.id));
        const { events } = poll(state, game.raw, game.league);
        const started = events.filter(
          (e): e is GameEvent & { type: 'period.started' } => e.type === 'period.started',
        );
        // ESPN's own names for the periods are on every play: the engine's must agree.
        const espn = new Map<number, string>();
        for (const p of game.raw.plays) espn.set(p.period.number, p.period.displayValue);
        expect(started.map((e) => e.data.label)).toEqual([...espn.values()]);
        expect(started.map((e) => e.data.overtime)).toEqual(
          [...espn.keys()].map((p) => p > regulation(game.league)),
        );
      }
    });
  },
);

/** PF per athlete id from the summary's box score (players with at least one). */
function boxScoreFouls(raw: Json): Record<string, number> {
  const out: Record<string, number> = {};
  for (const team of raw.boxscore?.players ?? []) {
    for (const group of team.statistics ?? []) {
      const at = (group.keys ?? group.names ?? []).indexOf('fouls');
      if (at < 0) continue;
      for (const a of group.athletes ?? []) {
        const pf = Number(a.stats?.[at]);
        if (Number.isFinite(pf) && pf > 0) out[String(a.athlete.id)] = pf;
      }
    }
  }
  return out;
}

// ---- Built plays: what no recorded game shows ----------------------------------------------------

const TEAMS = { home: { id: '1' }, away: { id: '2' } };
let serial = 0;
function play(type: string, team: '1' | '2', period: number, clock = '5:00', athlete = `p${team}`): PlayRow {
  serial++;
  return playRow(serial, {
    type_text: type,
    team_id: team,
    period_number: period,
    clock_display_value: clock,
    participants: JSON.stringify([{ athlete: { id: athlete } }]),
  });
}
const fouls = (n: number, team: '1' | '2', period: number): PlayRow[] =>
  Array.from({ length: n }, (_, i) => play('PersonalFoul', team, period, '5:00', `${team}-${period}-${i}`));
const situation = (league: League, plays: PlayRow[], period: number | null = null) =>
  computeSituation({ league, teams: TEAMS, plays, period, clock: null });

describe('men\u2019s college situation (built plays)', () => {
  it('gives a one-and-one from the 7th team foul of the half and two shots from the 10th', () => {
    const levels = [5, 6, 7, 8, 9, 10].map(
      (n) => situation('mens-college', fouls(n, '2', 1)).home.freeThrows,
    );
    // After n fouls by the away team, its next one is foul n + 1.
    expect(levels).toEqual([null, 'one_and_one', 'one_and_one', 'one_and_one', 'two', 'two']);
    expect(situation('mens-college', fouls(6, '2', 1)).home.bonus).toBe(true);
    expect(situation('mens-college', fouls(6, '2', 1)).away.freeThrows).toBeNull();
  });

  it('starts the second half from zero and carries the second half into every overtime', () => {
    const plays = [...fouls(9, '2', 1), ...fouls(5, '2', 2), ...fouls(2, '2', 3), ...fouls(1, '2', 4)];
    expect(situation('mens-college', plays, 2).away.fouls).toBe(5);
    expect(situation('mens-college', plays, 3).away.fouls).toBe(7);
    expect(situation('mens-college', plays, 4).away.fouls).toBe(8);
    expect(situation('mens-college', plays, 4).home.freeThrows).toBe('one_and_one');
  });

  it('counts an offensive foul and a player technical as team fouls, and fouls a player out at 5', () => {
    const plays = [
      play('Offensive Foul', '1', 1, '9:00', 'a'),
      play('Technical Foul', '1', 1, '8:00', 'a'),
      ...[7, 6, 5].map((m) => play('PersonalFoul', '1', 2, `${m}:00`, 'a')),
    ];
    const first = situation('mens-college', plays, 1).home;
    expect(first.fouls).toBe(2);
    const s = situation('mens-college', plays, 2).home;
    expect(s.players.a).toMatchObject({ fouls: 5, technicals: 1, disqualified: true });
    // Four fouls are not five.
    expect(situation('mens-college', plays.slice(0, 4), 2).home.players.a?.disqualified).toBe(false);
  });

  it('counts timeouts: 4 a game, at most 3 into the second half, one more per overtime', () => {
    const to = (team: '1' | '2', period: number, type = 'ShortTimeOut') => play(type, team, period);
    // Home takes none in the first half: only 3 carry over.
    expect(situation('mens-college', [], 1).home.timeouts.remaining).toBe(4);
    expect(situation('mens-college', [], 2).home.timeouts.remaining).toBe(3);
    // Two in the first half leave two.
    const two = [to('1', 1), to('1', 1, 'RegularTimeOut')];
    expect(situation('mens-college', two, 1).home.timeouts.remaining).toBe(2);
    expect(situation('mens-college', two, 2).home.timeouts.remaining).toBe(2);
    // One left at the end of regulation, plus one in each overtime, minus those taken there.
    const plays = [...two, to('1', 2), to('1', 3)];
    expect(situation('mens-college', plays, 3).home.timeouts).toEqual({
      taken: 4,
      remaining: 1,
      reset: null,
    });
    expect(situation('mens-college', plays, 4).home.timeouts.remaining).toBe(2);
    // Official TV timeouts are charged to nobody.
    const tv = playRow(9_999, { type_text: 'OfficialTVTimeOut', team_id: null, period_number: 1 });
    expect(situation('mens-college', [tv], 1).home.timeouts.taken).toBe(0);
  });
});

describe('women\u2019s college situation (built plays)', () => {
  it('gives two shots from the 5th team foul of a quarter, the 4th carried into overtime', () => {
    expect(situation('womens-college', fouls(3, '1', 2)).away.freeThrows).toBeNull();
    expect(situation('womens-college', fouls(4, '1', 2)).away.freeThrows).toBe('two');
    const plays = [...fouls(4, '1', 3), ...fouls(2, '1', 4), ...fouls(2, '1', 5)];
    expect(situation('womens-college', plays, 4).home.fouls).toBe(2);
    expect(situation('womens-college', plays, 5).home.fouls).toBe(4);
    expect(situation('womens-college', plays, 5).away.freeThrows).toBe('two');
  });

  it('counts timeouts: 4 a game, at most 3 into the second half (quarters 3-4), one more per overtime', () => {
    const to = (period: number) => play('ShortTimeOut', '2', period);
    expect(situation('womens-college', [to(1)], 2).away.timeouts.remaining).toBe(3);
    expect(situation('womens-college', [to(1)], 3).away.timeouts.remaining).toBe(3);
    expect(situation('womens-college', [to(1), to(2)], 3).away.timeouts.remaining).toBe(2);
    expect(situation('womens-college', [to(1), to(2), to(3), to(4)], 4).away.timeouts.remaining).toBe(0);
    expect(situation('womens-college', [to(1), to(2), to(3), to(4)], 5).away.timeouts.remaining).toBe(1);
  });
});

describe('pro leagues keep their rules, with freeThrows', () => {
  it('NBA: two shots from the 5th team foul of a quarter; each overtime from zero', () => {
    const pro = (n: number, period: number) =>
      Array.from({ length: n }, (_, i) => play('Personal Foul', '2', period, '9:00', `x${period}-${i}`));
    expect(situation('mens', pro(4, 4), 4).home.freeThrows).toBe('two');
    expect(situation('mens', pro(3, 4), 4).home.freeThrows).toBeNull();
    expect(situation('mens', [...pro(4, 4), ...pro(1, 5)], 5).away.fouls).toBe(1);
    // An offensive foul is not a team foul there.
    expect(situation('womens', [play('Offensive Foul', '1', 1)], 1).home.fouls).toBe(0);
  });
});

describe('a men\u2019s college game in six overtimes (built plays through the diff)', () => {
  // No recorded game goes to six overtimes: this one is built, a foul and an end per period.
  function sixOvertimes(): Json {
    const plays: Json[] = [];
    let n = 0;
    for (let period = 1; period <= 8; period++) {
      const display = period === 1 ? '1st Half' : period === 2 ? '2nd Half' : 'ESPN';
      for (const team of ['1', '2']) {
        n++;
        plays.push(
          rawPlay(n, {
            type: { id: '519', text: 'PersonalFoul' },
            team: { id: team },
            period: { number: period, displayValue: display },
            clock: { displayValue: '1:00' },
            participants: [{ athlete: { id: `${team}-${n}` } }],
          }),
        );
      }
      n++;
      plays.push(
        rawPlay(n, {
          type: { id: '412', text: 'End Period' },
          team: undefined,
          period: { number: period, displayValue: display },
          clock: { displayValue: '0:00' },
          participants: undefined,
        }),
      );
    }
    return {
      ...summary({ state: 'post', detail: 'Final/6OT', period: 8, clock: '0:00', home: 120, away: 118 }),
      plays,
    };
  }

  it('names every period through 6OT, continues the second half’s fouls, and ends in period 8', () => {
    const state = newGameState('mens-college', '401');
    const { events, snapshot } = poll(state, sixOvertimes(), 'mens-college');
    const started = events.filter(
      (e): e is GameEvent & { type: 'period.started' } => e.type === 'period.started',
    );
    expect(started.map((e) => e.data.label)).toEqual([
      '1st Half',
      '2nd Half',
      'OT',
      '2OT',
      '3OT',
      '4OT',
      '5OT',
      '6OT',
    ]);
    expect(started.map((e) => e.data.overtime)).toEqual([false, false, true, true, true, true, true, true]);
    const ended = events.filter((e): e is GameEvent & { type: 'period.ended' } => e.type === 'period.ended');
    expect(ended.at(-1)?.data).toEqual({ period: 8, label: '6OT', overtime: true });
    expect(events.find((e) => e.type === 'game.ended')?.data).toMatchObject({
      periods: 8,
      detail: 'Final/6OT',
    });
    expect(snapshot).toMatchObject({ period: 8, periodLabel: '6OT', overtime: true });
    // One foul a team in the 2nd half and in each of six overtimes: seven, a one-and-one next.
    expect(snapshot.situation?.home).toMatchObject({ fouls: 7, freeThrows: 'one_and_one', bonus: true });
  });
});

describeRecorded(!HAVE_FIXTURES || games.length === 0)(
  'ranks and conferences of recorded college games',
  () => {
    it('carries the header’s ranks (null when unranked) and conferences on events and the snapshot', () => {
      const byName = new Map(games.map((g) => [g.name.split('__')[1], g]));
      const cases: Array<[string, Record<'home' | 'away', { rank: number | null; conference: Json }>]> = [
        // #1 Kansas at #11 Duke, a non-conference game: ids only.
        [
          '401706886_final.json',
          {
            home: { rank: 11, conference: { id: '2', name: null } },
            away: { rank: 1, conference: { id: '8', name: null } },
          },
        ],
        // #24 Saint Louis at unranked St. Bonaventure, an Atlantic 10 game: named.
        [
          '401828387_final.json',
          {
            home: { rank: null, conference: { id: '3', name: 'Atlantic 10 Conference' } },
            away: { rank: 24, conference: { id: '3', name: 'Atlantic 10 Conference' } },
          },
        ],
      ];
      for (const [file, want] of cases) {
        const game = byName.get(file);
        if (!game) throw new Error(`no recorded game ${file}`);
        const state = newGameState(game.league, String(game.raw.header.id));
        const { events, snapshot } = poll(state, game.raw, game.league);
        for (const side of ['home', 'away'] as const) {
          expect(snapshot.teams[side]).toMatchObject(want[side]);
          for (const e of events) expect(e.teams[side]).toMatchObject(want[side]);
        }
      }
    });

    it('takes the scoreboard row’s rank when the header names none, 99 being no rank', () => {
      const game = games.find((g) => g.name.endsWith('401828387_final.json'));
      if (!game) throw new Error('no recorded game 401828387');
      const ranks = (row: Record<string, unknown>) => {
        const d = diffSummary(newGameState(game.league, '401828387'), game.raw, {
          now: Date.UTC(2026, 0, 23),
          toRows: (plays: readonly RawPlay[]) => parsePlays({ plays }),
          where: 'mens-college_summary',
          scoreboardRow: row,
        });
        if (d.kind !== 'diff') throw new Error('stale');
        return [d.snapshot.teams.home.rank, d.snapshot.teams.away.rank];
      };
      // The header's own rank (away, #24) wins over the row; the row fills the one the header lacks.
      expect(ranks({ home_rank: '17', away_rank: '3' })).toEqual([17, 24]);
      expect(ranks({ home_rank: '99', away_rank: null })).toEqual([null, 24]);
      expect(ranks({})).toEqual([null, 24]);
    });
  },
);

describe('situation changes', () => {
  it('names a change of free throws (one-and-one to two) beside the fouls that made it', () => {
    const before = situation('mens-college', fouls(8, '2', 2), 2);
    const after = situation('mens-college', fouls(9, '2', 2), 2);
    expect([before.home.freeThrows, after.home.freeThrows]).toEqual(['one_and_one', 'two']);
    expect(situationChanges(before, after)).toEqual(['home.freeThrows', 'away.fouls', 'away.players']);
    // A situation stored before the field existed: its recount is no change of free throws.
    const stored = { ...before, home: { ...before.home, freeThrows: undefined } };
    expect(situationChanges(stored, before)).toEqual([]);
  });
});
