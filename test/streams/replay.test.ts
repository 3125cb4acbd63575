import { afterEach, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { Bus } from '../../src/bus/types.js';
import { parsePlays } from '../../src/tables/index.js';
import type { GameEvent, PlayRow } from '../../src/model/events.js';
import { HAVE_FIXTURES, finishedSummaries, describeRecorded } from '../support/fixtures.js';
import { reconstructPlays } from './helpers.js';
import { orderViolations, replayLive, type LiveReplay } from './replay-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

// Real time, real sockets: the simulator replays every recorded finished game at a speed that
// plays the longest one in about 12 s, and the engine polls every 100 ms.
const REPLAY_MS = 12_000;
const SUMMARY_MS = 100;
const WAIT_MS = 50_000;

const files = finishedSummaries();
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** The recorded games replayed live through the engine (seed 7). */
function play(options: { faults?: string; bus?: Bus }): Promise<LiveReplay> {
  return replayLive({
    files,
    replayMs: REPLAY_MS,
    seed: 7,
    waitMs: WAIT_MS,
    summaryMs: SUMMARY_MS,
    cleanup,
    ...options,
  });
}

/** Checks one game's events against the payload the simulator serves once the game is over. */
function checkGame(events: GameEvent[], final: Record<string, any>): void {
  const rebuilt = reconstructPlays(events);
  const expected: PlayRow[] = parsePlays(final);
  expect(rebuilt.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  expect(rebuilt).toEqual(expected);

  const competitors = final.header.competitions[0].competitors as any[];
  const score = (side: string) => Number(competitors.find((c) => c.homeAway === side).score);
  const scores = events.filter((e) => e.type === 'score.changed');
  expect(scores.at(-1)?.data).toMatchObject({ score: { home: score('home'), away: score('away') } });

  expect(events.filter((e) => e.type === 'game.started')).toHaveLength(1);
  expect(events.filter((e) => e.type === 'game.ended')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('game.ended');
  const periods = Math.max(...expected.map((r) => r.period_number ?? 0));
  const ofType = (t: string) =>
    events.filter((e) => e.type === t).map((e) => (e.data as { period: number }).period);
  const all = Array.from({ length: periods }, (_, i) => i + 1);
  expect(ofType('period.started')).toEqual(all);
  expect(ofType('period.ended')).toEqual(all);

  const wp = new Map<string, number>();
  for (const e of events) if (e.type === 'winprob.changed') wp.set(e.data.playId, e.data.homeWinPercentage);
  const series = new Map<string, number>(
    (final.winprobability as any[]).map((w) => [String(w.playId), w.homeWinPercentage]),
  );
  for (const [id, v] of series) expect(wp.get(id), `winprob of ${id}`).toBe(v);

  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

  // Game-clock order across every poll: a period starts before its plays, no play is added to a
  // period after its end, no play event follows the final status.
  expect(orderViolations(events)).toEqual([]);
}

describeRecorded(!HAVE_FIXTURES || files.length === 0)(`replayed recorded games`, () => {
  it('rebuilds every finished game exactly from its events', { timeout: 90_000 }, async () => {
    const { sim, events } = await play({});
    expect(sim.games).toHaveLength(files.length);
    for (const game of sim.games) {
      const mine = events.filter((e) => e.gameId === game.id);
      checkGame(mine, game.summary(Date.now()));
      expect(game.summary(Date.now())).toEqual(game.final);
      expect(mine.filter((e) => e.type === 'play.updated' || e.type === 'play.removed')).toEqual([]);
    }
  });

  it(
    'still rebuilds the final state under upstream faults; corrections and removals arrive as events',
    { timeout: 90_000 },
    async () => {
      const { sim, events, engine } = await play({
        faults: 'error=0.2,timeout=0.05,malformed=0.02,correct=0.05,remove=0.01',
      });
      let corrected = 0;
      let removed = 0;
      for (const game of sim.games) {
        const mine = events.filter((e) => e.gameId === game.id);
        const served = game.summary(Date.now());
        checkGame(mine, served);
        const original = new Map(parsePlays(game.final).map((r) => [r.id, r]));
        const now = new Map(parsePlays(served).map((r) => [r.id, r]));
        for (const [id, row] of original) {
          const about = mine.filter(
            (e) =>
              ((e.type === 'play.added' || e.type === 'play.updated') && e.data.play.id === id) ||
              (e.type === 'play.removed' && e.data.playId === id),
          );
          // A play changed (or gone) before the engine first saw it has no trace of its old
          // version; one the engine saw in its original form must be corrected or removed by event.
          const sawOriginal = about.some(
            (e) => e.type === 'play.added' && JSON.stringify(e.data.play) === JSON.stringify(row),
          );
          if (!now.has(id)) {
            removed++;
            if (about.length > 0) expect(about.at(-1)?.type, `removal of ${id}`).toBe('play.removed');
          } else if (JSON.stringify(now.get(id)) !== JSON.stringify(row)) {
            corrected++;
            if (sawOriginal) {
              expect(about.at(-1)?.type, `correction of ${id}`).toBe('play.updated');
              expect(about.at(-1)?.data).toMatchObject({ play: now.get(id) });
            }
          }
        }
      }
      // The fault rates make corrections all but certain over three games; removals are rarer.
      expect(corrected + removed).toBeGreaterThan(0);
      const failures = engine.status().filter((s) => s.lastError !== null);
      expect(failures.length).toBeGreaterThan(0);
    },
  );

  it(
    'sends at most one summary request per game per interval, even with a slow downstream',
    { timeout: 90_000 },
    async () => {
      const inner = createMemoryBus();
      // Commits take 2.5 intervals: a poll must wait for the previous one, never stack beside it.
      const slow: Bus = Object.create(inner, {
        commit: {
          value: (...args: Parameters<Bus['commit']>) =>
            new Promise((resolve) => setTimeout(() => resolve(inner.commit(...args)), SUMMARY_MS * 2.5)),
        },
      });
      const { sim, events } = await play({ bus: slow });
      for (const game of sim.games) {
        const requests = sim.requests.entries.filter(
          (r) => r.path.endsWith('/summary') && r.query.event === game.id,
        );
        const first = requests[0]?.at ?? 0;
        const last = requests.at(-1)?.at ?? 0;
        expect(requests.length).toBeGreaterThan(3);
        expect(requests.length).toBeLessThanOrEqual(Math.floor((last - first) / SUMMARY_MS) + 1);
        // And the slow downstream cost no correctness.
        checkGame(
          events.filter((e) => e.gameId === game.id),
          game.summary(Date.now()),
        );
      }
    },
  );
});
