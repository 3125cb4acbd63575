import { createDeflate } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Counter } from 'prom-client';
import {
  fastcastCheckpointFailures,
  fastcastMaintenance,
  fastcastNoTopic,
  fastcastOversize,
  fastcastUnknownOps,
} from '../../src/core/metrics.js';
import { createEspnClient } from '../../src/espn-client/client.js';
import {
  createFastcastClient,
  type FastcastClient,
  type FastcastClientOptions,
  type TopicLoss,
} from '../../src/espn/fastcast-client.js';
import { encodePatchPayload, gameTopic, MAX_PAYLOAD_BYTES } from '../../src/espn/fastcast-wire.js';
import type { TopicDocument } from '../../src/espn/fastcast-topic.js';
import { VirtualTime } from '../support/virtual-time.js';
import { waitFor } from '../support/wait-for.js';
import { startScript, type ScriptOptions, type ScriptServer } from './fastcast-script.js';
import { testFastcastOptions } from '../support/fastcast-test-options.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- documents are free-form JSON */

/**
 * The FastCast client against what ESPN's FastCast was seen to do that the simulator does not:
 * a subscription answered without a checkpoint, checkpoints wrapped or for another game, several
 * messages in one frame, maintenance, unknown ops, oversize payloads, a token read otherwise.
 * Real sockets on port 0 (fastcast-script.ts).
 */

const GAME = '401';
const TOPIC = gameTopic('mens', GAME);
const summary = (plays: unknown[] = []) => ({
  header: { id: GAME, competitions: [{ id: GAME, competitors: [] }] },
  plays,
  odds: [{ spread: 1 }],
});

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function counted(counter: Counter<string>, labels: Record<string, string> = {}): Promise<number> {
  const values = (await counter.get()).values;
  return values
    .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
    .reduce((sum, v) => sum + v.value, 0);
}

interface Run {
  /** The client's timers: heartbeat, backoffs, subscription waits. */
  time: VirtualTime;
  script: ScriptServer;
  client: FastcastClient;
  docs: TopicDocument[];
  losses: Array<{ reason: TopicLoss; detail: string }>;
}

async function run(script: ScriptOptions, client: Partial<FastcastClientOptions> = {}): Promise<Run> {
  const time = new VirtualTime();
  const server = await startScript({ now: () => time.now(), ...script });
  open.push(server);
  const http = createEspnClient({ upstream: server.url, timeoutMs: 2000, retries: 0, retryBaseMs: 10 });
  open.push(http);
  const docs: TopicDocument[] = [];
  const losses: Run['losses'] = [];
  const fc = createFastcastClient(
    testFastcastOptions(server.discoveryUrl, {
      userAgent: 'Mozilla/5.0 test',
      backoffBaseMs: 20,
      backoffMaxMs: 2_000,
      retryTopicMs: 200,
      subscribeTimeoutMs: 300,
      resyncLimit: { count: 1_000, windowMs: 60_000, pauseMs: 60_000 },
      fetchDocument: (request) => http.fetchDocument(request),
      scheduler: time,
      ...client,
    }),
    {
      document: (_tc, update) => void docs.push(update),
      lost: (_tc, reason, detail) => losses.push({ reason, detail }),
    },
  );
  open.unshift(fc);
  return { time, script: server, client: fc, docs, losses };
}

/** `H` for the topic, then patches numbered after it. */
function hello(s: ScriptServer) {
  return (session: { send(f: object | string): void }, topic: string): void =>
    session.send({ op: 'H', tc: topic, mid: 1, pl: s.checkpointUrl(topic) });
}

describe('FastCast client: subscriptions that bring nothing', () => {
  it('a subscription answered 200 with no H in time is "no topic": lost, asked again with backoff, and followed once an H comes', async () => {
    let answerFrom = Infinity;
    const before = await counted(fastcastNoTopic);
    const r = await run({
      checkpoint: () => summary(),
      onSubscribe: (session, topic) => {
        if (r.script.subscribes.length >= answerFrom) hello(r.script)(session, topic);
      },
    });
    r.client.subscribe(TOPIC);
    await r.time.until(
      () => r.losses.filter((l) => l.reason === 'no_topic').length >= 2,
      'two no-topic losses',
    );
    expect(r.docs).toEqual([]);
    expect(r.losses[0]!.detail).toMatch(/no checkpoint \(H\) within 0\.3 s/);
    expect(await counted(fastcastNoTopic)).toBeGreaterThanOrEqual(before + 2);
    // Asked again after a backoff: never sooner than half the base (retryTopicMs 200) after the timeout.
    const at = r.script.subscribes.map((x) => x.at);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(300 + 100 - 20);
    // The socket stays up meanwhile: one connection for every subscription.
    expect(r.script.connects).toHaveLength(1);
    answerFrom = r.script.subscribes.length + 1;
    await r.time.until(() => r.docs.length > 0, 'the checkpoint once an H comes');
    expect(r.docs[0]!.doc).toEqual(summary());
  });
});

