import { describe, expect, it } from 'vitest';
import type {
  EventDataMap,
  EventType,
  GameEvent,
  GameSituation,
  GameSnapshot,
  PlayRow,
} from '../../../src/model/events.js';
import { rewind } from '../../../src/server/delivery/rewind.js';
import { game, makeSnapshot } from '../../support/events.js';

const G = game('mens', '401', ['13', 'LAL'], ['2', 'BOS']);

function event<T extends EventType>(seq: number, type: T, data: EventDataMap[T]): GameEvent {
  return {
    id: `e${seq}`,
    offset: `${1_000 + seq}-0`,
    type,
    league: G.league,
    gameId: G.gameId,
    seq,
    at: new Date(1_000 + seq).toISOString(),
    teams: { home: G.home, away: G.away },
    data,
  } as GameEvent;
}

function play(id: string, sequence: number, clock: string, text = `play ${id}`): PlayRow {
  return {
    id,
    sequence_number: String(sequence),
    clock_display_value: clock,
    text,
  } as unknown as PlayRow;
}

const AS_OF = Date.UTC(2024, 10, 22, 5, 0, 0);

describe('rewind', () => {
  it('undoes the held-back events newest first: score, plays, win probability, seq', () => {
    const p0 = play('p0', 100, '5:40');
    const p1 = play('p1', 101, '5:20');
    const p2 = play('p2', 102, '4:55', 'new text');
    const p3 = play('p3', 103, '4:30');
    const p4 = play('p4', 104, '3:12');
    const now: GameSnapshot = {
      ...makeSnapshot(G),
      seq: 12,
      status: { name: 'STATUS_IN_PROGRESS', detail: '3:12 - 2nd Quarter', description: 'In Progress' },
      score: { home: 50, away: 48 },
      period: 2,
      clock: '3:12',
      scoreboard: { home_score: 50, away_score: 48 },
      recentPlays: [p1, p2, p3, p4],
      winProbability: { playId: 'p4', homeWinPercentage: 0.61, tiePercentage: 0 },
    };
    const later = [
      event(8, 'play.updated', { play: p2, changed: ['text'], previous: { text: 'old text' } }),
      event(9, 'play.added', { play: p4, after: 'p3', index: 4 }),
      event(10, 'score.changed', {
        score: { home: 50, away: 48 },
        previous: { home: 48, away: 48 },
        period: 2,
        clock: '3:12',
      }),
      event(11, 'winprob.changed', {
        playId: 'p4',
        homeWinPercentage: 0.61,
        previousHomeWinPercentage: null,
        tiePercentage: 0,
      }),
      event(12, 'play.removed', { playId: 'p0', play: p0 }),
    ];
    const past = rewind(now, later, AS_OF);
    expect(past).toEqual({
      ...now,
      seq: 7,
      score: { home: 48, away: 48 },
      // The removed play is back in sequence order, the added one gone, the updated one as it was.
      recentPlays: [p0, p1, { ...p2, text: 'old text' }, p3],
      winProbability: null,
      // From the newest play left; the detail repeats the newer clock, the scoreboard row the newer score.
      clock: '4:30',
      status: { name: 'STATUS_IN_PROGRESS', detail: null, description: 'In Progress' },
      scoreboard: null,
      updatedAt: new Date(AS_OF).toISOString(),
    });
    // The current snapshot is shared between clients: it is never changed.
    expect(now.recentPlays).toEqual([p1, p2, p3, p4]);
    expect(now.score).toEqual({ home: 50, away: 48 });
  });

  it('goes back to before the first event when the whole game is held back', () => {
    const p1 = play('p1', 1, '11:40');
    const now: GameSnapshot = {
      ...makeSnapshot(G, 'in'),
      seq: 5,
      status: { name: 'STATUS_IN_PROGRESS', detail: '11:40 - 1st Quarter', description: 'In Progress' },
      score: { home: 2, away: 0 },
      period: 1,
      recentPlays: [p1],
    };
    const later = [
      event(1, 'game.status', {
        state: 'in',
        previousState: null,
        name: 'STATUS_IN_PROGRESS',
        detail: '12:00 - 1st Quarter',
        description: 'In Progress',
      }),
      event(2, 'game.started', { home: G.home, away: G.away, date: null }),
      event(3, 'period.started', { period: 1 }),
      event(4, 'play.added', { play: p1, after: null, index: 0 }),
      event(5, 'score.changed', {
        score: { home: 2, away: 0 },
        previous: { home: 0, away: 0 },
        period: 1,
        clock: '11:40',
      }),
    ];
    const past = rewind(now, later, AS_OF);
    expect(past).toMatchObject({
      seq: 0,
      state: 'pre',
      status: { name: null, detail: null, description: null },
      score: { home: 0, away: 0 },
      period: 0,
      periodLabel: null,
      overtime: false,
      clock: null,
      recentPlays: [],
      teams: now.teams,
    });
  });

  it('names the period it rewinds to: out of overtime, back to the 2nd half of a college game', () => {
    const college = { ...G, league: 'mens-college' as const };
    const now: GameSnapshot = {
      ...makeSnapshot(college, 'in'),
      seq: 1,
      period: 3,
      periodLabel: 'OT',
      overtime: true,
    };
    const held = [
      { ...event(1, 'period.started', { period: 3, label: 'OT', overtime: true }), league: 'mens-college' },
    ];
    expect(rewind(now, held as GameEvent[], AS_OF)).toMatchObject({
      period: 2,
      periodLabel: '2nd Half',
      overtime: false,
    });
  });

  it('puts back the situation before a held-back situation.changed (a delayed scorebug shows its fouls)', () => {
    const situation = (homeFouls: number, bonus: boolean): GameSituation => {
      const team = (teamId: string, fouls: number, inBonus: boolean) => ({
        teamId,
        fouls,
        bonus: inBonus,
        timeouts: { taken: 0, remaining: 7, reset: null },
        players: {},
      });
      return { rules: 'nba', period: 2, home: team('13', homeFouls, false), away: team('2', 0, bonus) };
    };
    const before = situation(4, false);
    const after = situation(5, true);
    const now: GameSnapshot = { ...makeSnapshot(G), seq: 9, situation: after };
    const past = rewind(
      now,
      [
        event(9, 'situation.changed', {
          situation: after,
          previous: before,
          changed: ['home.fouls', 'away.bonus'],
        }),
      ],
      AS_OF,
    );
    expect(past.seq).toBe(8);
    expect(past.situation).toEqual(before);
    expect(now.situation).toBe(after);
  });

  it('restores a known earlier win probability and returns the snapshot itself when nothing is held back', () => {
    const now: GameSnapshot = {
      ...makeSnapshot(G),
      seq: 3,
      winProbability: { playId: 'p9', homeWinPercentage: 0.7, tiePercentage: 0.01 },
    };
    const past = rewind(
      now,
      [
        event(3, 'winprob.changed', {
          playId: 'p9',
          homeWinPercentage: 0.7,
          previousHomeWinPercentage: 0.55,
          tiePercentage: 0.01,
        }),
      ],
      AS_OF,
    );
    expect(past.winProbability).toEqual({ playId: 'p9', homeWinPercentage: 0.55, tiePercentage: null });
    expect(past.seq).toBe(2);
    expect(rewind(now, [], AS_OF)).toBe(now);
  });
});
