import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { deleteKeys } from '../test/support/redis.js';
import type { GameEvent, PlayRow, TeamRef } from '../src/model/events.js';
import { parseAlertsConfig } from '../workers/rules-file.js';
import { createAlertWorker } from '../workers/alerts/worker.js';
import { createEventProducer } from '../workers/producer.js';
import { createWebhookWorker } from '../workers/webhooks/worker.js';
import { DISCORD_WEBHOOK_PATH, startFakeDiscord } from '../test/workers/fakes/discord.js';
import { percentile } from './percentile.js';

/**
 * Jobs from event to webhook receipt: producer → `courtside-events` → alert worker (4-way
 * concurrency, per-game ordering, rule state in Redis) → `courtside-webhooks` → signed POST to a
 * receiver on loopback. Every event is subscribed (raw `play.added` deliveries) so each event is
 * one webhook. Two phases: a burst (throughput) and a paced stream (latency without a backlog).
 * A third phase posts alerts to a paced chat destination: a fake Discord webhook on loopback that
 * answers like Discord (a bucket of 5 requests per 2 s, `X-RateLimit-*` headers, 429 past it),
 * once paced by the bucket headers alone and once at Discord's default spacing.
 * Prints one JSON line. Needs REDIS_URL (default redis://127.0.0.1:6379).
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// 20 games of 250 events: a busy night's worth of plays, interleaved like the engine emits them.
const BURST_GAMES = 20;
const BURST_EVENTS_PER_GAME = 250;
// 100 events/s: ten times a full slate's live rate, still well under the measured throughput.
const PACED_RATE = 100;
const PACED_EVENTS = 1_000;
const CONCURRENCY = 4;
// Alerts to the paced Discord webhook: 8 games of lead changes, interleaved as on a busy night.
const PACED_ALERT_GAMES = 8;
const PACED_ALERTS_PER_GAME = 6;

const HOME: TeamRef = { id: '13', abbreviation: 'LAL' };
const AWAY: TeamRef = { id: '2', abbreviation: 'BOS' };

/** A `play.added` event of a made jumper by alternating teams; `play` overrides its fields. */
function playAdded(gameId: string, seq: number, play: Partial<PlayRow>): GameEvent {
  const row: PlayRow = {
    id: `${gameId}${seq}`,
    sequence_number: String(seq),
    text: 'Player makes jumper',
    away_score: 0,
    home_score: 0,
    scoring_play: true,
    score_value: 2,
    participants: null,
    wallclock: null,
    shooting_play: true,
    points_attempted: 2,
    short_description: null,
    type_id: '1',
    type_text: 'Jump Shot',
    period_number: 1,
    period_display_value: null,
    clock_display_value: '5:00',
    team_id: seq % 2 ? HOME.id : AWAY.id,
    coordinate_x: null,
    coordinate_y: null,
    ...play,
  };
  return {
    id: `mens:${gameId}:play.added:${row.id}`,
    type: 'play.added',
    league: 'mens',
    gameId,
    seq,
    at: new Date().toISOString(),
    teams: { home: HOME, away: AWAY },
    data: { play: row },
  };
}

function gameEvents(gameId: string, n: number): GameEvent[] {
  const events: GameEvent[] = [];
  let home = 0;
  let away = 0;
  for (let seq = 1; seq <= n; seq++) {
    if (seq % 2) home += 2;
    else away += 2;
    events.push(
      playAdded(gameId, seq, {
        away_score: away,
        home_score: home,
        participants: JSON.stringify([{ athlete: { id: String(seq % 10) } }]),
        period_number: 1 + Math.floor((seq - 1) / (n / 4)),
      }),
    );
  }
  return events;
}

/** A game whose every play after the first changes the lead: one lead-change alert per play. */
function leadChangeGame(gameId: string, plays: number): GameEvent[] {
  const events: GameEvent[] = [];
  let home = 0;
  let away = 0;
  for (let seq = 1; seq <= plays; seq++) {
    if (seq % 2) home = away + 1;
    else away = home + 1;
    events.push(
      playAdded(gameId, seq, {
        text: `Player ${seq} makes jumper`,
        away_score: away,
        home_score: home,
        score_value: 1,
        points_attempted: 1,
        period_number: 4,
      }),
    );
  }
  return events;
}

/**
 * Alerts/s from the alert worker to a paced Discord webhook: `alerts` lead changes from
 * interleaved games; `minIntervalMs` undefined is Discord's default spacing.
 */
