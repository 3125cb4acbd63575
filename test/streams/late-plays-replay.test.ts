import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import { createClient } from '../../src/client/client.js';
import type { League } from '../../src/core/leagues.js';
import type { GameEvent, PlayRow } from '../../src/model/events.js';
import { startUpstream } from '../../src/simulator/index.js';
import { parsePlays } from '../../src/tables/index.js';
import { createEngine } from '../../streams/engine.js';
import { evaluate } from '../../workers/alerts/rules.js';
import type { Alert, GameRuleState } from '../../workers/alerts/types.js';
import { defaultAlertsConfig } from '../../workers/rules-file.js';
import { HAVE_FIXTURES, NO_FIXTURES_REASON, finishedSummaries } from '../support/fixtures.js';
import { waitFor } from '../support/wait-for.js';
import { reconstructPlays } from './helpers.js';
import { orderViolations } from './replay-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

// Real time, real sockets, as replay.test.ts: every recorded finished game replayed in about 12 s,
// polled every 100 ms, with plays entered late and scores corrected down while the games are live.
const REPLAY_MS = 12_000;
const SUMMARY_MS = 100;
const WAIT_MS = 50_000;
// Per summary response of a live game: a few late plays and rescores in each game.
const FAULTS = 'insert=0.05,rescore=0.08';

const files = finishedSummaries();
const finals = files.map((f) => JSON.parse(readFileSync(f.file, 'utf8')) as Record<string, any>);
const span = (s: Record<string, any>) => {
  const t = (s.plays as any[]).map((p) => Date.parse(p.wallclock)).filter(Number.isFinite);
  return Math.max(...t) - Math.min(...t);
};
const speed = finals.length ? Math.max(...finals.map(span)) / REPLAY_MS : 1;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const rules = defaultAlertsConfig().rules;

/** The alerts the rules fire over one game's events, evaluated in order from a fresh state. */
function alertsOf(events: readonly GameEvent[]): Alert[] {
  let state: GameRuleState | undefined;
  const alerts: Alert[] = [];
  for (const e of events) {
    const r = evaluate(state, e, rules);
    state = r.state;
    alerts.push(...r.alerts);
  }
  return alerts;
}

describe.skipIf(!HAVE_FIXTURES || files.length === 0)(
  `recorded games with plays entered late and scores corrected down ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
  () => {
    it(
      'rebuild exactly; late plays arrive as play.added after their predecessor; lower scores as corrections; alerts fire once',
      { timeout: 90_000 },
      async () => {
        const sim = await startUpstream({
          replay: files.map((f) => f.file),
          speed,
          seed: 17,
          faults: FAULTS,
        });
        cleanup.push(() => sim.close());
        const client = createClient({
          upstream: sim.url,
          timeoutMs: 400,
          retries: 1,
          retryBaseMs: 10,
          retryMaxMs: 50,
        });
        cleanup.push(() => client.close());
        const bus = createMemoryBus();
        cleanup.push(() => bus.close());
        const engine = createEngine({
          client,
          leagues: [...new Set(files.map((f) => f.league))] as League[],
          bus,
          allowFastIntervals: true,
          intervals: {
            summaryMs: SUMMARY_MS,
            scoreboardLiveMs: 200,
            scoreboardGameDayMs: 200,
            scoreboardIdleMs: 200,
            backoffMaxMs: 400,
          },
        });
        cleanup.push(() => engine.close());
        const events: GameEvent[] = [];
        engine.events$.subscribe((e) => events.push(e));
        engine.start();
        await waitFor(
          () =>
            sim.games.every(
              (g) =>
                engine.status().find((p) => p.gameId === g.id)?.state === 'stopped' &&
                events.some((e) => e.gameId === g.id && e.type === 'game.ended'),
            ),
          WAIT_MS,
          'every game to end and its poller to stop',
        );

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
