import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { parseFaultSpec } from '../../src/simulator/index.js';
import { NBA, TestClock, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const MIN = 60_000;

async function liveGame() {
  const clock = new TestClock();
  const up = await start({ simulate: { games: 1, seed: 11, leagues: ['mens'] }, clock, seed: 4 });
  const game = up.games[0]!;
  const url = `${up.url}${NBA}/summary?event=${game.id}`;
  // Halfway through: plenty of revealed plays on either side of any insertion.
  clock.ms = game.startAt + (game.endAt - game.startAt) / 2;
  return { clock, up, game, summary: async () => (await getJson(url)).body };
}

const score = (body: any, side: 'home' | 'away'): number =>
  Number(body.header.competitions[0].competitors.find((c: any) => c.homeAway === side).score);

describe('the insert fault', () => {
  it('reveals a play late, mid-list, with a higher id and a lower sequence number, and keeps it', async () => {
    const { clock, up, game, summary } = await liveGame();
    const before = await summary();
    up.faults.set('insert=1');
    const after = await summary();
    up.faults.clear();
    const known = new Set((before.plays as any[]).map((p) => p.id));
    const added = (after.plays as any[]).filter((p) => !known.has(p.id));
    expect(added).toHaveLength(1);
    const late = added[0];
    const at = (after.plays as any[]).findIndex((p) => p.id === late.id);
    // In the middle: plays follow it.
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(after.plays.length - 1);
    // The highest id of the whole game (later plays included) ...
    const allIds = (game.final.plays as any[]).map((p) => BigInt(p.id));
    expect(allIds.every((id) => BigInt(late.id) > id)).toBe(true);
    // ... and a sequence number lower than the plays after it, at its predecessor's moment.
    const next = after.plays[at + 1];
    const prev = after.plays[at - 1];
    expect(Number(late.sequenceNumber)).toBeLessThan(Number(next.sequenceNumber));
    expect(late).toMatchObject({
      scoringPlay: false,
      homeScore: prev.homeScore,
      awayScore: prev.awayScore,
      period: prev.period,
    });
    // The rest of the list is untouched.
    expect((after.plays as any[]).filter((p) => p.id !== late.id)).toEqual(before.plays);

    // It stays, at its place, through the end of the game.
    clock.ms = game.endAt + MIN;
    const final = await summary();
    const i = (final.plays as any[]).findIndex((p) => p.id === late.id);
    expect(final.plays[i - 1].id).toBe(prev.id);
    expect(final.plays).toHaveLength((game.final.plays as any[]).length + 1);
  });
});

describe('the rescore fault', () => {
  it('corrects a scoring play down; the running scores after it and the game score follow', async () => {
    const { clock, up, game, summary } = await liveGame();
    const before = await summary();
    up.faults.set('rescore=1');
    const after = await summary();
    up.faults.clear();
    const changed = (after.plays as any[]).filter(
      (p, i) => JSON.stringify(p) !== JSON.stringify(before.plays[i]),
    );
    const at = (after.plays as any[]).findIndex((p) => / on review\)$/.test(p.text));
    expect(at).toBeGreaterThanOrEqual(0);
    const was = before.plays[at];
    const now = after.plays[at];
    const less = was.scoreValue - now.scoreValue;
    expect([1, 2]).toContain(less);
    const side = was.homeScore !== now.homeScore ? 'home' : 'away';
    const key = side === 'home' ? 'homeScore' : 'awayScore';
    // That play and every one after it carry a running score `less` lower; none before it changed.
    for (let i = 0; i < after.plays.length; i++) {
      const drop = before.plays[i][key] - after.plays[i][key];
      expect(drop, `play ${i}`).toBe(i >= at ? less : 0);
    }
    expect(changed.length).toBe(after.plays.length - at);
    expect(score(after, side)).toBe(score(before, side) - less);

    // The final payload keeps the correction: score, period line, same winner.
    clock.ms = game.endAt + MIN;
    const final = await summary();
    const recorded = game.final as any;
    expect(score(final, side)).toBe(score(recorded, side) - less);
    const competitors = final.header.competitions[0].competitors as any[];
    for (const c of competitors) {
      const sum = (c.linescores as any[]).reduce((n, l) => n + Number(l.displayValue), 0);
      expect(sum).toBe(Number(c.score));
    }
    const winner = (body: any) => Math.sign(score(body, 'home') - score(body, 'away'));
    expect(winner(final)).toBe(winner(recorded));
    expect(final.plays.at(-1)[key]).toBe(recorded.plays.at(-1)[key] - less);
  });

  it('is parsed from the fault spec like the other play faults', () => {
    expect(parseFaultSpec('insert=0.05,rescore=0.02,correct=0.1')).toEqual({
      insert: 0.05,
      rescore: 0.02,
      correct: 0.1,
    });
    expect(() => parseFaultSpec('rescore=2')).toThrow(InvalidOptionsError);
    expect(() => parseFaultSpec('insert=-1')).toThrow(/insert=-1 is invalid; expected a probability/);
  });
});
