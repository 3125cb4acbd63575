import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GameEvent, GameSnapshot, Score } from '../../src/model/events.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type SimulatedGame } from '../../src/simulator/index.js';
import { MENS_FINAL, startDaemon } from '../cli/harness.js';
import { HAVE_FIXTURES, describeRecorded } from '../support/fixtures.js';
import { SseClient, TestClient, until, type SseMessage } from './gateway-harness.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * A spoiler delay on a recorded game replayed by the simulator, through a real daemon: a delayed
 * subscriber (WebSocket and SSE) beside an undelayed one must see, from its snapshot on, exactly
 * what the undelayed one saw `delay` seconds earlier, never anything newer, with no gap and no
 * duplicate.
 */

const DELAY_S = 2;
// Game time runs this much faster than real time: a play about every second of the test.
const SPEED = 15;
// Delivery latency allowed on a shared two-core machine, ms.
const TOLERANCE_MS = 600;

/** What a client knows of the game after a frame: its `seq` and score, from when it arrived. */
interface Step {
  at: number;
  seq: number;
  score: Score;
  kind: 'snapshot' | 'event';
}

/** Folds snapshot and event frames into the states a client showed, in arrival order. */
function steps(frames: Array<{ at: number; game?: GameSnapshot; event?: GameEvent }>): Step[] {
  const out: Step[] = [];
  let score: Score = { home: 0, away: 0 };
  for (const f of frames) {
    if (f.game) {
      score = f.game.score;
      out.push({ at: f.at, seq: f.game.seq, score, kind: 'snapshot' });
    } else if (f.event) {
      if (f.event.type === 'score.changed' || f.event.type === 'game.ended') score = f.event.data.score;
      out.push({ at: f.at, seq: f.event.seq, score, kind: 'event' });
    }
  }
  return out;
}

function wsSteps(c: TestClient, sub: string): Step[] {
  return steps(
    c.frames.flatMap((f, i) =>
      f.sub !== sub
        ? []
        : [{ at: c.receivedAt[i] ?? 0, game: f.game as GameSnapshot, event: f.event as GameEvent }],
    ),
  );
}

function sseSteps(messages: SseMessage[]): Step[] {
  return steps(
    messages.flatMap((m): Array<{ at: number; game?: GameSnapshot; event?: GameEvent }> => {
      const at = m.at ?? 0;
      if (m.event === 'snapshot') return [{ at, game: JSON.parse(m.data ?? '{}') as GameSnapshot }];
      if (m.id !== undefined) return [{ at, event: JSON.parse(m.data ?? '{}') as GameEvent }];
      return [];
    }),
  );
}

/** The newest `seq` a client had shown by time `t` (-1 before its first frame). */
const seqAt = (list: Step[], t: number): number =>
  list.reduce((seq, s) => (s.at <= t ? Math.max(seq, s.seq) : seq), -1);

/** Checks a delayed client's states against the undelayed client's, shifted by the delay. */
function expectDelayedView(delayed: Step[], live: Step[], subscribedAt: number, end: number): void {
  const [snapshot, ...events] = delayed;
  expect(snapshot?.kind).toBe('snapshot');
  // Its snapshot is the game `delay` before it subscribed, give or take the delivery latency.
  const first = snapshot as Step;
  expect(first.seq).toBeGreaterThanOrEqual(seqAt(live, subscribedAt - DELAY_S * 1000 - TOLERANCE_MS));
  // Every event after it, once, in order: no gap, no duplicate.
  expect(events.map((s) => s.seq)).toEqual(events.map((_, i) => first.seq + 1 + i));
  expect(events.every((s) => s.kind === 'event')).toBe(true);
  const liveScore = new Map(live.map((s) => [s.seq, s.score]));
  for (const s of delayed) {
    // Never newer than what the undelayed client showed `delay` earlier.
    const shownThen = seqAt(live, s.at - DELAY_S * 1000 + TOLERANCE_MS);
    expect(s.seq, `${s.kind} seq ${s.seq} at ${s.at}`).toBeLessThanOrEqual(shownThen);
    // The same state at the same `seq`.
    if (liveScore.has(s.seq)) expect(s.score, `score at seq ${s.seq}`).toEqual(liveScore.get(s.seq));
  }
  // Never further behind than the delay: each live state reached it `delay` later.
  for (const s of live) {
    const due = s.at + DELAY_S * 1000 + TOLERANCE_MS;
    if (s.at < subscribedAt - DELAY_S * 1000 || due > end) continue;
    expect(seqAt(delayed, due), `seq ${s.seq} shown live at ${s.at}`).toBeGreaterThanOrEqual(s.seq);
  }
}