async function pacedDestination(minIntervalMs: number | undefined, games: number, perGame: number) {
  const prefix = `courtside-bench:${randomUUID().slice(0, 8)}:`;
  const fake = await startFakeDiscord();
  const config = parseAlertsConfig({
    allowPrivateAddresses: true,
    rules: { lead_change: { fromPeriod: 1 } },
    subscribers: [
      {
        id: 'discord',
        kind: 'discord',
        url: `${fake.base}${DISCORD_WEBHOOK_PATH}`,
        ...(minIntervalMs === undefined ? {} : { minIntervalMs }),
      },
    ],
  });
  const producer = createEventProducer({ redisUrl: REDIS_URL, prefix });
  const alerts = createAlertWorker({ redisUrl: REDIS_URL, prefix, config, concurrency: CONCURRENCY });
  const webhooks = createWebhookWorker({ redisUrl: REDIS_URL, prefix, config, concurrency: 16 });
  await Promise.all([alerts.ready(), webhooks.ready()]);
  // perGame + 1 plays give perGame lead changes.
  const events = interleave(Array.from({ length: games }, (_, g) => leadChangeGame(`7${g}`, perGame + 1)));
  const expected = games * perGame;
  const t0 = performance.now();
  for (const e of events) producer.add(e);
  while (fake.delivered().length < expected) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - t0) / 1000;
  const delivered = fake.delivered();
  const span = ((delivered.at(-1)?.at ?? 0) - (delivered[0]?.at ?? 0)) / 1000;
  await producer.close();
  await alerts.close();
  await webhooks.close();
  await fake.close();
  await deleteKeys(REDIS_URL, prefix);
  return {
    spacingMs: minIntervalMs ?? 2000,
    alerts: expected,
    seconds: Math.round(seconds * 10) / 10,
    // Rate while paced: between the first and the last post.
    alertsPerSec: Math.round(((expected - 1) / span) * 100) / 100,
    rateLimited: fake.requests.filter((r) => r.status === 429).length,
  };
}

function interleave(games: GameEvent[][]): GameEvent[] {
  const out: GameEvent[] = [];
  const longest = Math.max(...games.map((g) => g.length));
  for (let i = 0; i < longest; i++) for (const g of games) if (g[i]) out.push(g[i]!);
  return out;
}

async function main(): Promise<void> {
  const prefix = `courtside-bench:${randomUUID().slice(0, 8)}:`;
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let onReceived: (() => void) | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      const start = sentAt.get(id);
      if (start !== undefined) latencies.push(performance.now() - start);
      received += 1;
      res.writeHead(200).end();
      onReceived?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const config = parseAlertsConfig({
    allowPrivateAddresses: true,
    rules: { final_score: {}, lead_change: {}, run: {} },
    subscribers: [
      { id: 'bench', url, secret: 'bench-secret-0123456789', alerts: [], events: ['play.added'] },
    ],
  });
  const producer = createEventProducer({ redisUrl: REDIS_URL, prefix });
  const alerts = createAlertWorker({ redisUrl: REDIS_URL, prefix, config, concurrency: CONCURRENCY });
  const webhooks = createWebhookWorker({ redisUrl: REDIS_URL, prefix, config, concurrency: 32 });
  await Promise.all([alerts.ready(), webhooks.ready()]);

  const until = (n: number) =>
    new Promise<void>((resolve) => {
      onReceived = () => {
        if (received >= n) resolve();
      };
      onReceived();
    });

  // Phase 1: burst.
  const burst = interleave(
    Array.from({ length: BURST_GAMES }, (_, g) => gameEvents(`5${g}`, BURST_EVENTS_PER_GAME)),
  );
  const t0 = performance.now();
  for (const e of burst) {
    sentAt.set(e.id, performance.now());
    producer.add(e);
  }
  await until(burst.length);
  const burstMs = performance.now() - t0;
  const burstLatencies = [...latencies].sort((a, b) => a - b);

  // Phase 2: paced.
  latencies.length = 0;
  const paced = interleave(Array.from({ length: 10 }, (_, g) => gameEvents(`6${g}`, PACED_EVENTS / 10)));
  const p0 = performance.now();
  for (const [i, e] of paced.entries()) {
    const due = p0 + (i * 1000) / PACED_RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sentAt.set(e.id, performance.now());
    producer.add(e);
  }
  await until(burst.length + paced.length);
  const pacedLatencies = [...latencies].sort((a, b) => a - b);

  await producer.close();
  await alerts.close();
  await webhooks.close();
  server.close();
  await deleteKeys(REDIS_URL, prefix);

  // Phase 3: a paced chat destination, by Discord's bucket headers alone, then at its default spacing.
  const byHeaders = await pacedDestination(0, PACED_ALERT_GAMES, PACED_ALERTS_PER_GAME);
  const byDefault = await pacedDestination(undefined, 2, 5);

  const round = (n: number) => Math.round(n * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'jobs',
      workerConcurrency: CONCURRENCY,
      burst: {
        events: burst.length,
        games: BURST_GAMES,
        seconds: round(burstMs / 1000),
        jobsPerSec: Math.round(burst.length / (burstMs / 1000)),
        p50Ms: round(percentile(burstLatencies, 0.5)),
        p99Ms: round(percentile(burstLatencies, 0.99)),
      },
      paced: {
        events: paced.length,
        ratePerSec: PACED_RATE,
        p50Ms: round(percentile(pacedLatencies, 0.5)),
        p99Ms: round(percentile(pacedLatencies, 0.99)),
      },
      discord: { bucket: '5 per 2 s', byHeaders, byDefault },
      node: process.version,
    })}\n`,
  );
  process.exit(0);
}

void main();
