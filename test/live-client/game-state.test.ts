import { describe, expect, it } from 'vitest';
import {
  gameState,
  reduceGame,
  toSnapshot,
  type GameEvent,
  type GameSituation,
  type LiveGame,
  type PlayRow,
} from '../../src/live-client/courtside.js';
import { GameScript, game, makeSnapshot } from '../support/events.js';

/**
 * The reducer: snapshots and events in, one plain object per game out. The whole-game check
 * against the daemon is in recovery.test.ts; these pin each rule on built events.
 */
const ids = (g: LiveGame | undefined): Array<string | null> => g?.plays.map((p) => p.id) ?? [];

function withData<T extends GameEvent['type']>(
  script: GameScript,
  type: T,
  data: Extract<GameEvent, { type: T }>['data'],
): GameEvent {
  const seq = script.events.length + 1;
  const event = {
    id: `${script.league}:${script.gameId}:${type}:${seq}`,
    type,
    league: script.league,
    gameId: script.gameId,
    seq,
    at: new Date(script.start + seq * 1000).toISOString(),
    teams: script.teams,
    data,
  } as GameEvent;
  script.events.push(event);
  return event;
}

describe('gameState', () => {
  it('takes the period name and overtime from period.started (older events leave them)', () => {
    const s = new GameScript('401000002', 'mens-college');
    s.started();
    const games = gameState();
    const at = (data: { period: number; label?: string; overtime?: boolean }) =>
      games.apply(withData(s, 'period.started', data));
    for (const e of s.events) games.apply(e);
    expect(at({ period: 2, label: '2nd Half', overtime: false })).toMatchObject({
      period: 2,
      periodLabel: '2nd Half',
      overtime: false,
    });
    expect(at({ period: 3, label: 'OT', overtime: true })).toMatchObject({
      period: 3,
      periodLabel: 'OT',
      overtime: true,
    });
    expect(at({ period: 4 })).toMatchObject({ period: 4, periodLabel: 'OT' });
  });

  it('keeps a college team’s poll rank from the events’ teams; events without one leave it', () => {
    const ranked = {
      home: { id: '150', abbreviation: 'DUKE', rank: 1 },
      away: { id: '2305', abbreviation: 'KU', rank: null },
    };
    const s = new GameScript('401000003', 'mens-college', 1_700_000_000_000, ranked);
    s.started();
    const games = gameState();
    let g: LiveGame | undefined;
    for (const e of s.events) g = games.apply(e);
    expect(g?.teams.home.rank).toBe(1);
    expect(g?.teams.away.rank).toBeNull();
    // An older daemon's event names no rank: the one known stays.
    s.teams.home = { id: '150', abbreviation: 'DUKE' } as typeof s.teams.home;
    g = games.apply(withData(s, 'period.started', { period: 2 }));
    expect(g?.teams.home.rank).toBe(1);
  });

  it('builds a game from events alone: score, period, clock, status, plays in order', () => {
    const s = new GameScript('401000001');
    s.started();
    withData(s, 'game.status', {
      state: 'in',
      previousState: 'pre',
      name: 'STATUS_IN_PROGRESS',
      detail: '12:00 - 1st Quarter',
      description: 'In Progress',
    });
    s.toPeriod(1);
    const a = s.scores('home', 2, { clock: '11:30' });
    const b = s.scores('away', 3, { clock: '11:02' });
    withData(s, 'score.changed', {
      score: { home: 2, away: 3 },
      previous: { home: 2, away: 0 },
      period: 1,
      clock: '10:58',
    });
    s.winprob(0.45);
    const games = gameState();
    let last: LiveGame | undefined;
    for (const e of s.events) last = games.apply(e);
    expect(last).toBe(games.get('mens', '401000001'));
    expect(last).toMatchObject({
      league: 'mens',
      gameId: '401000001',
      seq: s.events.length,
      state: 'in',
      status: { name: 'STATUS_IN_PROGRESS', detail: '12:00 - 1st Quarter', description: 'In Progress' },
      score: { home: 2, away: 3 },
      period: 1,
      clock: '10:58',
      winProbability: { playId: b.id, homeWinPercentage: 0.45, tiePercentage: 0 },
      situation: null,
      teams: { home: { id: '13', abbreviation: 'LAL', color: null }, away: { id: '2', abbreviation: 'BOS' } },
    });
    expect(ids(last)).toEqual([a.id, b.id]);
    expect(last?.recentPlays).toEqual(last?.plays);
  });

  it('places plays after the play they follow, moves and removes them, keeps the newest 20 as recentPlays', () => {
    const s = new GameScript('401000002');
    const rows: PlayRow[] = [];
    for (let i = 0; i < 25; i++) rows.push(s.play({ text: `play ${i}` }));
    // A late-arriving play inserted after the 3rd, by `after`.
    const late = { ...rows[0]!, id: 'late', text: 'late' };
    withData(s, 'play.added', { play: late, after: rows[2]!.id, index: 3 });
    // A play that moved to the front.
    withData(s, 'play.updated', { play: rows[10]!, changed: [], previous: {}, after: null, moved: true });
    // A corrected text, in place.
    const fixed = { ...rows[5]!, text: 'corrected' };
    withData(s, 'play.updated', { play: fixed, changed: ['text'], previous: { text: rows[5]!.text } });
    withData(s, 'play.removed', { playId: rows[1]!.id!, play: rows[1]! });

    let g: LiveGame | undefined;
    for (const e of s.events) g = reduceGame(g, e);
    const expected = [rows[10], rows[0], rows[2], late, ...rows.slice(3, 10), ...rows.slice(11)];
    expect(ids(g)).toEqual(expected.map((r) => r!.id));
    expect(g?.plays.find((p) => p.id === rows[5]!.id)?.text).toBe('corrected');
    expect(g?.recentPlays).toEqual(g?.plays.slice(-20));
    expect(g?.recentPlays).toHaveLength(20);
  });

  it('a snapshot replaces the state; events it already reflects are skipped; later ones apply', () => {
    const G = game('mens', '401000003', ['13', 'LAL'], ['2', 'BOS']);
    const s = new GameScript(G.gameId);
    const p1 = s.play({ text: 'one' });
    const p2 = s.play({ text: 'two' });
    // As the daemon stores it: as of its newest event.
    const snap = {
      ...makeSnapshot(G),
      seq: 2,
      recentPlays: [p1, p2],
      score: { home: 7, away: 5 },
      updatedAt: s.events[1]!.at,
    };
    const games = gameState();
    games.apply({ type: 'snapshot', game: snap });
    // Replayed after the snapshot (a `since` older than it): already in it.
    for (const e of s.events) games.apply(e);
    const p3 = s.play({ text: 'three' });
    games.apply(s.events.at(-1)!);
    const g = games.get('mens', G.gameId);
    expect(ids(g)).toEqual([p1.id, p2.id, p3.id]);
    expect(g?.score).toEqual({ home: 7, away: 5 });
    expect(g?.teams.home.color).toBe(snap.teams.home.color);
    expect(toSnapshot(g!)).not.toHaveProperty('plays');
  });

  it('applies events numbered anew (a daemon restarted on an empty memory bus) after a snapshot', () => {
    const G = game('mens', '401000009', ['13', 'LAL'], ['2', 'BOS']);
    const games = gameState();
    const old = new GameScript(G.gameId, 'mens', Date.now() - 3_600_000);
    for (let i = 0; i < 40; i++) old.play({});
    const snap = games.apply({
      type: 'snapshot',
      game: { ...makeSnapshot(G), seq: 40, updatedAt: old.events[39]!.at },
    });
    // Replayed after the snapshot: already in it, skipped, same object.
    expect(games.apply(old.events[39]!)).toBe(snap);
    // The daemon came back with no memory: seq 1, 2, ... again, but new plays.
    const fresh = new GameScript(G.gameId);
    const first = fresh.play({ id: 'new-1' });
    withData(fresh, 'score.changed', {
      score: { home: 99, away: 98 },
      previous: { home: 0, away: 0 },
      period: 4,
      clock: '0:01',
    });
    for (const e of fresh.events) games.apply(e);
    const g = games.get('mens', G.gameId);
    expect(g?.score).toEqual({ home: 99, away: 98 });
    expect(g?.plays.at(-1)?.id).toBe(first.id);
    expect(g?.seq).toBe(2);
  });

  it('keeps plays older than a later snapshot (a resume gap) in front of its recent plays', () => {
    const G = game('mens', '401000004', ['13', 'LAL'], ['2', 'BOS']);
    const s = new GameScript(G.gameId);
    const rows = Array.from({ length: 30 }, (_, i) => s.play({ text: `p${i}` }));
    let g: LiveGame | undefined;
    for (const e of s.events.slice(0, 12)) g = reduceGame(g, e);
    // Events 13-30 were lost; the snapshot after the gap holds the newest 20 (rows 10-29).
    g = reduceGame(g, {
      type: 'snapshot',
      game: { ...makeSnapshot(G), seq: 30, recentPlays: rows.slice(10) },
    });
    expect(ids(g)).toEqual(rows.map((r) => r.id));
  });

  it('replaces the situation with each situation.changed and takes the snapshot’s', () => {
    const G = game('womens', '401000005', ['5', 'NY'], ['6', 'LV']);
    const side = (teamId: string, fouls: number) => ({
      teamId,
      fouls,
      bonus: false,
      timeouts: { taken: 0, remaining: 4, reset: null },
      players: {},
    });
    const first: GameSituation = { rules: 'wnba', period: 1, home: side('5', 0), away: side('6', 0) };
    const next: GameSituation = { ...first, home: side('5', 3) };
    const games = gameState();
    games.apply({ type: 'snapshot', game: { ...makeSnapshot(G), seq: 1, situation: first } });
    expect(games.get('womens', G.gameId)?.situation).toEqual(first);
    const s = new GameScript(G.gameId, 'womens');
    s.events.push({} as GameEvent); // seq 1 is in the snapshot
    games.apply(
      withData(s, 'situation.changed', { situation: next, previous: first, changed: ['home.fouls'] }),
    );
    expect(games.get('womens', G.gameId)?.situation).toEqual(next);
  });

  it('keeps the win probability of the newest play when an older play’s value comes later', () => {
    const s = new GameScript('401000006');
    s.play({});
    s.play({});
    s.winprob(0.6);
    const newest = s.events.at(-1) as Extract<GameEvent, { type: 'winprob.changed' }>;
    withData(s, 'winprob.changed', {
      playId: `${s.gameId}1`,
      homeWinPercentage: 0.1,
      previousHomeWinPercentage: null,
      tiePercentage: 0,
    });
    let g: LiveGame | undefined;
    for (const e of s.events) g = reduceGame(g, e);
    expect(g?.winProbability?.playId).toBe(newest.data.playId);
    expect(g?.winProbability?.homeWinPercentage).toBe(0.6);
  });

  it('bounds the plays it keeps, and refuses a bound below recentPlays', () => {
    const s = new GameScript('401000007');
    for (let i = 0; i < 60; i++) s.play({});
    const games = gameState({ maxPlays: 25 });
    for (const e of s.events) games.apply(e);
    expect(games.get('mens', s.gameId)?.plays).toHaveLength(25);
    expect(() => gameState({ maxPlays: 5 })).toThrow(/maxPlays must be an integer of at least 20/);
  });

  it('ignores what is about no game, and returns each change as a new object', () => {
    const games = gameState();
    expect(games.apply({ type: 'gap', code: 'resume_gap', message: 'x', since: null })).toBeUndefined();
    const s = new GameScript('401000008');
    s.play({});
    s.play({});
    const a = games.apply(s.events[0]!);
    const b = games.apply(s.events[1]!);
    expect(a).not.toBe(b);
    expect(a?.plays).toHaveLength(1);
    expect(games.list()).toEqual([b]);
    expect(games.delete('mens', s.gameId)).toBe(true);
  });
});
