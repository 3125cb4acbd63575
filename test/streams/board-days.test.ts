import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { upstreamAnomalies } from '../../src/core/metrics.js';
import { easternDay, easternInstant } from '../../src/espn/eastern-day.js';
import { parseEasternTime, previousDay, previousDayToRead } from '../../streams/board-days.js';
import { createEngine, type Engine, type EngineOptions } from '../../streams/engine.js';
import { Script, scriptedEngine, VirtualClock } from './helpers.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (iso: string): number => Date.parse(iso);
const SIX = 6 * 60;

describe('previousDayToRead', () => {
  it('reads the previous Eastern day during the window after Eastern midnight, whatever it held', () => {
    // 00:30 EST on 2026-01-15 is 05:30 UTC.
    expect(previousDayToRead(at('2026-01-15T05:30Z'), SIX, { day: '20260114', open: false })).toBe(
      '20260114',
    );
    // 05:59 EST: still in the window; 06:00 EST (11:00 UTC): over.
    expect(previousDayToRead(at('2026-01-15T10:59Z'), SIX, { day: '20260114', open: false })).toBe(
      '20260114',
    );
    expect(previousDayToRead(at('2026-01-15T11:00Z'), SIX, { day: '20260114', open: false })).toBeNull();
  });

  it('after the window, reads it while its last reading listed a game not final, or when never read', () => {
    const noon = at('2026-01-15T17:00Z');
    expect(previousDayToRead(noon, SIX, { day: '20260114', open: true })).toBe('20260114');
    expect(previousDayToRead(noon, SIX, { day: '20260114', open: false })).toBeNull();
    expect(previousDayToRead(noon, SIX, null)).toBe('20260114');
    // A reading of an older day says nothing about yesterday.
    expect(previousDayToRead(noon, SIX, { day: '20260113', open: false })).toBe('20260114');
    // No window at all: only the reading decides.
    expect(previousDayToRead(at('2026-01-15T05:30Z'), 0, { day: '20260114', open: false })).toBeNull();
  });

  it('turns the day at Eastern midnight on both daylight-saving nights of 2026', () => {
    // Spring forward, 2026-03-08 02:00 EST -> 03:00 EDT. 23:59 EST on the 7th is 04:59 UTC.
    expect(easternDay(at('2026-03-08T04:59Z'))).toBe('20260307');
    expect(easternDay(at('2026-03-08T05:00Z'))).toBe('20260308');
    expect(previousDayToRead(at('2026-03-08T05:00Z'), SIX, { day: '20260307', open: false })).toBe(
      '20260307',
    );
    // Fall back, 2026-11-01 02:00 EDT -> 01:00 EST. Midnight EDT is 04:00 UTC.
    expect(easternDay(at('2026-11-01T03:59Z'))).toBe('20261031');
    expect(easternDay(at('2026-11-01T04:00Z'))).toBe('20261101');
    // The next midnight is on standard time: 05:00 UTC.
    expect(easternDay(at('2026-11-02T04:59Z'))).toBe('20261101');
    expect(easternDay(at('2026-11-02T05:00Z'))).toBe('20261102');
  });

  it('ends the window at 06:00 on the Eastern wall clock on both daylight-saving nights', () => {
    const closed = (day: string) => ({ day, open: false });
    // Spring forward: 06:00 EDT is 10:00 UTC (a fixed UTC-5 would say 11:00).
    expect(previousDayToRead(at('2026-03-08T09:59Z'), SIX, closed('20260307'))).toBe('20260307');
    expect(previousDayToRead(at('2026-03-08T10:00Z'), SIX, closed('20260307'))).toBeNull();
    // Fall back: 06:00 EST is 11:00 UTC (a fixed UTC-4 would say 10:00).
    expect(previousDayToRead(at('2026-11-01T10:30Z'), SIX, closed('20261031'))).toBe('20261031');
    expect(previousDayToRead(at('2026-11-01T11:00Z'), SIX, closed('20261031'))).toBeNull();
    expect(easternInstant('20261101', 6, 0)).toBe(at('2026-11-01T11:00Z'));
    expect(easternInstant('20260308', 6, 0)).toBe(at('2026-03-08T10:00Z'));
  });
});

