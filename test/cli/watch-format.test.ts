import { describe, expect, it } from 'vitest';
import type { EventDataMap, EventType, GameEvent, GameSnapshot, PlayRow } from '../../src/model/events.js';
import type { FreeThrows, GameSituation, TeamSituation } from '../../src/model/events.js';
import { ANSI, PLAIN, bonusLine, eventLine, scoreLine, snapshotLine } from '../../src/cli/watch-format.js';

const ESC = String.fromCharCode(27);
const TEAMS = { home: { id: '2', abbreviation: 'BOS' }, away: { id: '13', abbreviation: 'LAL' } };

function event<T extends EventType>(type: T, data: EventDataMap[T]): GameEvent {
  return {
    id: `mens:1:${type}`,
    type,
    league: 'mens',
    gameId: '401',
    seq: 1,
    at: '2025-01-01T00:00:00.000Z',
    teams: TEAMS,
    data,
  } as GameEvent;
}

function play(overrides: Partial<PlayRow> = {}): PlayRow {
  return {
    id: '4011',
    sequence_number: '1',
    text: 'LeBron James makes 24-foot three point jumper',
    away_score: 3,
    home_score: 0,
    scoring_play: true,
    score_value: 3,
    participants: null,
    wallclock: null,
    shooting_play: true,
    points_attempted: 3,
    short_description: null,
    type_id: '92',
    type_text: 'Jump Shot',
    period_number: 1,
    period_display_value: '1st Quarter',
    clock_display_value: '11:32',
    team_id: '13',
    coordinate_x: null,
    coordinate_y: null,
    ...overrides,
  };
}

