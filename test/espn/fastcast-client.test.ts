import { afterEach, describe, expect, it } from 'vitest';
import {
  checkCheckpointUrl,
  createFastcastClient,
  type FastcastClient,
  type ResyncLimit,
  type TopicLoss,
} from '../../src/espn/fastcast-client.js';
import { createEspnClient } from '../../src/espn-client/client.js';
import { gameTopic } from '../../src/espn/fastcast-wire.js';
import type { DocumentRequest } from '../../src/espn/http.js';
import type { TopicDocument } from '../../src/espn/fastcast-topic.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { BROWSER_AGENT as BROWSER, testFastcastOptions } from '../support/fastcast-test-options.js';
import { VirtualTime } from '../support/virtual-time.js';
import { waitFor } from '../support/wait-for.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

class Clock {
  ms = Date.UTC(2025, 0, 15, 0, 10);
  now = (): number => this.ms;
}

/**
 * `time`: the client's timers run on it (virtual time) and the simulator announces ESPN's 30 s
 * heartbeat, since its keep-alives come in real time; without it, both run on the wall clock.
 */
async function setup(
  resyncLimit?: ResyncLimit,
  time?: VirtualTime,
): Promise<{
  up: RunningUpstream;
  clock: Clock;
  client: FastcastClient;
  topic: string;
  docs: TopicDocument[];
  losses: TopicLoss[];
  checkpoints: DocumentRequest[];
  latest: () => any;
  expected: () => any;
  advance: () => Promise<void>;
}> {
  const clock = new Clock();
  const up = await startUpstream({
    clock,
    simulate: { games: 1, seed: 3 },
    fastcast: { hbiSeconds: time ? 30 : 0.4 },
  });
  open.push(up);
  const game = up.games[0]!;
  const topic = gameTopic(game.league, game.id);
  clock.ms += 10 * 60_000;
  const docs: TopicDocument[] = [];
  const losses: TopicLoss[] = [];
  const checkpoints: DocumentRequest[] = [];
  const http = createEspnClient({ upstream: up.url, timeoutMs: 2000, retries: 1, retryBaseMs: 10 });
  open.push(http);
  const client = createFastcastClient(
    testFastcastOptions(up.fastcastUrl as string, {
      // The faults below are set for a while at a time: each may resync a few times.
      resyncLimit: resyncLimit ?? { count: 1_000, windowMs: 60_000, pauseMs: 60_000 },
      ...(time ? { scheduler: time } : {}),
      fetchDocument: (request) => {
        checkpoints.push(request);
        return http.fetchDocument(request);
      },
    }),
    {
      document: (tc, update) => {
        expect(tc).toBe(topic);
        docs.push(update);
      },
      lost: (tc, reason) => {
        expect(tc).toBe(topic);
        losses.push(reason);
      },
    },
  );
  open.unshift(client);
  const expected = (): any => JSON.parse(game.summaryText(clock.ms));
  const latest = (): any => docs[docs.length - 1]?.doc;
  const advance = async (): Promise<void> => {
    clock.ms += 120_000;
    const matches = (): boolean => JSON.stringify(latest()) === JSON.stringify(expected());
    const what = 'the pushed document to match the game';
    if (time) await time.until(matches, what);
    else await waitFor(matches, 10_000, what);
  };
  return { up, clock, client, topic, docs, losses, checkpoints, latest, expected, advance };
}

