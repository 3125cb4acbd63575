import { describe, expect, it } from 'vitest';
import type { EventDataMap, EventType, GameEvent, GameSnapshot, PlayRow } from '../../src/model/events.js';
import { ANSI, PLAIN, eventLine, periodLabel, scoreLine, snapshotLine } from '../../src/cli/watch-format.js';

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

describe('periodLabel', () => {
  it('names quarters and overtimes', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(periodLabel)).toEqual(['1st', '2nd', '3rd', '4th', 'OT', '2OT', '3OT']);
    expect(periodLabel(null)).toBe('');
    expect(periodLabel(0)).toBe('');
  });
});

describe('scoreLine', () => {
  it('reads away first, then home, then the clock', () => {
    expect(
      scoreLine({ abbreviation: 'LAL', score: 102 }, { abbreviation: 'BOS', score: 101 }, '1:12', 4),
    ).toBe('LAL 102 - BOS 101, 1:12 4th');
    expect(scoreLine({ abbreviation: 'LAL', score: 0 }, { abbreviation: 'BOS', score: 0 }, null, null)).toBe(
      'LAL 0 - BOS 0',
    );
  });
});

describe('snapshotLine', () => {
  it('shows a live game without repeating the clock the status detail already says', () => {
    expect(snapshotLine(snapshot())).toBe('● LAL 102 - BOS 101, 1:12 4th');
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
