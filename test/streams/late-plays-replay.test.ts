import { afterEach, expect, it } from 'vitest';
import type { GameEvent, PlayRow } from '../../src/model/events.js';
import { parsePlays } from '../../src/tables/index.js';
import type { Alert } from '../../workers/alerts/types.js';
import { defaultAlertsConfig } from '../../workers/rules-file.js';
import { HAVE_FIXTURES, finishedSummaries, describeRecorded } from '../support/fixtures.js';
import { evaluateAll } from '../support/alert-rules.js';
import { reconstructPlays } from './helpers.js';
import { orderViolations, replayLive } from './replay-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

// Real time, real sockets, as replay.test.ts: every recorded finished game replayed in about 12 s,
// polled every 100 ms, with plays entered late and scores corrected down while the games are live.
const REPLAY_MS = 12_000;
const SUMMARY_MS = 100;
const WAIT_MS = 50_000;
// Per summary response of a live game: a few late plays and rescores in each game.
const FAULTS = 'insert=0.05,rescore=0.08';

const files = finishedSummaries();
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const rules = defaultAlertsConfig().rules;

/** The alerts the rules fire over one game's events, evaluated in order from a fresh state. */
const alertsOf = (events: readonly GameEvent[]): Alert[] => evaluateAll(events, rules).alerts;

describeRecorded(!HAVE_FIXTURES || files.length === 0)(
  `recorded games with plays entered late and scores corrected down`,
  () => {
    it(
      'rebuild exactly; late plays arrive as play.added after their predecessor; lower scores as corrections; alerts fire once',
      { timeout: 90_000 },
      async () => {
        const { sim, events } = await replayLive({
          files,
          replayMs: REPLAY_MS,
          seed: 17,
          faults: FAULTS,
          waitMs: WAIT_MS,
          summaryMs: SUMMARY_MS,
          cleanup,
        });

        let lateSeen = 0;
        let corrections = 0;
        for (const game of sim.games) {
          const mine = events.filter((e) => e.gameId === game.id);
          const served = game.summary(Date.now()) as Record<string, any>;
          const expected: PlayRow[] = parsePlays(served);

          // The viewer's list equals the final payload's, in order, row for row.
          const rebuilt = reconstructPlays(mine);
          expect(rebuilt.map((r) => r.id)).toEqual(expected.map((r) => r.id));
          expect(rebuilt).toEqual(expected);
          // Game-clock order holds for everything but the late plays, which by nature belong to a
          // moment (even a period) already past.
          const recorded = new Set((game.final.plays as any[]).map((p) => String(p.id)));
          const isLate = (e: GameEvent) => e.type === 'play.added' && !recorded.has(e.data.play.id as string);
          expect(orderViolations(mine.filter((e) => !isLate(e)))).toEqual([]);

          // Late plays: ids the recording does not have, each added once, after its predecessor.
          expected.forEach((row, i) => {
            if (recorded.has(row.id as string)) return;
            lateSeen++;
            const added = mine.filter((e) => e.type === 'play.added' && e.data.play.id === row.id);
            expect(added, `late play ${row.id}`).toHaveLength(1);
            const event = added[0] as Extract<GameEvent, { type: 'play.added' }>;
            expect(event.data.after).toBe(expected[i - 1]?.id ?? null);
            // Out of sequence order: plays after it carry higher sequence numbers.
            const later = Math.max(...expected.slice(i + 1).map((r) => Number(r.sequence_number)));
            expect(Number(row.sequence_number)).toBeLessThan(later);
            expect([...recorded].every((id) => BigInt(row.id as string) > BigInt(id))).toBe(true);
          });

          // A score that goes down is a correction, and only such a score.
          for (const e of mine) {
            if (e.type !== 'score.changed') continue;
            const down = e.data.score.home < e.data.previous.home || e.data.score.away < e.data.previous.away;
            expect(e.data.correction === true, `score.changed seq ${e.seq}`).toBe(down);
            if (down) corrections++;
          }
          // The final score is the corrected one.
          const competitors = served.header.competitions[0].competitors as any[];
          const final = (side: string) => Number(competitors.find((c) => c.homeAway === side).score);
          expect(mine.find((e) => e.type === 'game.ended')?.data).toMatchObject({
            score: { home: final('home'), away: final('away') },
          });

          // Alert rules: each alert once, none fired by a correction or by a play entered late.
          const alerts = alertsOf(mine);
          expect(new Set(alerts.map((a) => a.id)).size).toBe(alerts.length);
          const byId = new Map(mine.map((e) => [e.id, e]));
          for (const a of alerts) {
            const cause = byId.get(a.eventId);
            expect(cause?.type, `${a.id} fired by ${cause?.type}`).not.toBe('score.changed');
            expect(cause?.type, `${a.id} fired by ${cause?.type}`).not.toBe('play.updated');
            if (cause?.type === 'play.added') expect(recorded.has(cause.data.play.id as string)).toBe(true);
          }
          // Another worker evaluating the same stream (its rule state lost) names the same alerts,
          // so the webhook idempotency keys derived from their ids dedupe them.
          expect(alertsOf(mine).map((a) => a.id)).toEqual(alerts.map((a) => a.id));
        }
        // The fault rates make both all but certain across the recorded games.
        expect(lateSeen).toBeGreaterThan(0);
        expect(corrections).toBeGreaterThan(0);
      },
    );
  },
);
