import { describe, expect, it } from 'vitest';
import { createPollBudget, isUrgent, URGENT_WEIGHT } from '../../streams/poll-budget.js';
import { maxInAnySecond } from '../support/max-in-any-second.js';

/** Ticks every game once per `tickMs` for `ms` of virtual time; returns each game's request times. */
function run(
  budget: ReturnType<typeof createPollBudget>,
  clock: { t: number },
  games: Array<{ id: string; urgent?: boolean; wantedMs?: number }>,
  tickMs: number,
  ms: number,
): Map<string, number[]> {
  const requests = new Map<string, number[]>(games.map((g) => [g.id, []]));
  const end = clock.t + ms;
  // Each game's ticks are offset a little, as pollers started at different moments are.
  for (let base = clock.t; base < end; base += tickMs) {
    games.forEach((g, i) => {
      clock.t = base + Math.floor((i * tickMs) / games.length);
      budget.want(g.id, g.wantedMs ?? tickMs, g.urgent ?? false);
      const grant = budget.tryRequest(g.id);
      if (grant) requests.get(g.id)!.push(clock.t + grant.waitMs);
    });
  }
  clock.t = end;
  return requests;
}

describe('poll budget', () => {
  it('does not bind on a pro night: every game keeps its interval and polls every tick', () => {
    const clock = { t: 0 };
    const budget = createPollBudget({ ratePerSecond: 30, tickMs: 3000, now: () => clock.t });
    const games = Array.from({ length: 12 }, (_, i) => ({ id: `g${i}` }));
    const requests = run(budget, clock, games, 3000, 60_000);
    for (const g of games) {
      expect(budget.effectiveMs(g.id)).toBe(3000);
      expect(requests.get(g.id)).toHaveLength(20);
    }
  });

  it('sends the 15 games of a pro night that tick together at once, as without a budget', () => {
    const budget = createPollBudget({ ratePerSecond: 30, tickMs: 3000, now: () => 0 });
    for (let i = 0; i < 15; i++) budget.want(`g${i}`, 3000, false);
    for (let i = 0; i < 15; i++) expect(budget.tryRequest(`g${i}`)).toEqual({ waitMs: 0 });
  });

  it('stretches every game evenly when the demand exceeds the budget, and keeps within it', () => {
    const clock = { t: 0 };
    const budget = createPollBudget({ ratePerSecond: 30, tickMs: 3000, now: () => clock.t });
    // 165 games at 3 s want 55 requests a second.
    const games = Array.from({ length: 165 }, (_, i) => ({ id: `g${i}` }));
    const requests = run(budget, clock, games, 3000, 120_000);
    const all = [...requests.values()].flat();
    expect(all.length / 120).toBeLessThanOrEqual(30);
    // The budget, and the half second's worth the bucket holds.
    expect(maxInAnySecond(all)).toBeLessThanOrEqual(45);
    for (const g of games) {
      // 165 / 30 = 5.5 s, rounded up to two ticks.
      expect(budget.effectiveMs(g.id)).toBe(6000);
      expect(requests.get(g.id)!.length).toBeGreaterThanOrEqual(18);
    }
  });

  it('serves urgent games first and stretches the others more, never to a stop', () => {
    const clock = { t: 0 };
    const budget = createPollBudget({ ratePerSecond: 10, tickMs: 1000, now: () => clock.t });
    const games = [
      ...Array.from({ length: 5 }, (_, i) => ({ id: `close${i}`, urgent: true })),
      ...Array.from({ length: 40 }, (_, i) => ({ id: `g${i}` })),
    ];
    const requests = run(budget, clock, games, 1000, 120_000);
    // Weights: 5 × 4 + 40 = 60 for 10 a second; an urgent game's fair share (4 × 10 / 60 = 0.67/s)
    // rounds to 2 s, a normal one's (0.17/s) to 6 s.
    expect(URGENT_WEIGHT).toBe(4);
    expect(budget.effectiveMs('close0')).toBe(2000);
    expect(budget.effectiveMs('g0')).toBe(6000);
    expect(requests.get('close0')!.length).toBeGreaterThan(requests.get('g0')!.length * 2);
    for (const g of games) expect(requests.get(g.id)!.length).toBeGreaterThan(10);
    const all = [...requests.values()].flat();
    expect(all.length / 120).toBeLessThanOrEqual(10);
  });

  it('gives an urgent game its full rate when the others can make room', () => {
    const clock = { t: 0 };
    const budget = createPollBudget({ ratePerSecond: 10, tickMs: 3000, now: () => clock.t });
    for (let i = 0; i < 60; i++) budget.want(`g${i}`, 3000, false);
    budget.want('ot', 3000, true);
    expect(budget.effectiveMs('ot')).toBe(3000);
    expect(budget.effectiveMs('g0')).toBe(9000);
  });

  it('counts a pushed game at its reconciliation interval, and a dropped game frees its share', () => {
    const clock = { t: 0 };
    const budget = createPollBudget({ ratePerSecond: 5, tickMs: 1000, now: () => clock.t });
    for (let i = 0; i < 10; i++) budget.want(`g${i}`, 1000, false);
    budget.want('pushed', 15_000, false);
    // 10 polled games share 5 a second less the pushed game's 1/15.
    expect(budget.effectiveMs('g0')).toBe(3000);
    expect(budget.effectiveMs('pushed')).toBe(15_000);
    for (let i = 5; i < 10; i++) budget.drop(`g${i}`);
    expect(budget.effectiveMs('g0')).toBe(2000);
  });

  it('refuses a request before the effective interval passed, paces the rest, knows no stranger', () => {
    const clock = { t: 0 };
    const budget = createPollBudget({ ratePerSecond: 1, tickMs: 1000, now: () => clock.t });
    budget.want('a', 1000, false);
    budget.want('b', 1000, false);
    // 2 games at 1 s for 1 a second: each is stretched to 2 s.
    expect(budget.effectiveMs('a')).toBe(2000);
    expect(budget.tryRequest('a')).toEqual({ waitMs: 0 });
    // b's first request waits for the next token, on credit.
    expect(budget.tryRequest('b')).toEqual({ waitMs: 1000 });
    clock.t = 1000;
    expect(budget.tryRequest('a')).toBeNull();
    clock.t = 2000;
    expect(budget.tryRequest('a')).toEqual({ waitMs: 0 });
    expect(budget.tryRequest('nobody')).toBeNull();
  });

  it("lets a pushed game's scheduled poll through before its interval, but not past the budget's debt", () => {
    const clock = { t: 0 };
    const budget = createPollBudget({ ratePerSecond: 2, tickMs: 1000, now: () => clock.t });
    // A pushed game: its reconciliation every 15 s is what it wants of the budget.
    budget.want('pushed', 15_000, false);
    expect(budget.tryRequest('pushed', true)).toEqual({ waitMs: 0 });
    clock.t = 1000;
    // The game ends a second later: its final corrections are due now, whatever the 15 s say.
    expect(budget.tryRequest('pushed')).toBeNull();
    expect(budget.tryRequest('pushed', true)).toEqual({ waitMs: 0 });
    // Scheduled or not, requests go on credit (2 a second) and one the bucket cannot pay for within
    // a tick is refused.
    expect(budget.tryRequest('pushed', true)).toEqual({ waitMs: 500 });
    expect(budget.tryRequest('pushed', true)).toEqual({ waitMs: 1000 });
    expect(budget.tryRequest('pushed', true)).toBeNull();
  });

  it('rejects a budget that is not a positive number', () => {
    expect(() => createPollBudget({ ratePerSecond: 0, tickMs: 1000, now: () => 0 })).toThrow(/ratePerSecond/);
  });
});

describe('isUrgent', () => {
  it('is the last regulation period under 5:00, or overtime', () => {
    expect(isUrgent('mens-college', 2, '4:59')).toBe(true);
    expect(isUrgent('mens-college', 2, '5:00')).toBe(true);
    expect(isUrgent('mens-college', 2, '5:01')).toBe(false);
    expect(isUrgent('mens-college', 1, '0:30')).toBe(false);
    expect(isUrgent('mens-college', 3, '4:00')).toBe(true);
    expect(isUrgent('mens', 3, '1:00')).toBe(false);
    expect(isUrgent('mens', 4, '1:00')).toBe(true);
    expect(isUrgent('womens', 5, '3:00')).toBe(true);
    expect(isUrgent('mens', null, null)).toBe(false);
  });
});
