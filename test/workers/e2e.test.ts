import { afterEach, expect, it } from 'vitest';
import { createEspnClient } from '../../src/espn-client/client.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { createEngine, type Engine } from '../../streams/engine.js';
import type { GameEvent } from '../../src/model/events.js';
import type { Alert } from '../../workers/alerts/types.js';
import { verifySignature } from '../../workers/webhooks/signature.js';
import { finishedSummaries, HAVE_FIXTURES, loadFixture, describeRecorded } from '../support/fixtures.js';
import { getTestRedis, type TestRedis } from '../support/redis.js';
import { SECRET, startPipeline } from './pipeline.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait-for.js';

// A recorded game spans about 2.5 h of wall clock; at 1000x it plays out in about 9 s.
const SPEED = 1_000;
const redisAvailable = await getTestRedis();
// Real finished games (the round-tripped copy differs only in serialisation).
const GAMES = finishedSummaries().filter((f) => !f.qualifier.includes('roundtrip'));

interface RecordedPlay {
  id: string;
  sequenceNumber: string;
  homeScore: number;
  awayScore: number;
  period: { number: number };
}
interface RecordedSummary {
  header: {
    competitions: Array<{
      competitors: Array<{ homeAway: string; score: string; team: { abbreviation: string } }>;
    }>;
  };
  plays: RecordedPlay[];
}

/** The recorded final, and the 4th-quarter/OT lead changes counted from the plays in sequence order. */
function fromRecording(relative: string): {
  home: number;
  away: number;
  line: string;
  leadChangePlays: string[];
} {
  const summary = loadFixture<RecordedSummary>(relative);
  const competitors = summary.header.competitions[0]?.competitors ?? [];
  const team = (side: string) => competitors.find((c) => c.homeAway === side);
  const home = Number(team('home')?.score);
  const away = Number(team('away')?.score);
  const plays = [...summary.plays].sort((a, b) => Number(a.sequenceNumber) - Number(b.sequenceNumber));
  let leader: 'home' | 'away' | null = null;
  const leadChangePlays: string[] = [];
  for (const play of plays) {
    const now = play.homeScore > play.awayScore ? 'home' : play.awayScore > play.homeScore ? 'away' : null;
    if (now && leader && now !== leader && play.period.number >= 4) leadChangePlays.push(play.id);
    if (now) leader = now;
  }
  return {
    home,
    away,
    line: `${team('away')?.team.abbreviation} ${away} - ${team('home')?.team.abbreviation} ${home}`,
    leadChangePlays,
  };
}

describeRecorded(!HAVE_FIXTURES || !redisAvailable || GAMES.length === 0)(
  `replayed real games end to end`,
  () => {
    const closers: Array<() => Promise<void>> = [];
    let redis: TestRedis | undefined;
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
      await redis?.cleanup();
    });

    it.each(GAMES.map((g) => [`${g.league}/${g.suffix}__${g.qualifier}.json`, g.file] as const))(
      '%s: engine → producer → alert worker → signed webhooks',
      async (relative, file) => {
        redis = (await getTestRedis())!;
        const expected = fromRecording(relative);
        const receiver = await startReceiver();
        closers.push(receiver.close);
        const pipeline = await startPipeline(redis, {
          rules: { final_score: {}, lead_change: {} },
          subscribers: [{ id: 'bot', url: receiver.url, secret: SECRET, events: ['game.ended'] }],
        });
        closers.push(pipeline.close);

        const upstream: RunningUpstream = await startUpstream({
          replay: [file],
          speed: SPEED,
          logger: silentLogger,
        });
        closers.push(() => upstream.close());
        const client = createEspnClient({ upstream: upstream.url, logger: silentLogger });
        closers.push(() => client.close());
        const league = relative.startsWith('womens') ? 'womens' : 'mens';
        const engine: Engine = createEngine({
          client,
          leagues: [league],
          intervals: { summaryMs: 250, scoreboardLiveMs: 500 },
          allowFastIntervals: true,
          logger: silentLogger,
        });
        closers.push(() => engine.close());
        let ended: GameEvent | undefined;
        const subscription = engine.events$.subscribe((event) => {
          pipeline.producer.add(event);
          if (event.type === 'game.ended') ended = event;
        });
        closers.push(async () => subscription.unsubscribe());
        engine.start();

        await waitFor(() => ended !== undefined, 90_000, 'game.ended from the engine');
        await waitFor(
          () => pipeline.alerts.some((a) => a.rule === 'final_score'),
          30_000,
          'the final-score alert',
        );
        const alertCount = pipeline.alerts.length;
        // Every alert plus the subscribed game.ended event reaches the receiver.
        await waitFor(() => receiver.accepted().length >= alertCount + 1, 30_000, 'deliveries');

        const final = pipeline.alerts.find((a: Alert) => a.rule === 'final_score');
        expect(final?.score).toEqual({ home: expected.home, away: expected.away });
        expect(final?.text).toBe(`Final: ${expected.line}`);
        const leadChanges = pipeline.alerts.filter((a) => a.rule === 'lead_change');
        expect(leadChanges.map((a) => a.moment).sort()).toEqual([...expected.leadChangePlays].sort());

        const bodies = receiver.accepted().map((r) => {
          expect(
            verifySignature({
              secret: SECRET,
              timestamp: r.headers['x-courtside-timestamp'] as string,
              signature: r.headers['x-courtside-signature'] as string,
              body: r.body,
            }),
          ).toBe(true);
          return JSON.parse(r.body) as { kind: string; id: string; type?: string; text?: string };
        });
        expect(
          bodies
            .filter((b) => b.kind === 'alert')
            .map((b) => b.id)
            .sort(),
        ).toEqual(pipeline.alerts.map((a) => a.id).sort());
        expect(bodies.filter((b) => b.kind === 'event').map((b) => b.type)).toEqual(['game.ended']);
      },
      120_000,
    );
  },
);