describe('FastCast client: checkpoints are checked before use', () => {
  it('unwraps a checkpoint wrapped as {"pl": document}', async () => {
    const r = await run({
      checkpoint: () => ({ pl: summary([{ id: 'a' }]) }),
      onSubscribe: (s, t) => hello(r.script)(s, t),
    });
    r.client.subscribe(TOPIC);
    await waitFor(() => r.docs.length > 0, 10_000, 'the checkpoint');
    expect(r.docs[0]!.doc).toEqual(summary([{ id: 'a' }]));
    expect(r.losses).toEqual([]);
  });

  it.each([
    [
      'another game',
      () => ({ header: { id: '999', competitions: [{ id: '999' }] } }),
      'other_game',
      /names game 999/,
    ],
    ['no header', () => ({ pl: { odds: [] } }), 'no_header', /no header/],
    ['not an object', () => '[1,2]', 'not_object', /an array/],
  ])(
    'refuses a checkpoint of %s: the topic is lost saying why, the document never handed out',
    async (_n, body, reason, words) => {
      const before = await counted(fastcastCheckpointFailures, { reason });
      const r = await run({ checkpoint: body, onSubscribe: (s, t) => hello(r.script)(s, t) });
      r.client.subscribe(TOPIC);
      await waitFor(() => r.losses.length > 0, 10_000, 'the loss');
      expect(r.losses[0]!.reason).toBe('checkpoint_failed');
      expect(r.losses[0]!.detail).toMatch(words);
      expect(r.docs).toEqual([]);
      expect(await counted(fastcastCheckpointFailures, { reason })).toBeGreaterThan(before);
    },
  );
});

describe('FastCast client: frames', () => {
  it('a frame holding several messages is those messages, in order; entries that are not messages are dropped', async () => {
    const r = await run({
      checkpoint: () => summary(),
      onSubscribe: (session, topic) => {
        session.send({ op: 'H', tc: topic, mid: 1, pl: r.script.checkpointUrl(topic) });
        setTimeout(() => {
          const p = (mid: number, id: string) => ({
            op: 'P',
            tc: topic,
            mid,
            pl: encodePatchPayload(
              [{ op: 'add', path: '/plays/-', value: { id } }],
              Date.now(),
              mid % 2 === 0,
            ),
          });
          session.send(
            JSON.stringify([p(2, 'a'), 7, { no: 'op' }, { op: 'I', tc: topic, mid: 3, pl: '0' }, p(4, 'b')]),
          );
        }, 200);
      },
    });
    r.client.subscribe(TOPIC);
    await waitFor(() => (r.docs.at(-1)?.doc as any)?.plays?.length === 2, 10_000, 'both plays');
    expect((r.docs.at(-1)!.doc as any).plays).toEqual([{ id: 'a' }, { id: 'b' }]);
    // No mid gap: the I in the middle was read too.
    expect(r.losses).toEqual([]);
  });

  it('an unknown op is counted and ignored; the socket and the topic go on', async () => {
    const before = await counted(fastcastUnknownOps);
    const r = await run({
      checkpoint: () => summary(),
      onSubscribe: (session, topic) => {
        session.send({ op: 'Q', tc: topic, pl: 'whatever' });
        hello(r.script)(session, topic);
      },
    });
    r.client.subscribe(TOPIC);
    await waitFor(() => r.docs.length > 0, 10_000, 'the checkpoint');
    expect(await counted(fastcastUnknownOps)).toBe(before + 1);
    expect(r.client.connected).toBe(true);
    expect(r.losses).toEqual([]);
  });

  it('M (maintenance) closes the socket and reconnects later, after a longer backoff than a dropped socket', async () => {
    const before = await counted(fastcastMaintenance);
    let maintenanceAt = 0;
    const r = await run({
      checkpoint: () => summary(),
      onSubscribe: (session, topic) => {
        hello(r.script)(session, topic);
        if (r.script.sessions.length === 1)
          setTimeout(() => {
            maintenanceAt = r.time.now();
            session.send({ op: 'M' });
          }, 300);
      },
    });
    r.client.subscribe(TOPIC);
    // The M comes on the server's own (real) time; the backoff after it is the client's.
    await waitFor(() => maintenanceAt > 0 && !r.client.connected, 10_000, 'the maintenance');
    await r.time.until(() => r.script.connects.length >= 2, 'the reconnection');
    expect(await counted(fastcastMaintenance)).toBe(before + 1);
    expect(r.losses.map((l) => l.reason)).toContain('socket_closed');
    // Maintenance backoff: 10 × backoffBaseMs (20), drawn from its upper half; a drop waits 10-20 ms.
    expect(r.script.connects[1]! - maintenanceAt).toBeGreaterThanOrEqual(100);
    await r.time.until(() => r.docs.length >= 2, 'the document again');
  });

  it('a frame over 16 MiB closes the socket (counted) and the client comes back', async () => {
    const before = await counted(fastcastOversize, { kind: 'frame' });
    const r = await run({
      checkpoint: () => summary(),
      onSubscribe: (session, topic) => {
        hello(r.script)(session, topic);
        if (r.script.sessions.length === 1)
          setTimeout(
            () => session.send(JSON.stringify({ op: 'B', pl: 'x'.repeat(MAX_PAYLOAD_BYTES + 10) })),
            200,
          );
      },
    });
    r.client.subscribe(TOPIC);
    await waitFor(() => r.docs.length > 0 && !r.client.connected, 10_000, 'the oversize frame');
    await r.time.until(() => r.script.connects.length >= 2, 'the reconnection');
    expect(await counted(fastcastOversize, { kind: 'frame' })).toBe(before + 1);
    await r.time.until(() => r.docs.length >= 2, 'the document again');
  });

  it('a compressed patch inflating to 256 MiB is refused at 16 MiB: a resync, the document untouched, memory bounded', async () => {
    // 256 MiB of zeros, deflated as it streams: the test never holds the inflated bytes either.
    const bomb = await new Promise<string>((resolve, reject) => {
      const z = createDeflate();
      const parts: Buffer[] = [];
      z.on('data', (c: Buffer) => parts.push(c));
      z.on('end', () => resolve(Buffer.concat(parts).toString('base64')));
      z.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 256; i++) z.write(chunk);
      z.end();
    });
    const before = await counted(fastcastOversize, { kind: 'inflated' });
    const r = await run({
      checkpoint: () => summary([{ id: 'a' }]),
      onSubscribe: (session, topic) => {
        hello(r.script)(session, topic);
        if (r.script.subscribes.length === 1)
          setTimeout(() => {
            session.send({
              op: 'P',
              tc: topic,
              mid: 2,
              pl: JSON.stringify({ ts: Date.now(), '~c': 1, pl: bomb }),
            });
          }, 200);
      },
    });
    const rss = process.memoryUsage().rss;
    r.client.subscribe(TOPIC);
    await waitFor(() => r.losses.some((l) => l.reason === 'bad_payload'), 10_000, 'the refused payload');
    expect(process.memoryUsage().rss - rss).toBeLessThan(150 * 1024 * 1024);
    expect(r.losses.find((l) => l.reason === 'bad_payload')!.detail).toMatch(/inflates past 16 MiB/);
    expect(await counted(fastcastOversize, { kind: 'inflated' })).toBe(before + 1);
    expect(r.docs.every((d) => JSON.stringify(d.doc) === JSON.stringify(summary([{ id: 'a' }])))).toBe(true);
    await r.time.until(() => r.docs.length >= 2, 'the document from a fresh checkpoint');
  });
});