function snapshot(overrides: Partial<GameSnapshot> = {}): GameSnapshot {
  const team = (t: { id: string; abbreviation: string }) => ({
    ...t,
    displayName: null,
    color: null,
    alternateColor: null,
    logo: null,
  });
  return {
    league: 'mens',
    gameId: '401',
    seq: 10,
    state: 'in',
    status: { name: 'STATUS_IN_PROGRESS', detail: '1:12 - 4th Quarter', description: 'In Progress' },
    teams: { home: team(TEAMS.home), away: team(TEAMS.away) },
    score: { home: 101, away: 102 },
    period: 4,
    clock: '1:12',
    date: null,
    scoreboard: null,
    recentPlays: [],
    winProbability: null,
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const COLLEGE = {
  home: { id: '153', abbreviation: 'UNC', rank: null },
  away: { id: '150', abbreviation: 'DUKE', rank: 3 },
};

function collegeEvent<T extends EventType>(type: T, data: EventDataMap[T]): GameEvent {
  return { ...event(type, data), league: 'mens-college', teams: COLLEGE } as GameEvent;
}

function side(fouls: number, freeThrows: FreeThrows | null): TeamSituation {
  return {
    teamId: '1',
    fouls,
    bonus: freeThrows !== null,
    freeThrows,
    timeouts: { taken: 0, remaining: 4, reset: null },
    players: {},
  };
}

function situation(
  rules: GameSituation['rules'],
  home: TeamSituation,
  away: TeamSituation,
  period = 2,
): GameSituation {
  return { rules, period, home, away };
}

describe('scoreLine', () => {
  it('reads away first, then home, then the clock', () => {
    expect(
      scoreLine({ abbreviation: 'LAL', score: 102 }, { abbreviation: 'BOS', score: 101 }, '1:12', 4, 'mens'),
    ).toBe('LAL 102 - BOS 101, 1:12 4th');
    expect(
      scoreLine({ abbreviation: 'LAL', score: 0 }, { abbreviation: 'BOS', score: 0 }, null, null, 'mens'),
    ).toBe('LAL 0 - BOS 0');
  });
  it('writes ranks before the abbreviations and halves for men’s college', () => {
    expect(
      scoreLine(
        { abbreviation: 'DUKE', rank: 3, score: 41 },
        { abbreviation: 'UNC', rank: null, score: 38 },
        '12:40',
        2,
        'mens-college',
      ),
    ).toBe('#3 DUKE 41 - UNC 38, 12:40 2nd');
    expect(
      scoreLine(
        { abbreviation: 'LSU', rank: 1, score: 90 },
        { abbreviation: 'UGA', score: 88 },
        '2:00',
        6,
        'womens-college',
      ),
    ).toBe('#1 LSU 90 - UGA 88, 2:00 2OT');
  });
});

describe('bonusLine', () => {
  it('names the men’s college levels: one-and-one and double bonus', () => {
    const s = situation('ncaam', side(7, 'one_and_one'), side(10, 'two'));
    expect(bonusLine(s, COLLEGE)).toBe('DUKE in the double bonus · UNC in the one-and-one');
  });
  it('says bonus for two shots in the other leagues, nothing when neither team shoots', () => {
    expect(bonusLine(situation('ncaaw', side(5, 'two'), side(2, null)), COLLEGE)).toBe('UNC in the bonus');
    expect(bonusLine(situation('nba', side(5, 'two'), side(5, 'two')), TEAMS)).toBe(
      'LAL in the bonus · BOS in the bonus',
    );
    expect(bonusLine(situation('ncaam', side(1, null), side(2, null)), COLLEGE)).toBe('');
    expect(bonusLine(null, COLLEGE)).toBe('');
  });
});

describe('snapshotLine', () => {
  it('shows a live game without repeating the clock the status detail already says', () => {
    expect(snapshotLine(snapshot())).toBe('● LAL 102 - BOS 101, 1:12 4th');
  });
  it('shows a college game’s ranks, half and free-throw level', () => {
    const snap = snapshot({
      league: 'mens-college',
      teams: {
        home: { ...COLLEGE.home, displayName: null, color: null, alternateColor: null, logo: null },
        away: { ...COLLEGE.away, displayName: null, color: null, alternateColor: null, logo: null },
      },
      period: 2,
      clock: '4:10',
      status: { name: 'STATUS_IN_PROGRESS', detail: '4:10 - 2nd Half', description: null },
      situation: situation('ncaam', side(3, null), side(8, 'one_and_one')),
    });
    expect(snapshotLine(snap)).toBe('● #3 DUKE 102 - UNC 101, 4:10 2nd (DUKE in the one-and-one)');
  });
  it('shows a finished game as Final and a scheduled one with its detail', () => {
    expect(
      snapshotLine(
        snapshot({ state: 'post', status: { name: null, detail: 'Final/OT', description: null } }),
      ),
    ).toBe('● LAL 102 - BOS 101, Final (Final/OT)');
    expect(
      snapshotLine(
        snapshot({
          state: 'pre',
          score: { home: 0, away: 0 },
          period: null,
          clock: null,
          status: { name: null, detail: 'Sat, January 4th at 7:30 PM EST', description: null },
        }),
      ),
    ).toBe('● LAL 0 - BOS 0 (Sat, January 4th at 7:30 PM EST)');
  });
});

describe('eventLine', () => {
  it('writes a play with its period, clock, running score and text', () => {
    expect(eventLine(event('play.added', { play: play() }))).toBe(
      '[1st 11:32] LAL 3-0 BOS  LeBron James makes 24-foot three point jumper',
    );
  });
  it('marks a corrected play and mentions a removed one', () => {
    const updated = eventLine(event('play.updated', { play: play(), changed: ['text'], previous: {} }));
    expect(updated).toMatch(/\(corrected\)$/);
    expect(eventLine(event('play.removed', { playId: '4011', play: null }))).toBe(
      'play 4011 was removed upstream',
    );
  });
  it('writes score changes, periods, start, end and status', () => {
    expect(
      eventLine(
        event('score.changed', {
          score: { home: 2, away: 3 },
          previous: { home: 0, away: 3 },
          period: 1,
          clock: '10:00',
        }),
      ),
    ).toBe('● LAL 3 - BOS 2, 10:00 1st');
    expect(eventLine(event('period.started', { period: 5 }))).toBe('— start of OT —');
    expect(eventLine(event('period.ended', { period: 2 }))).toBe('— end of 2nd —');
    expect(eventLine(event('game.started', { home: TEAMS.home, away: TEAMS.away, date: null }))).toBe(
      'LAL at BOS: game started',
    );
    expect(
      eventLine(
        event('game.ended', { score: { home: 99, away: 104 }, winner: 'away', periods: 4, detail: 'Final' }),
      ),
    ).toBe('Final: LAL 104 - BOS 99');
    expect(
      eventLine(
        event('game.status', {
          state: 'in',
          previousState: 'in',
          name: 'STATUS_HALFTIME',
          detail: 'Halftime',
          description: 'Halftime',
        }),
      ),
    ).toBe('status: Halftime');
  });
  it('names college periods by the engine’s labels, with a fallback from the number', () => {
    expect(eventLine(collegeEvent('period.started', { period: 2, label: '2nd Half', overtime: false }))).toBe(
      '— start of 2nd Half —',
    );
    expect(eventLine(collegeEvent('period.ended', { period: 8, label: '6OT', overtime: true }))).toBe(
      '— end of 6OT —',
    );
    // An event stored before labels existed: the short name from the league's format.
    expect(eventLine(collegeEvent('period.started', { period: 3 }))).toBe('— start of OT —');
    expect(
      eventLine(collegeEvent('game.started', { home: COLLEGE.home, away: COLLEGE.away, date: null })),
    ).toBe('#3 DUKE at UNC: game started');
    expect(eventLine(collegeEvent('play.added', { play: play({ period_number: 2 }) }))).toMatch(
      /^\[2nd 11:32\] DUKE 3-0 UNC /,
    );
  });
  it('tells when a team’s free-throw level changes, and nothing else of the situation', () => {
    const now = situation('ncaam', side(4, null), side(7, 'one_and_one'));
    const before = situation('ncaam', side(4, null), side(6, null));
    expect(
      eventLine(
        collegeEvent('situation.changed', {
          situation: now,
          previous: before,
          changed: ['away.fouls', 'home.bonus', 'home.freeThrows'],
        }),
      ),
    ).toBe('DUKE in the one-and-one');
    expect(
      eventLine(
        collegeEvent('situation.changed', { situation: now, previous: before, changed: ['home.fouls'] }),
      ),
    ).toBeNull();
  });
  it('leaves win-probability ticks out of the feed', () => {
    expect(
      eventLine(
        event('winprob.changed', {
          playId: '1',
          homeWinPercentage: 0.5,
          previousHomeWinPercentage: 0.4,
          tiePercentage: 0,
        }),
      ),
    ).toBeNull();
  });
  it('colours only with the ANSI style; the plain style has no escape codes', () => {
    const e = event('play.added', { play: play() });
    expect(eventLine(e, PLAIN)).not.toContain(ESC);
    const coloured = eventLine(e, ANSI) ?? '';
    // Scoring plays are green, the clock dim.
    expect(coloured).toContain('\x1b[32m');
    expect(coloured).toContain('\x1b[2m');
    expect(coloured.replace(new RegExp(`${ESC}\\[\\d+m`, 'g'), '')).toBe(eventLine(e, PLAIN));
  });
});
