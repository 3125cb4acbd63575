import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { createDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { testDaemonConfig } from '../support/daemon-config.js';
import { waitFor } from '../support/wait-for.js';
import { maxInAnySecond } from '../support/max-in-any-second.js';

/**
 * The live budget end to end: a daemon with push off follows 40 synthetic games of the simulator
 * at a 1 s summary interval (40 requests a second wanted) under a budget of 5 a second.
 */

interface Poller {
  poller: string;
  gameId: string | null;
  state: string;
  intervalMs: number;
  effectiveIntervalMs?: number;
}
interface LiveGame {
  gameId: string;
  seq: number;
}

const GAMES = 40;
const BUDGET = 5;

let upstream: RunningUpstream | undefined;
let daemon: Daemon | undefined;
afterEach(async () => {
  await daemon?.close();
  await upstream?.close();
  daemon = undefined;
  upstream = undefined;
});

const json = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;
const summaries = (d: Daemon) =>
  json<{ pollers: Poller[] }>(`${d.url}/healthz`).then((h) =>
    h.pollers.filter((p) => p.poller === 'summary'),
  );
const live = async (d: Daemon): Promise<Map<string, number>> =>
  new Map(
    (await json<{ games: LiveGame[] }>(`${d.url}/v1/games/live`)).games.map(
      (g) => [g.gameId, g.seq] as const,
    ),
  );

describe('daemon: live budget', () => {
  it('keeps the summary requests of 40 polled games within 5 a second, every game advancing', async () => {
    upstream = await startUpstream({
      simulate: { games: GAMES, seed: 29, leagues: ['mens'], staggerMs: 0 },
      speed: 20,
      push: false,
      logger: silentLogger,
    });
    daemon = createDaemon(testDaemonConfig(upstream.url, { liveBudget: BUDGET }), {
      logger: silentLogger,
      push: null,
    });
    await daemon.start();
    const d = daemon;
    await waitFor(async () => (await live(d)).size === GAMES, 20_000, 'every game live');
    const before = await live(d);
    const isSummary = (r: { path: string }) => r.path.endsWith('/summary');
    upstream.requests.clear();
    const from = Date.now();
    // Each game is stretched to 8 s (40 games at 1 s for 5 a second): a round of them and more.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const seconds = (Date.now() - from) / 1000;
    const times = upstream.requests.entries.filter(isSummary).map((r) => r.at);
    expect(times.length / seconds).toBeLessThanOrEqual(BUDGET);
    // The budget and the half second's worth its bucket holds.
    expect(maxInAnySecond(times)).toBeLessThanOrEqual(BUDGET * 1.5);
    const after = await live(d);
    const moved = [...before].filter(([id, seq]) => (after.get(id) ?? 0) > seq);
    // Every game still in progress advanced (one may have ended meanwhile and left the list).
    expect(moved.length).toBeGreaterThanOrEqual([...after.keys()].filter((id) => before.has(id)).length);
    const pollers = await summaries(d);
    expect(pollers).toHaveLength(GAMES);
    for (const p of pollers) expect(p.effectiveIntervalMs).toBe(8000);
  }, 45_000);
});