describe('FastCast client: the token as servers read it', () => {
  const TOKEN = 'ab+c/d=e==';

  it('refused with the token as given, it tries once percent-encoded, and keeps that form', async () => {
    const r = await run({
      token: () => TOKEN,
      acceptToken: (raw, token) => raw === encodeURIComponent(token),
      checkpoint: () => summary(),
      onSubscribe: (session, topic) => {
        hello(r.script)(session, topic);
        // The first session is closed by the server: the client comes back with the form that worked.
        if (r.script.sessions.length === 1) setTimeout(() => session.ws.close(), 200);
      },
    });
    r.client.subscribe(TOPIC);
    await r.time.until(() => r.docs.length > 0, 'the first document');
    await waitFor(() => !r.client.connected, 10_000, 'the first session closed');
    await r.time.until(() => r.script.connects.length >= 2 && r.docs.length >= 2, 'two sessions');
    expect(r.script.tokensTried[0]).toBe('ab%2Bc/d=e==');
    expect(r.script.tokensTried.slice(1)).toEqual(
      Array(r.script.tokensTried.length - 1).fill(encodeURIComponent(TOKEN)),
    );
    expect(r.script.refused).toBe(1);
  });

  it('a server that reads the token as given never sees it encoded; one that refuses both backs off', async () => {
    const given = await run({
      token: () => TOKEN,
      checkpoint: () => summary(),
      onSubscribe: (s, t) => hello(given.script)(s, t),
    });
    given.client.subscribe(TOPIC);
    await waitFor(() => given.docs.length > 0, 10_000, 'the checkpoint');
    expect(given.script.tokensTried).toEqual(['ab%2Bc/d=e==']);

    const none = await run({ token: () => TOKEN, acceptToken: () => false });
    none.client.subscribe(TOPIC);
    await none.time.until(() => none.script.refused >= 4, 'four refusals');
    // Each refusal of the given form is followed by one try of the encoded form, never two.
    const tried = none.script.tokensTried.slice(0, 4);
    expect(tried).toEqual([
      'ab%2Bc/d=e==',
      encodeURIComponent(TOKEN),
      'ab%2Bc/d=e==',
      encodeURIComponent(TOKEN),
    ]);
  });
});
