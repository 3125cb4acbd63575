import { afterEach, describe, expect, it } from 'vitest';
import { easternInstant } from '../../src/espn/eastern-day.js';
import { generateFinishedSummary } from '../../src/simulator/index.js';
import { NBA, TestClock, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const MIN = 60_000;
// 22:30 Eastern on 2026-01-14 (EST) and on 2026-10-31 (EDT; clocks go back that night).
const LATE_WINTER = easternInstant('20260114', 22, 30);
const LATE_FALL = easternInstant('20261031', 22, 30);

const ids = (body: any): string[] => (body.events as any[]).map((e) => String(e.id));

describe('the live default board under the 2026 rules', () => {
  it.each([
    ['a winter night', LATE_WINTER, '20260114', '20260115', '2026-01-15'],
    ['the night clocks go back', LATE_FALL, '20261031', '20261101', '2026-11-01'],
  ])(
    'turns over at Eastern midnight on %s while a late game is live; its dated board still shows it',
    async (_night, tip, day, next, nextIso) => {
      const clock = new TestClock(tip);
      // A synthetic game starts when the simulator does: 22:30 Eastern, live for two hours or so.
      const up = await start({ simulate: { games: 1, seed: 3, leagues: ['mens'] }, clock });
      const game = up.games[0]!;
      const board = () => getJson(`${up.url}${NBA}/scoreboard`);
      const dated = (d: string) => getJson(`${up.url}${NBA}/scoreboard?dates=${d}`);

      clock.advance(30 * MIN); // 23:00 Eastern
      expect(ids((await board()).body)).toEqual([game.id]);
      expect((await board()).body.day).toEqual({
        date: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`,
      });

      clock.ms = easternInstant(next, 0, 0) + MIN; // 00:01 Eastern, next day
      expect(game.state(clock.ms).state).toBe('in');
      const after = await board();
      expect(after.status).toBe(200);
      expect(ids(after.body)).toEqual([]);
      expect(after.body.day).toEqual({ date: nextIso });
      const yesterday = await dated(day);
      expect(ids(yesterday.body)).toEqual([game.id]);
      expect(yesterday.body.events[0].status.type.state).toBe('in');

      // A minute before midnight the default board still had it.
      clock.ms = easternInstant(next, 0, 0) - MIN;
      expect(ids((await board()).body)).toEqual([game.id]);
    },
  );

  it('files staggered games under the Eastern day of their own tip-off', async () => {
    const clock = new TestClock(easternInstant('20260114', 23, 50));
    // Two games 20 minutes apart: 23:50 on the 14th and 00:10 on the 15th.
    const up = await start({
      simulate: { games: 2, seed: 5, leagues: ['mens'], staggerMs: 20 * MIN },
      clock,
    });
    const [first, second] = up.games.map((g) => g.id);
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard?dates=20260114`)).body)).toEqual([first]);
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard?dates=20260115`)).body)).toEqual([second]);
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard`)).body)).toEqual([first]);
    clock.advance(30 * MIN);
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard`)).body)).toEqual([second]);
    // A month shows both.
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard?dates=202601`)).body)).toEqual([first, second]);
  });

  it('under the legacy rules shows every game on every board, as before', async () => {
    const clock = new TestClock(LATE_WINTER);
    const up = await start({
      simulate: { games: 1, seed: 3, leagues: ['mens'] },
      clock,
      espnRules: 'legacy',
    });
    clock.ms = easternInstant('20260115', 1, 0);
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard`)).body)).toEqual([up.games[0]!.id]);
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard?dates=20250101`)).body)).toEqual([up.games[0]!.id]);
  });

  it('keeps a synthetic game findable under the date its payload carries', async () => {
    const clock = new TestClock(LATE_WINTER);
    const up = await start({ simulate: { games: 1, seed: 3, leagues: ['mens'] }, clock });
    const final = generateFinishedSummary('mens', up.games[0]!.id, { seed: 3, index: 0 }) as any;
    const recorded: string = final.header.competitions[0].date;
    // Generated games carry a January 2025 evening; ESPN files it under that Eastern day.
    expect(recorded.startsWith('2025-01-15T00:')).toBe(true);
    expect(ids((await getJson(`${up.url}${NBA}/scoreboard?dates=20250114`)).body)).toEqual([up.games[0]!.id]);
  });
});
