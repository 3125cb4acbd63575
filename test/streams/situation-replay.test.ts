import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { EventEnvelope, GameSnapshot } from '../../src/model/events.js';
import { createGamesRoute } from '../../src/server/routes/games.js';
import { parsePlays } from '../../src/tables/index.js';
import { isNews, situationChanges } from '../../streams/situation.js';
import { createSnapshotSource } from '../../streams/snapshot-source.js';
import { HAVE_FIXTURES, finishedSummaries, describeRecorded } from '../support/fixtures.js';
import { replayLive } from './replay-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

// Real sockets and time: the simulator replays every recorded finished game in about 8 s and the
// engine polls each every 100 ms; the games' HTTP route then serves what the engine stored.
const REPLAY_MS = 8_000;
const files = finishedSummaries();
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function boxScoreFouls(raw: Record<string, any>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const team of raw.boxscore?.players ?? []) {
    for (const group of team.statistics ?? []) {
      const at = (group.keys ?? []).indexOf('fouls');
      for (const a of group.athletes ?? []) {
        const pf = Number(a.stats?.[at]);
        if (at >= 0 && pf > 0) out[String(a.athlete.id)] = pf;
      }
    }
  }
  return out;
}

describeRecorded(!HAVE_FIXTURES || files.length === 0)(`the situation of replayed recorded games`, () => {
  it(
    'reports each change once and ends as the game did (timeouts, PF per player), served by /v1/games',
    { timeout: 90_000 },
    async () => {
      const { sim, bus, events } = await replayLive({
        files,
        replayMs: REPLAY_MS,
        seed: 7,
        waitMs: 60_000,
        cleanup,
      });

      const route = createGamesRoute({ snapshots: createSnapshotSource(bus) });
      const server: Server = createServer((req, res) => {
        void route(req, res, new URL(req.url ?? '/', 'http://localhost'));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanup.push(() => new Promise((resolve) => server.close(() => resolve())));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

      for (const game of sim.games) {
        const final = game.summary(Date.now()) as Record<string, any>;
        const mine = events.filter(
          (e): e is EventEnvelope<'situation.changed'> =>
            e.gameId === game.id && e.type === 'situation.changed',
        );
        // How many depends on how many polls the machine fits in (changes of one poll are one event).
        expect(mine.length).toBeGreaterThan(0);
        expect(mine.map((e) => e.id)).toEqual(
          mine.map((_, i) => `${game.league}:${game.id}:situation.changed:${i + 1}`),
        );
        // Each event says something the one before did not.
        for (let i = 1; i < mine.length; i++) {
          const before = (mine[i - 1] as EventEnvelope<'situation.changed'>).data.situation;
          const after = (mine[i] as EventEnvelope<'situation.changed'>).data.situation;
          expect(isNews(situationChanges(before, after)), mine[i]?.id).toBe(true);
        }

        const res = await fetch(`${base}/v1/games/${game.league}/${game.id}`);
        expect(res.status).toBe(200);
        const snapshot = (await res.json()) as GameSnapshot;
        const situation = snapshot.situation;
        if (!situation) throw new Error(`no situation served for ${game.id}`);
        // A reducer that replaces its copy on each event holds what the snapshot shows.
        const last = mine.at(-1)?.data.situation;
        expect(situation.home).toEqual(last?.home);
        expect(situation.away).toEqual(last?.away);

        const rows = parsePlays(final);
        const fouls: Record<string, number> = {};
        for (const side of ['home', 'away'] as const) {
          const team = situation[side];
          const full = rows.filter((r) => r.type_text === 'Full Timeout' && r.team_id === team.teamId);
          expect(team.timeouts.taken, `${game.id} ${side} timeouts`).toBe(full.length);
          for (const [id, p] of Object.entries(team.players)) if (p.fouls > 0) fouls[id] = p.fouls;
        }
        expect(fouls).toEqual(boxScoreFouls(final));
      }
    },
  );
});
