import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../src/bus/memory.js';
import type { GameSnapshot } from '../../src/model/events.js';
import { createFirstPaint } from '../../src/server/overlay-first-paint.js';
import { parsePlays } from '../../src/tables/index.js';
import { diffSummary } from '../../streams/game-diff.js';
import { fullDelta, newGameState, type GameDiffState } from '../../streams/diff-state.js';
import type { RawPlay } from '../../streams/play-fingerprint.js';
import { createSnapshotSource } from '../../streams/snapshot-source.js';
import { rawPlay, summary } from '../streams/helpers.js';

/**
 * The snapshot written into a scorebug page: the game as it is, or, behind a spoiler delay, as it
 * stood `delay` seconds ago with the clock of its newest play then. Two polls of a game are
 * committed a minute apart on a memory bus with a virtual clock, as the engine commits them.
 */
const T0 = Date.UTC(2025, 0, 1, 1, 0);
const KEY = { league: 'mens' as const, gameId: '401' };

const at = (n: number, clock: string, home: number) =>
  rawPlay(n, { clock: { displayValue: clock }, homeScore: home, awayScore: 0 });
const live = (plays: ReturnType<typeof rawPlay>[], home: number, clock: string) =>
  summary({ state: 'in', period: 1, clock, home, away: 0, plays });

async function twoPolls(added = 2) {
  let now = T0;
  const bus = createMemoryBus({ now: () => now });
  const state: GameDiffState = newGameState('mens', KEY.gameId);
  const commit = async (raw: unknown) => {
    const d = diffSummary(state, raw, {
      now,
      toRows: (plays: readonly RawPlay[]) => parsePlays({ plays }),
      where: 'mens_summary?event=401',
    });
    if (d.kind === 'stale') throw new Error('stale');
    d.apply();
    await bus.commit(KEY, d.events, fullDelta(state));
  };
  const first = [at(1, '11:40', 0), at(2, '11:20', 2)];
  await commit(live(first, 2, '11:15'));
  now = T0 + 60_000;
  const more = Array.from({ length: added }, (_, i) =>
    at(3 + i, `10:${String(50 - i).padStart(2, '0')}`, 5 + i),
  );
  await commit(live([...first, ...more], 5 + added - 1, '10:25'));
  now = T0 + 70_000;
  const paint = createFirstPaint(createSnapshotSource(bus), bus, () => now);
  return { paint };
}

describe('the first paint of a scorebug page', () => {
  it('without a delay: the current snapshot', async () => {
    const { paint } = await twoPolls();
    const snap = (await paint('mens', KEY.gameId, 0)) as GameSnapshot;
    expect(snap.score.home).toBe(6);
    expect(snap.clock).toBe('10:25');
  });

  it('with a delay: the game as it stood then, with the clock of its newest play', async () => {
    const { paint } = await twoPolls();
    // 70 s after the first poll, 30 s back is after it and before the second.
    const snap = (await paint('mens', KEY.gameId, 30)) as GameSnapshot;
    expect(snap.score.home).toBe(2);
    expect(snap.recentPlays.map((p) => p.id)).toEqual(['90001', '90002']);
    expect(snap.clock).toBe('11:20');
    // Further back than the first poll: the game before its first event.
    const before = (await paint('mens', KEY.gameId, 90)) as GameSnapshot;
    expect(before.seq).toBe(0);
    expect(before.recentPlays).toEqual([]);
  });

  it('with a delay longer than its last 20 plays reach: the clock of the newest play then', async () => {
    // 25 plays in the second poll push every play of the first out of the snapshot's 20.
    const { paint } = await twoPolls(25);
    const snap = (await paint('mens', KEY.gameId, 30)) as GameSnapshot;
    expect(snap.recentPlays).toEqual([]);
    expect(snap.score.home).toBe(2);
    expect(snap.clock).toBe('11:20');
  });

  it('nothing for a game the daemon does not hold', async () => {
    const { paint } = await twoPolls();
    expect(await paint('mens', '999', 0)).toBeUndefined();
    expect(await paint('womens', KEY.gameId, 30)).toBeUndefined();
  });
});