describeRecorded(!HAVE_FIXTURES || !MENS_FINAL)(
  `a delayed subscriber beside an undelayed one on a replayed game`,
  () => {
    let upstream: RunningUpstream | undefined;
    let daemon: Daemon | undefined;
    let game: SimulatedGame;
    const closers: Array<{ close(): void }> = [];

    beforeAll(async () => {
      // The simulator's clock starts a third into the game and then runs with real time, on a day
      // that starts at noon Eastern (easternNoonToday): started just before Eastern midnight, the
      // skip put the game on the next day's board while the daemon's clock was still on this one.
      let skip = easternNoonToday() - Date.now();
      const base = skip;
      upstream = await startUpstream({
        replay: [MENS_FINAL?.file ?? ''],
        speed: SPEED,
        clock: { now: () => Date.now() + skip },
        logger: silentLogger,
      });
      const first = upstream.games[0];
      if (!first) throw new Error('the simulator serves no game');
      game = first;
      skip = base + (game.endAt - game.startAt) / 3;
      daemon = await startDaemon(upstream.url);
    }, 60_000);

    afterAll(async () => {
      for (const c of closers) c.close();
      await daemon?.close();
      await upstream?.close();
    });

    it('shows what the undelayed one saw `delay` earlier, from the snapshot on', async () => {
      const url = daemon?.url ?? '';
      const games = [game.id];
      // The daemon has the game once it has polled it: then it has a snapshot.
      let polled = false;
      await until(
        () => {
          void fetch(`${url}/v1/games/${game.league}/${game.id}`).then((res) => (polled ||= res.ok));
          return polled;
        },
        20_000,
        'the daemon to poll the game',
      );
      const live = await TestClient.connect(url);
      closers.push(live);
      await live.request(
        { op: 'subscribe', id: 'live', games, snapshot: true },
        (f) => f.type === 'snapshot',
      );
      const liveFrom = Date.now();
      // Long enough that `delay` before the delayed subscriber arrives, the undelayed one was there.
      await until(() => Date.now() >= liveFrom + DELAY_S * 1000 + 1_500, 10_000, 'the delay to pass');

      const delayed = await TestClient.connect(url);
      closers.push(delayed);
      const subscribedAt = Date.now();
      const sse = new SseClient(`${url}/v1/stream/sse?games=${game.id}&snapshot=1&delay=${DELAY_S}`);
      closers.push(sse);
      delayed.send({ op: 'subscribe', id: 'late', games, snapshot: true, delay: DELAY_S });
      // Watch long enough for the delayed clients to show several events logged after they came.
      await until(
        () => Date.now() >= subscribedAt + (DELAY_S + 5) * 1000,
        15_000,
        'the delayed clients to catch up',
      );
      const end = Date.now();
      const liveSteps = wsSteps(live, 'live');
      const wsDelayed = wsSteps(delayed, 'late');
      const sseDelayed = sseSteps(sse.timedMessages());
      // The game moved while the delayed clients watched: the test saw something to hold back.
      expect(seqAt(liveSteps, end) - seqAt(liveSteps, subscribedAt - DELAY_S * 1000)).toBeGreaterThanOrEqual(
        3,
      );
      expectDelayedView(wsDelayed, liveSteps, subscribedAt, end);
      expectDelayedView(sseDelayed, liveSteps, subscribedAt, end);
    });
  },
);
