import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkResync,
  documentArrived,
  feedOf,
  fellBack,
  initialPushHealth,
  pollDue,
  reconcileOverdue,
  reconciled,
  resyncing,
  wantReconcile,
  type PushHealth,
  type PushHealthName,
} from '../../streams/push-health.js';

const at = (h: PushHealth, ms: number): PushHealth => documentArrived(h, ms, true);

describe('push health', () => {
  it('polling → push on the first document; polled at the normal interval until then', () => {
    const h = initialPushHealth(0);
    expect(h.name).toBe('polling');
    expect(pollDue(h, 1000, 0, 15_000)).toBe(true);
    const p = at(h, 100);
    expect(p).toMatchObject({ name: 'push', since: 100, reason: 'checkpoint', reconcileNow: false });
    expect(feedOf(p)).toBe('push');
  });

  it('push: the summary is polled only every reconcileMs', () => {
    const p = reconciled(at(initialPushHealth(0), 0));
    expect(pollDue(p, 14_999, 0, 15_000)).toBe(false);
    expect(pollDue(p, 15_000, 0, 15_000)).toBe(true);
    expect(pollDue(p, 1, null, 15_000)).toBe(true);
    expect(documentArrived(p, 500, false)).toMatchObject({ name: 'push', since: 0 });
  });

  it('push → resyncing on a mid gap or a failed patch, with a reconciliation poll at once', () => {
    const r = resyncing(reconciled(at(initialPushHealth(0), 0)), 200, 'mid gap');
    expect(r).toMatchObject({ name: 'resyncing', since: 200, reason: 'mid gap', reconcileNow: true });
    expect(feedOf(r)).toBe('polling');
    expect(pollDue(r, 201, 200, 15_000)).toBe(true);
  });

  it('resyncing → push on the fresh checkpoint, which asks for a reconciliation poll', () => {
    const r = reconciled(resyncing(at(initialPushHealth(0), 0), 200, 'bad patch'));
    const p = documentArrived(r, 300, true);
    expect(p).toMatchObject({ name: 'push', since: 300, reconcileNow: true });
    expect(reconciled(p).reconcileNow).toBe(false);
  });

  it('push stays push on a checkpoint that comes unasked, with no reconciliation poll (no loss preceded it)', () => {
    const p = reconciled(at(initialPushHealth(0), 0));
    const again = documentArrived(p, 400, true);
    expect(again).toMatchObject({ name: 'push', since: 0, reconcileNow: false });
    expect(pollDue(again, 401, 0, 15_000)).toBe(false);
  });

  it('resyncing → fallen-back when no document came within the grace', () => {
    const r = resyncing(at(initialPushHealth(0), 0), 200, 'mid gap');
    expect(checkResync(r, 1200, 1000)).toBe(r);
    expect(checkResync(r, 1201, 1000)).toMatchObject({
      name: 'fallen-back',
      since: 1201,
      reason: 'resync timed out',
    });
  });

  it('push → fallen-back when the socket closes or the topic is unknown; back to push on a document', () => {
    const f = fellBack(at(initialPushHealth(0), 0), 50, 'socket closed');
    expect(f).toMatchObject({ name: 'fallen-back', since: 50, reason: 'socket closed', reconcileNow: true });
    expect(pollDue(reconciled(f), 51, 50, 15_000)).toBe(true);
    expect(documentArrived(f, 90, true)).toMatchObject({ name: 'push', since: 90 });
  });

  it('polling stays polling when push reports a loss before any document, with the loss as its reason', () => {
    const h = initialPushHealth(0);
    // Still polling, saying why push does not feed it; the same report twice changes nothing.
    const f = fellBack(h, 10, 'topic 404');
    expect(f).toEqual({ ...h, reason: 'topic 404' });
    expect(fellBack(f, 20, 'topic 404')).toBe(f);
    expect(resyncing(h, 10, 'mid gap')).toEqual({ ...h, reason: 'mid gap', reconcileNow: true });
  });

  it('a game that ended asks for its confirming polls at the normal interval', () => {
    const p = reconciled(at(initialPushHealth(0), 0));
    expect(pollDue(wantReconcile(p), 1, 0, 15_000)).toBe(true);
  });
});

