import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Daemon } from '../../../src/daemon/daemon.js';
import type { GameSnapshot } from '../../../src/model/events.js';
import { silentLogger } from '../../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../../src/simulator/index.js';
import { scorebugStates } from '../../../src/simulator/scorebug-states.js';
import { startDaemon } from '../../cli/harness.js';

/**
 * `/overlay/<league>/live` on a real daemon whose games are built snapshots stored on its bus:
 * nothing known yet, then a finished game, a scheduled one and two in progress; each step leads
 * where the docs say, the query kept.
 */
describe('GET /overlay/<league>/live', () => {
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  const base = scorebugStates()[0]?.snapshot as GameSnapshot;

  beforeAll(async () => {
    upstream = await startUpstream({ simulate: { games: 0, seed: 1 }, logger: silentLogger });
    daemon = await startDaemon(upstream.url);
  }, 60_000);
  afterAll(async () => {
    await daemon?.close();
    await upstream?.close();
  });

  const store = (gameId: string, state: GameSnapshot['state'], date: string): Promise<unknown> =>
    daemon!.bus.commit({ league: 'mens', gameId }, [], {
      meta: { snapshot: { ...base, league: 'mens', gameId, state, date } },
    });
  const get = async (
    path: string,
    method = 'GET',
  ): Promise<{ status: number; location: string; body: string }> => {
    const res = await fetch(`${daemon?.url ?? ''}${path}`, { redirect: 'manual', method });
    return { status: res.status, location: res.headers.get('location') ?? '', body: await res.text() };
  };

  it('says there is no game yet, on a page that looks again', async () => {
    const none = await get('/overlay/mens/live');
    expect(none.status).toBe(200);
    expect(none.body).toContain('<meta http-equiv="refresh" content="15">');
    expect(none.body).toContain("No mens game on the daemon's scoreboards yet");
  });

  it('leads to the last finished, then the next scheduled, then the first game in progress', async () => {
    await store('700000001', 'post', '2026-01-01T00:00Z');
    await store('700000002', 'post', '2026-01-02T00:00Z');
    expect((await get('/overlay/mens/live?transparent=1')).location).toBe(
      '/overlay/mens/700000002?transparent=1',
    );
    await store('700000004', 'pre', '2026-01-04T00:00Z');
    await store('700000003', 'pre', '2026-01-03T00:00Z');
    expect((await get('/overlay/mens/live')).location).toBe('/overlay/mens/700000003');
    await store('700000006', 'in', '2026-01-03T01:00Z');
    await store('700000005', 'in', '2026-01-03T00:30Z');
    const live = await get('/overlay/mens/live/lower-third?delay=30');
    expect(live.status).toBe(302);
    expect(live.location).toBe('/overlay/mens/700000005/lower-third?delay=30');
    // The other league has none of these.
    expect((await get('/overlay/womens/live')).status).toBe(200);
    // Only reads: other methods get the overlay pages' 405.
    expect((await get('/overlay/mens/live', 'POST')).status).toBe(405);
  });
});
