import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { League } from '../../src/core/leagues.js';
import type { EventEnvelope } from '../../src/model/events.js';
import { generateFinishedSummary } from '../../src/simulator/synthetic-game.js';
import { syntheticGameId } from '../../src/simulator/synthetic-ids.js';
import type { FixtureFile } from '../support/fixtures.js';
import { reconstructPlays } from './helpers.js';
import { replayLive } from './replay-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's free-form JSON */

/**
 * Synthetic college games, made by the simulator and served by it live (FastCast on) to an engine
 * over real sockets: every play once in the simulator's order, the periods named by the league
 * ("1st Half", "OT"; quarters for women), the final status, the teams' ranks and conferences.
 */
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const HALVES = ['1st Half', '2nd Half'];
const QUARTERS = ['1st Quarter', '2nd Quarter', '3rd Quarter', '4th Quarter'];
const expectedLabel = (league: League, period: number): string => {
  const regulation = league === 'mens-college' ? HALVES : QUARTERS;
  const ot = period - regulation.length;
  return ot <= 0 ? (regulation[period - 1] as string) : ot === 1 ? 'OT' : `${ot}OT`;
};

describe('synthetic college games through the simulator and the engine, push on', () => {
  it(
    'delivers every play once in order, with the league’s period names, status, ranks and conferences',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'college-synthetic-'));
      cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
      // Seed 21 game 37 of the men goes to overtime (checked below), so an overtime is named too.
      const picks: Array<[League, number]> = [
        ['mens-college', 37],
        ['womens-college', 0],
      ];
      const files: FixtureFile[] = picks.map(([league, i]) => {
        const final = generateFinishedSummary(league, syntheticGameId(21, i), { seed: 21, index: i }) as any;
        mkdirSync(join(dir, league), { recursive: true });
        const file = join(dir, league, `summary__${final.header.id}_final.json`);
        writeFileSync(file, JSON.stringify(final));
        return { league, suffix: 'summary', qualifier: '', file };
      });
      const finals = picks.map(
        ([league, i]) =>
          generateFinishedSummary(league, syntheticGameId(21, i), { seed: 21, index: i }) as any,
      );
      const { sim, engine, events } = await replayLive({
        files,
        replayMs: 6_000,
        seed: 4,
        waitMs: 90_000,
        cleanup,
        push: { reconcileMs: 1_000 },
      });
      expect(sim.games.map((g) => g.league)).toEqual(['mens-college', 'womens-college']);
      finals.forEach((final, k) => {
        const league = picks[k]![0];
        const gameId = String(final.header.id);
        const mine = events.filter((e) => e.gameId === gameId);
        expect(reconstructPlays(mine).map((p) => p.id)).toEqual(final.plays.map((p: any) => String(p.id)));
        const periods = Math.max(...final.plays.map((p: any) => p.period.number));
        if (league === 'mens-college') expect(periods).toBeGreaterThan(2);
        const want = Array.from({ length: periods }, (_, i) => [i + 1, expectedLabel(league, i + 1)]);
        const started = mine.filter((e): e is EventEnvelope<'period.started'> => e.type === 'period.started');
        const ended = mine.filter((e): e is EventEnvelope<'period.ended'> => e.type === 'period.ended');
        expect(started.map((e) => [e.data.period, e.data.label])).toEqual(want);
        expect(ended.map((e) => [e.data.period, e.data.label])).toEqual(want);
        const end = mine.find((e): e is EventEnvelope<'game.ended'> => e.type === 'game.ended');
        expect(end?.data).toMatchObject({ periods, detail: final.header.competitions[0].status.type.detail });
      });
      for (const [k, final] of finals.entries()) {
        const snapshot = await engine.snapshots.snapshot(picks[k]![0], String(final.header.id));
        for (const c of final.header.competitions[0].competitors) {
          expect(c.team.groups?.id).toBeTruthy();
          expect(snapshot?.teams[c.homeAway as 'home' | 'away']).toMatchObject({
            id: c.id,
            rank: c.rank ?? null,
            conference: { id: c.team.groups.id },
          });
        }
      }
    },
  );
});