/**
 * Whatever push reports and whenever, a live game is never left without a summary poll for
 * longer than one summary interval plus the reconciliation interval: the poller ticks every
 * `summaryMs` and, at each tick, diffs a pending pushed document unless the poll is overdue, or
 * else checks the resync grace and asks `pollDue` (game-document.ts). Events come from pushed
 * documents or from polls; with the polls so bounded, no state of the push client (whatever
 * documents it hands out, or none) can keep a game's events away longer.
 */
describe('push health bounds the wait for a poll in every state', () => {
  const SUMMARY_MS = 1_000;
  const RECONCILE_MS = 15_000;
  type Report = 'checkpoint' | 'patch' | 'resync' | 'fallback' | 'ended' | 'none';
  const report = fc.constantFrom<Report>('checkpoint', 'patch', 'resync', 'fallback', 'ended', 'none');
  // `pushing`: a pushed document is pending at every tick that follows (patches faster than ticks).
  const step = fc.record({
    report,
    atMs: fc.integer({ min: 0, max: SUMMARY_MS - 1 }),
    quietTicks: fc.nat(40),
    pushing: fc.boolean(),
  });

  it('holds for any sequence of reports, pushed documents pending at every tick or not, and every state is visited', () => {
    const visited = new Set<PushHealthName>();
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        let h = initialPushHealth(0);
        let lastPollAt: number | null = null;
        let tick = 0;
        let longest = 0;
        let pushing = false;
        const runTick = (): void => {
          const now = tick * SUMMARY_MS;
          tick++;
          // A pending pushed document is diffed instead of a poll, unless the poll is overdue.
          const diffsPushed =
            pushing && h.name === 'push' && !reconcileOverdue(h, now, lastPollAt, RECONCILE_MS, SUMMARY_MS);
          if (!diffsPushed) {
            h = checkResync(h, now, SUMMARY_MS);
            if (pollDue(h, now, lastPollAt, RECONCILE_MS)) {
              lastPollAt = now;
              h = reconciled(h);
            }
          }
          visited.add(h.name);
          longest = Math.max(longest, now - (lastPollAt ?? 0));
        };
        for (const s of steps) {
          // A report between two ticks, then some ticks with nothing new from push.
          const at = Math.max(0, (tick - 1) * SUMMARY_MS + s.atMs);
          if (s.report === 'checkpoint') h = documentArrived(h, at, true);
          else if (s.report === 'patch') h = documentArrived(h, at, false);
          else if (s.report === 'resync') h = resyncing(h, at, 'mid gap');
          else if (s.report === 'fallback') h = fellBack(h, at, 'no topic');
          else if (s.report === 'ended') h = wantReconcile(h);
          visited.add(h.name);
          pushing = s.pushing;
          runTick();
          for (let i = 0; i < s.quietTicks; i++) runTick();
        }
        expect(longest).toBeLessThanOrEqual(SUMMARY_MS + RECONCILE_MS);
      }),
      { numRuns: 300, seed: 35 },
    );
    expect([...visited].sort()).toEqual(['fallen-back', 'polling', 'push', 'resyncing']);
  });

  it('a poll comes before a pending pushed document only once it is overdue by a summary interval', () => {
    const p = reconciled(at(initialPushHealth(0), 0));
    expect(reconcileOverdue(p, 15_999, 0, 15_000, 1_000)).toBe(false);
    expect(reconcileOverdue(p, 16_000, 0, 15_000, 1_000)).toBe(true);
    // Never polled since push began: counted from then.
    expect(reconcileOverdue(p, 16_000, null, 15_000, 1_000)).toBe(true);
    expect(reconcileOverdue(initialPushHealth(0), 99_000, 0, 15_000, 1_000)).toBe(false);
  });
});