describe('FastCast client against the simulator', () => {
  it('subscribes through discovery, loads the checkpoint and follows the patches', async () => {
    const s = await setup();
    s.client.subscribe(s.topic);
    await waitFor(() => s.docs.length > 0, 10_000, 'the checkpoint');
    expect(s.docs[0]!.patches).toBe(0);
    expect(s.latest()).toEqual(s.expected());
    for (let i = 0; i < 5; i++) await s.advance();
    expect(s.docs.some((d) => d.patches > 0 && typeof d.ts === 'number')).toBe(true);
    expect(s.client.connected).toBe(true);
    expect(s.losses).toEqual([]);
    // The checkpoint came through the HTTP client, as FastCast's pages fetch it: its agent and origin.
    expect(s.checkpoints.length).toBeGreaterThan(0);
    for (const c of s.checkpoints) {
      expect(c.name).toBe('fastcast_checkpoint');
      expect(c.url.startsWith(new URL(s.up.fastcastUrl as string).origin)).toBe(true);
      expect(c.headers).toMatchObject({ 'User-Agent': BROWSER, Origin: 'https://www.espn.com' });
    }
  });

  it('a lost frame or a patch that does not apply resyncs from a fresh checkpoint; the document is never half-patched', async () => {
    const s = await setup();
    s.client.subscribe(s.topic);
    await waitFor(() => s.docs.length > 0, 10_000, 'the checkpoint');
    s.up.faults.set('lostframe=1');
    s.clock.ms += 120_000;
    // The next frame of the topic (a keep-alive at the latest) shows the gap.
    await waitFor(() => s.losses.includes('mid_gap'), 10_000, 'the gap');
    s.up.faults.set('');
    await s.advance();
    const before = s.latest();
    const frozen = JSON.stringify(before);
    s.up.faults.set('badpatch=1');
    s.clock.ms += 120_000;
    await waitFor(() => s.losses.includes('bad_patch'), 10_000, 'the bad patch');
    expect(JSON.stringify(before)).toBe(frozen);
    s.up.faults.set('');
    await s.advance();
    // Each resync downloaded a fresh checkpoint.
    expect(s.checkpoints.length).toBeGreaterThanOrEqual(3);
  });

  it('a topic that keeps resyncing is left to polling for a pause, then followed again', async () => {
    const time = new VirtualTime();
    const s = await setup({ count: 3, windowMs: 10_000, pauseMs: 1_500 }, time);
    s.client.subscribe(s.topic);
    await time.until(() => s.docs.length > 0, 'the checkpoint');
    s.up.faults.set('badpatch=1');
    // The game goes on: every new version is a patch that does not apply.
    await time.until(() => {
      s.clock.ms += 20_000;
      return s.losses.includes('resync_storm');
    }, 'the pause');
    expect(s.losses.filter((l) => l === 'bad_patch')).toHaveLength(3);
    // Paused: no checkpoint is asked for, whatever the topic publishes meanwhile.
    s.up.faults.set('');
    const checkpoints = s.checkpoints.length;
    const docs = s.docs.length;
    s.clock.ms += 120_000;
    await time.advance(800);
    expect(s.checkpoints.length).toBe(checkpoints);
    expect(s.docs.length).toBe(docs);
    // After the pause the topic is subscribed again and its document is current.
    await time.until(() => s.checkpoints.length > checkpoints, 'a checkpoint after the pause');
    await s.advance();
    expect(s.client.connected).toBe(true);
  });

  it('a dropped socket, a silent socket, an expired token and a topic 404 end in the document again', async () => {
    // Silence is noticed after twice the heartbeat of virtual time, the backoffs likewise.
    const time = new VirtualTime();
    const s = await setup(undefined, time);
    s.client.subscribe(s.topic);
    await time.until(() => s.docs.length > 0, 'the checkpoint');
    for (const fault of ['dropsocket', 'silentsocket']) {
      s.up.faults.set(`${fault}=1`);
      s.clock.ms += 120_000;
      await time.until(() => s.losses.includes('socket_closed'), `${fault} noticed`);
      s.up.faults.set('expiredtoken=1');
      await time.advance(150);
      s.up.faults.set('topic404=0.5');
      await time.until(() => s.client.connected, 'a new connection');
      s.up.faults.set('');
      await s.advance();
      s.losses.length = 0;
    }
  });
});

describe('checkpoint URLs', () => {
  it('must be https when FastCast is reached over https; other schemes are the download’s to refuse', () => {
    expect(() => checkCheckpointUrl(true, 'https://fcast.espncdn.com/cp/1')).not.toThrow();
    expect(() => checkCheckpointUrl(false, 'http://127.0.0.1:8080/cp/1')).not.toThrow();
    expect(() => checkCheckpointUrl(false, 'https://cdn.example/cp/1')).not.toThrow();
    expect(() => checkCheckpointUrl(true, 'http://fcast.espncdn.com/cp/1')).toThrow(
      /not https:\/\/ although/,
    );
    // Over TLS nothing but https passes; in the clear, getDocument refuses them (http-documents.test.ts).
    for (const url of ['ftp://cdn.example/cp', '/relative/cp', 'javascript:alert(1)'])
      expect(() => checkCheckpointUrl(true, url)).toThrow(/not https:\/\//);
  });
});
