/**
 * `npm run bench:push:oddities`: prints one JSON line.
 *
 * Push against FastCast's oddities, measured from outside: five copies of a held-out recorded
 * final (401772994 unless COURTSIDE_ODDITIES_GAME names another), replayed at BENCH_SPEED (default
 * 160: the game in about a minute) by a simulator with push off and published by the look-alike
 * of test/support/fastcast-lookalike.ts, one oddity per copy: none (`healthy`), operations on
 * absent odds keys in one publication of ten (`absentKeys`), `S` answered 200 with no `H` (`noH`),
 * a checkpoint wrapped `{"pl": …}` (`wrapped`), and a compressed frame of about 1 MB inflating to
 * 1 GiB before publications 15 and 50 (`bomb`; BENCH_BOMBS=0 leaves them out, for the daemon's
 * resident set without them). The look-alike reads each game every
 * BENCH_POLL_MS (250) and serves the site summary BENCH_CDN_LAG_MS (3000) behind the push
 * document. One daemon, `courtside serve` from `dist/` (built first, as users run it) in a child
 * process (so its resident set is its own), polls the site summary every second and has one WebSocket viewer.
 *
 * For each copy: plays received and lost, publication → viewer delay p50, p95 and max (ms, plays
 * published once the viewer had the game's first event), checkpoint downloads, frames,
 * subscriptions; and the daemon's peak resident set (MB).
 */
import { pushedServeArgs, startDaemonProcess } from '../test/support/daemon-process.js';
import { startLookalike } from '../test/support/fastcast-lookalike.js';
import { awaitCopies, heldOutGame, replayCopies } from '../test/support/game-copies.js';
import { anomalies, delays, quantile, watch } from '../test/support/play-viewer.js';

const SPEED = Number(process.env.BENCH_SPEED ?? 160);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 250);
const CDN_LAG_MS = Number(process.env.BENCH_CDN_LAG_MS ?? 3_000);
const BOMBS = process.env.BENCH_BOMBS !== '0';
const NAMES = ['healthy', 'absentKeys', 'noH', 'wrapped', 'bomb'] as const;

const file = heldOutGame();
if (!file) throw new Error('no recorded final found (../shared/fixtures/espn)');
const copies = await replayCopies(file, NAMES, SPEED);
const ids = copies.ids as Record<(typeof NAMES)[number], string>;
const look = await startLookalike({
  upstream: copies.sim.url,
  league: file.league === 'mens' ? 'nba' : 'wnba',
  games: [
    { gameId: ids.healthy },
    { gameId: ids.absentKeys, absentKeysEvery: 10 },
    { gameId: ids.noH, noCheckpoint: true },
    { gameId: ids.wrapped, wrappedCheckpoint: true },
    { gameId: ids.bomb, bombAt: BOMBS ? [15, 50] : [] },
  ],
  sites: ['push'],
  cdnLagMs: CDN_LAG_MS,
  pollMs: POLL_MS,
  variant: { announceCheckpoints: true },
});
const daemon = await startDaemonProcess(
  pushedServeArgs({
    upstream: look.siteUrls.push!,
    fastcastUrl: look.discoveryUrl,
    league: file.league,
    summaryIntervalMs: 1000,
  }),
  { built: true },
);
const viewer = await watch(daemon.url);
await awaitCopies(viewer, copies, CDN_LAG_MS);
const memory = daemon.memory();

const games = Object.fromEntries(
  NAMES.map((name) => {
    const id = ids[name];
    const game = look.games[id]!;
    const values = [...delays(viewer, id, game.publishedAt).values()];
    const received = viewer.received.get(id)?.size ?? 0;
    return [
      name,
      {
        plays: received,
        lost: copies.expected.get(id)!.length - received,
        anomalies: anomalies(viewer.of(id)).length,
        p50Ms: quantile(values, 0.5),
        p95Ms: quantile(values, 0.95),
        maxMs: values.length ? Math.max(...values) : null,
        frames: game.stats.frames,
        checkpointDownloads: game.stats.checkpointsServed,
        subscribes: game.stats.subscribes,
        ...(name === 'bomb' ? { bombs: game.stats.bombs } : {}),
      },
    ];
  }),
);
viewer.close();
daemon.kill();
await look.close();
await copies.close();
process.stdout.write(
  `${JSON.stringify({
    bench: 'push-oddities',
    game: file.qualifier,
    speed: SPEED,
    pollMs: POLL_MS,
    cdnLagMs: CDN_LAG_MS,
    summaryIntervalMs: 1000,
    bombs: BOMBS,
    daemonPeakRssMb: memory.peakMb,
    daemonRssMb: memory.nowMb,
    connections: look.stats.connections,
    games,
  })}\n`,
);
process.exit(0);