describe('previousDay and parseEasternTime', () => {
  it('steps back over month, leap-day and year boundaries', () => {
    expect(previousDay('20260301')).toBe('20260228');
    expect(previousDay('20240301')).toBe('20240229');
    expect(previousDay('20260101')).toBe('20251231');
    expect(previousDay('20261101')).toBe('20261031');
  });

  it('reads HH:MM and refuses anything else, naming the option and the form', () => {
    expect(parseEasternTime('06:00')).toBe(360);
    expect(parseEasternTime('00:00')).toBe(0);
    expect(parseEasternTime('23:59')).toBe(1439);
    for (const bad of ['6:00', '24:00', '06:60', '0600', '', 'six']) {
      expect(() => parseEasternTime(bad)).toThrow(InvalidOptionsError);
    }
    expect(() => parseEasternTime('25:00')).toThrow(
      /previousDayUntil must be an Eastern wall-clock time HH:MM/,
    );
    const client = { call: async () => ({}) };
    expect(() => createEngine({ client, leagues: ['mens'], previousDayUntil: '7am' })).toThrow(
      /previousDayUntil must be an Eastern wall-clock time HH:MM from 00:00 to 23:59, e\.g\. 06:00; got "7am"/,
    );
  });
});

describe('the scoreboard poller across the Eastern date seam', () => {
  // 22:30 EST on 2026-01-14 is 03:30 UTC on the 15th.
  const TIP = at('2026-01-15T03:30Z');
  const MIDNIGHT = easternInstant('20260115', 0, 0);
  const engines: Engine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.close()));
  });

  function engineOn(script: Script, clock: VirtualClock, options: Partial<EngineOptions> = {}) {
    const { engine, events } = scriptedEngine(script, clock, options);
    engines.push(engine);
    engine.start();
    return { engine, events };
  }

  it('finds a game that went past midnight on the previous day’s board, after the default board moved on', async () => {
    const clock = new VirtualClock(MIDNIGHT + 30 * MIN);
    const script = new Script(clock);
    const late = script.add({ id: 'late', state: 'in', start: TIP, plays: 300 });
    script.add({ id: 'early', state: 'post', start: TIP - 3 * HOUR, plays: 400 });
    // 00:30 Eastern: the default board shows the new day, which has no game yet.
    script.offDefaultBoard.add('late');
    script.offDefaultBoard.add('early');
    const { events } = engineOn(script, clock);
    await clock.advance(MIN);
    expect(script.datedCalls().map((c) => c.dates)).toContain('20260114');
    expect(script.summaryCalls('late').length).toBeGreaterThan(0);
    // The finished game is listed, not polled.
    expect(script.summaryCalls('early')).toEqual([]);
    late.state = 'post';
    await clock.advance(MIN);
    expect(events.filter((e) => e.gameId === 'late' && e.type === 'game.ended')).toHaveLength(1);
  });

  it('reads the previous day until 06:00 Eastern, then only while one of its games is not final', async () => {
    const clock = new VirtualClock(TIP);
    const script = new Script(clock);
    const late = script.add({ id: 'late', state: 'in', start: TIP, plays: 10 });
    const stuck = script.add({ id: 'stuck', state: 'in', start: TIP - HOUR, plays: 10 });
    // Hours of virtual time: slow polls keep rxjs's virtual action chains short.
    engineOn(script, clock, {
      intervals: { summaryMs: MIN, scoreboardLiveMs: 10 * MIN, scoreboardGameDayMs: 10 * MIN },
    });
    // Before midnight the previous day (the 13th) is read once, to learn whether it has games.
    await clock.advance(MIDNIGHT - TIP - MIN);
    expect(script.datedCalls().map((c) => c.dates)).toEqual(['20260113']);
    script.offDefaultBoard.add('late');
    script.offDefaultBoard.add('stuck');
    late.state = 'post';
    await clock.advance(2 * MIN);
    expect(script.datedCalls().at(-1)?.dates).toBe('20260114');
    // Until 06:00 Eastern every scoreboard poll reads the 14th too.
    const six = easternInstant('20260115', 6, 0);
    await clock.advance(six - clock.now() - 1);
    const inWindow = script.datedCalls().filter((c) => c.at >= MIDNIGHT);
    expect(inWindow.length).toBe(script.scoreboardCalls().filter((t) => t >= MIDNIGHT).length);
    // After 06:00: `stuck` is not final, so the 14th is still read.
    await clock.advance(HOUR);
    expect(script.datedCalls().filter((c) => c.at >= six).length).toBeGreaterThan(0);
    // Once its last game is final, the 14th is read no more.
    stuck.state = 'post';
    await clock.advance(20 * MIN);
    const settled = clock.now();
    await clock.advance(2 * HOUR);
    expect(script.datedCalls().filter((c) => c.at > settled)).toEqual([]);
    expect(script.scoreboardCalls().filter((t) => t > settled).length).toBeGreaterThan(0);
  });

  it('lists a game on both boards once, and forgets nothing when the dated board fails', async () => {
    const clock = new VirtualClock(MIDNIGHT + 10 * MIN);
    const script = new Script(clock);
    // ESPN's default board has not moved on yet for `both`; `done` is on the previous day's only.
    script.add({ id: 'both', state: 'in', start: TIP, plays: 5 });
    const done = script.add({ id: 'done', state: 'in', start: TIP - 2 * HOUR, plays: 5 });
    script.offDefaultBoard.add('done');
    const { engine } = engineOn(script, clock);
    await clock.advance(MIN);
    const polled = script.summaryCalls('both').length;
    expect(polled).toBeGreaterThan(0);
    expect(engine.status().filter((s) => s.gameId === 'both')).toHaveLength(1);
    done.state = 'post';
    await clock.advance(MIN);
    expect(engine.status().find((s) => s.gameId === 'done')?.state).toBe('stopped');

    // The dated board fails; the default one has moved on. Neither game is forgotten (the finished
    // one keeps its final copy), `both` keeps its poller, the failure shows in the status.
    script.offDefaultBoard.add('both');
    script.failing.set('mens_scoreboard?dates', 1);
    await clock.advance(10_000);
    const board = engine.status().find((s) => s.poller === 'scoreboard');
    expect(board).toMatchObject({ state: 'backoff', lastError: { code: 'UPSTREAM_HTTP' } });
    expect(engine.status().find((s) => s.gameId === 'done')?.state).toBe('stopped');
    await clock.advance(MIN);
    expect(engine.status().find((s) => s.gameId === 'both')?.state).toBe('polling');
    expect(script.summaryCalls('both').length).toBeGreaterThan(polled);
  });

  it('counts an empty board during a live window and logs it once', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const value = async () =>
      (await upstreamAnomalies.get()).values.find((v) => v.labels.kind === 'empty_board')?.value ?? 0;
    const before = await value();
    // 20:00 Eastern, a game in progress; then the board answers no games for the same day.
    const clock = new VirtualClock(at('2026-01-15T01:00Z'));
    const script = new Script(clock);
    script.add({ id: 'g', state: 'in', start: clock.now() - HOUR, plays: 5 });
    engineOn(script, clock, { logger });
    await clock.advance(MIN);
    expect(await value()).toBe(before);
    script.offDefaultBoard.add('g');
    // An empty board calls for the idle cadence (5 minutes): three reads in 11 minutes.
    await clock.advance(11 * MIN);
    expect(await value()).toBe(before + 3);
    const warnings = lines.filter((l) => l.kind === 'empty_board');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ board: 'default', day: '20260114', league: 'mens' });
    // A board that moved on to a new day is no anomaly: nothing more is counted after midnight.
    await clock.advance(MIDNIGHT - clock.now() + MIN);
    const atMidnight = await value();
    await clock.advance(10 * MIN);
    expect(await value()).toBe(atMidnight);
  });
});
