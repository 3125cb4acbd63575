import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope, GameEvent, GameSituation } from '../../src/model/events.js';
import {
  HAVE_FIXTURES,
  NO_FIXTURES_REASON,
  finishedCollegeSummaries,
  loadFixture,
} from '../support/fixtures.js';
import { reconstructPlays } from './helpers.js';
import { replayLive } from './replay-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */
type Json = Record<string, any>;

/**
 * The recorded college games replayed by the simulator (FastCast on) into the engine over real
 * sockets: every play once and in the upstream's order, the periods and their names, the final
 * status, ranks and conferences as the payload has them, and the final team fouls by the rules.
 */
const files = finishedCollegeSummaries();
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe.skipIf(!HAVE_FIXTURES || files.length === 0)(
  `recorded college games through the simulator and the engine ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
  () => {
    it(
      'plays each game once, names its periods, and ends with the payload’s status, ranks and fouls',
      { timeout: 120_000 },
      async () => {
        const { sim, engine, events } = await replayLive({
          files,
          replayMs: 8_000,
          seed: 11,
          waitMs: 90_000,
          cleanup,
          push: { reconcileMs: 1_000 },
        });
        expect(sim.games.length).toBe(files.length);
        for (const file of files) {
          const raw = loadFixture<Json>(file.file.slice(file.file.indexOf(`${file.league}/`)));
          const gameId = String(raw.header.id);
          const mine = events.filter((e) => e.gameId === gameId);
          expect(mine.length, gameId).toBeGreaterThan(100);
          // Every play once, in the upstream's order.
          expect(reconstructPlays(mine).map((p) => p.id)).toEqual(raw.plays.map((p: Json) => String(p.id)));
          // Periods, each once, named as ESPN's plays name them.
          const espn = new Map<number, string>();
          for (const p of raw.plays) espn.set(p.period.number, p.period.displayValue);
          const started = mine.filter(
            (e): e is EventEnvelope<'period.started'> => e.type === 'period.started',
          );
          const ended = mine.filter((e): e is EventEnvelope<'period.ended'> => e.type === 'period.ended');
          expect(started.map((e) => [e.data.period, e.data.label])).toEqual([...espn]);
          expect(ended.map((e) => [e.data.period, e.data.label])).toEqual([...espn]);
          // The final status and the teams as the header has them.
          const competition = raw.header.competitions[0];
          const end = mine.find((e): e is EventEnvelope<'game.ended'> => e.type === 'game.ended');
          expect(end?.data).toMatchObject({ periods: espn.size, detail: competition.status.type.detail });
          const snapshot = await engine.snapshots.snapshot(file.league, gameId);
          for (const c of competition.competitors as Json[]) {
            const side = c.homeAway as 'home' | 'away';
            const want = {
              id: String(c.team.id),
              rank: c.rank ?? null,
              conference: { id: String(c.team.groups.id) },
            };
            expect(snapshot?.teams[side]).toMatchObject(want);
            for (const e of mine as GameEvent[]) expect(e.teams[side]).toMatchObject(want);
          }
          expect(snapshot).toMatchObject({
            state: 'post',
            period: espn.size,
            periodLabel: espn.get(espn.size),
            overtime: espn.size > (file.league === 'mens-college' ? 2 : 4),
          });
          // Team fouls of the last count (2nd half or 4th quarter, with overtime): PersonalFoul and
          // Technical Foul plays of the team from that period on.
          const from = file.league === 'mens-college' ? 2 : 4;
          const situation = snapshot?.situation as GameSituation;
          for (const side of ['home', 'away'] as const) {
            const team = situation[side].teamId;
            const fouls = raw.plays.filter(
              (p: Json) =>
                p.team?.id === team &&
                p.period.number >= from &&
                (p.type.text === 'PersonalFoul' || p.type.text === 'Technical Foul'),
            ).length;
            expect(situation[side].fouls, `${gameId} ${side}`).toBe(fouls);
          }
        }
      },
    );
  },
);
