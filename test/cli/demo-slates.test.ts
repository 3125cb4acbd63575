import { afterEach, describe, expect, it } from 'vitest';
import { cycleSlates } from '../../src/cli/demo-slates.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type SimulatedGame } from '../../src/simulator/index.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The demo's slates on the real simulator, fast: a synthetic game at 5000x lasts a couple of
 * seconds, and each new slate tips off at once.
 */
describe('cycleSlates', () => {
  let upstream: RunningUpstream | undefined;
  let stop: (() => void) | undefined;
  afterEach(async () => {
    stop?.();
    await upstream?.close();
  });

  it('lists a new slate with new ids when the last game ends, and serves the last two slates only', async () => {
    upstream = await startUpstream({
      logger: silentLogger,
      simulate: { games: 2, seed: 40, staggerMs: 1_000 },
      speed: 5_000,
    });
    const slates: Array<{ slate: number; games: readonly SimulatedGame[]; startAt: number }> = [
      { slate: 1, games: [...upstream.games], startAt: 0 },
    ];
    const running = upstream;
    stop = cycleSlates({
      upstream: running,
      games: 2,
      seed: 40,
      staggerMs: 1_000,
      leadMs: 0,
      onSlate: (slate, games, startAt) => {
        // Told when the slate before has ended, every game of it.
        const before = slates.at(-1);
        for (const g of before?.games ?? []) expect(g.endAt).toBeLessThanOrEqual(Date.now());
        slates.push({ slate, games, startAt });
      },
    });
    await waitFor(() => slates.length >= 3, 60_000, 'three slates');
    stop();

    const ids = slates.map((s) => s.games.map((g) => g.id));
    expect(ids.map((s) => s.length)).toEqual([2, 2, 2]);
    // Each slate its own seed: ids never repeat.
    expect(new Set(ids.flat()).size).toBe(6);
    expect(ids[1]).toEqual(['900041000', '900041001']);
    expect(slates.map((s) => s.slate)).toEqual([1, 2, 3]);
    // The slate before last is no longer served; the last two are.
    const served = running.games.map((g) => g.id);
    expect(served).toEqual([...(ids[1] ?? []), ...(ids[2] ?? [])]);
    const gone = await fetch(
      `${running.url}/apis/site/v2/sports/basketball/nba/summary?event=${ids[0]?.[0]}`,
    );
    expect(gone.status).toBe(404);
  }, 90_000);
});
