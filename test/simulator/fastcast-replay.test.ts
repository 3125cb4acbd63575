import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../src/core/log.js';
import {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  createCaptureWriter,
  type CaptureEntry,
} from '../../src/espn/fastcast-capture.js';
import { encodePatchPayload, type PatchOperation } from '../../src/espn/fastcast-wire.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */

/**
 * The simulator replaying hand-written captures (`pushReplay`), met by a raw FastCast client:
 * what a subscriber is sent, when, and what the site API answers meanwhile.
 */

const GAME = '401000001';
const TOPIC = `gp-basketball-nba-${GAME}`;
const ORIGIN = 'https://www.espn.com';
const dir = mkdtempSync(join(tmpdir(), 'courtside-push-replay-'));
const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function doc(state: 'in' | 'post', plays: unknown[], home: number): Record<string, unknown> {
  const side = (homeAway: string, id: string, score: number) => ({
    homeAway,
    score: String(score),
    team: { id, abbreviation: `T${id}`, displayName: `Team ${id}` },
  });
  return {
    header: {
      id: GAME,
      competitions: [
        {
          id: GAME,
          date: '2026-11-28T00:00Z',
          status: {
            period: 1,
            displayClock: '10:00',
            type: {
              state,
              name: state === 'in' ? 'STATUS_IN_PROGRESS' : 'STATUS_FINAL',
              completed: state === 'post',
            },
          },
          competitors: [side('home', '1', home), side('away', '2', 0)],
        },
      ],
    },
    plays,
  };
}

const received = (t: number, frame: unknown): CaptureEntry => ({
  t,
  kind: 'received',
  frame: JSON.stringify(frame),
});
const sent = (t: number, frame: unknown): CaptureEntry => ({ t, kind: 'sent', frame: JSON.stringify(frame) });
const patch = (t: number, mid: number, ops: PatchOperation[], op = 'P'): CaptureEntry =>
  received(t, { op, tc: TOPIC, mid, pl: encodePatchPayload(ops, 1_795_000_000_000 + t, mid % 2 === 0) });
const checkpointUrl = (n: number): string => `https://cdn.example/${TOPIC}/${n}.json`;
const play = (id: string): PatchOperation => ({ op: 'add', path: '/plays/-', value: { id } });

/** The start of every capture here: a summary, the connection, an answered subscription, a checkpoint. */
function opening(answer: number): CaptureEntry[] {
  return [
    { t: 0, kind: 'summary', body: doc('in', [], 0) },
    sent(5, { op: 'C' }),
    received(10, { op: 'C', rc: 200, hbi: 30, sid: 'recorded-sid' }),
    sent(12, { op: 'S', sid: 'recorded-sid', tc: TOPIC }),
    received(15, { op: 'S', rc: answer, tc: TOPIC, sid: 'recorded-sid' }),
  ];
}

function writeCapture(name: string, entries: CaptureEntry[]): string {
  const file = join(dir, name);
  const writer = createCaptureWriter(file, {
    format: CAPTURE_FORMAT,
    version: CAPTURE_VERSION,
    league: 'mens',
    game: GAME,
    topic: TOPIC,
    startedAt: 1_795_000_000_000,
    discoveryUrl: 'https://fastcast.example/public/websockethost',
    upstream: 'https://site.api.espn.com',
    courtside: 'test',
  });
  for (const e of entries) writer.write(e);
  writer.close();
  return file;
}

async function replay(file: string): Promise<{ up: RunningUpstream }> {
  const up = await startUpstream({ pushReplay: [file], logger: silentLogger });
  cleanup.push(() => up.close());
  return { up };
}

interface Raw {
  readonly text: string;
  readonly frame: any;
  readonly at: number;
}

/** A FastCast client that keeps every frame's text, connected and past `C`. */
async function connect(up: RunningUpstream) {
  const { ip, securePort, token } = (await (await fetch(up.fastcastUrl as string)).json()) as any;
  const ws = new WebSocket(
    `ws://${ip}:${securePort}/FastcastService/pubsub/profiles/12000?TrafficManager-Token=${token}`,
    {
      headers: { Origin: ORIGIN },
      perMessageDeflate: false,
    },
  );
  cleanup.push(() => ws.terminate());
  const frames: Raw[] = [];
  ws.on('message', (data) => {
    const text = String(data);
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      frame = undefined;
    }
    frames.push({ text, frame, at: Date.now() });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ op: 'C' }));
  const until = async (test: (f: Raw) => boolean, ms = 5_000): Promise<Raw> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = frames.find(test);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no such frame; got ${frames.map((f) => f.text).join('\n')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await until((f) => f.frame?.op === 'C');
  const topicFrames = (): Raw[] =>
    frames.filter((f) => f.frame?.op !== 'C' && f.frame?.op !== 'B' && f.frame?.op !== 'I');
  return {
    ws,
    frames,
    topicFrames,
    until,
    subscribe: () => ws.send(JSON.stringify({ op: 'S', sid: 'x', tc: TOPIC })),
  };
}

const summaryOf = async (up: RunningUpstream): Promise<any> =>
  (await fetch(`${up.url}/apis/site/v2/sports/basketball/nba/summary?event=${GAME}`)).json();
const boardOf = async (up: RunningUpstream): Promise<any> =>
  (await fetch(`${up.url}/apis/site/v2/sports/basketball/nba/scoreboard`)).json();

function healthyGame(): CaptureEntry[] {
  return [
    ...opening(200),
    received(16, { op: 'H', tc: TOPIC, mid: 1, pl: checkpointUrl(1) }),
    patch(17, 2, [play('1')], 'R'),
    { t: 30, kind: 'checkpoint', url: checkpointUrl(1), body: doc('in', [], 0) } as CaptureEntry,
    patch(300, 3, [
      play('2'),
      { op: 'replace', path: '/header/competitions/0/competitors/0/score', value: '2' },
    ]),
    received(600, { op: 'M' }),
    received(600, { op: 'B', pl: '1' }),
    received(700, { op: 'P', tc: 'gp-basketball-nba-1', mid: 9, pl: '{}' }),
    patch(900, 4, [
      { op: 'replace', path: '/header/competitions/0/status/type/state', value: 'post' },
      { op: 'replace', path: '/header/competitions/0/status/type/completed', value: true },
    ]),
    { t: 1000, kind: 'end', reason: 'game over' } as CaptureEntry,
  ];
}

describe('the simulator replaying a FastCast capture', () => {
  it('sends a subscriber the recorded answer, the checkpoint at its own URL, the catch-up, then each later frame at its recorded moment, text unchanged', async () => {
    const entries = healthyGame();
    const file = writeCapture('healthy.jsonl', entries);
    const { up } = await replay(file);
    const client = await connect(up);
    const subscribedAt = Date.now();
    client.subscribe();
    const last = await client.until((f) => f.frame?.mid === 4, 5_000);
    const texts = client.topicFrames().map((f) => f.text);
    const recorded = (e: CaptureEntry | undefined): string => (e && 'frame' in e ? e.frame : '');
    const h = JSON.parse(texts[1] as string);
    expect(h).toEqual({ op: 'H', tc: TOPIC, mid: 1, pl: `${up.url}/FastcastService/replay/${TOPIC}/0.json` });
    // Every other frame exactly as received; `B` and the other topic's frame left out.
    expect([texts[0], ...texts.slice(2)]).toEqual(
      [entries[4], entries[6], entries[8], entries[9], entries[12]].map(recorded),
    );
    expect(await (await fetch(h.pl)).json()).toEqual(doc('in', [], 0));
    // At the recorded pace: the last frame (900 ms in) as long after the subscription as after the
    // recorder's (12 ms in).
    expect(last.at - subscribedAt).toBeGreaterThanOrEqual(900 - 12);
    expect(last.at - subscribedAt).toBeLessThan(2_500);
  });

  it('stands where the recorder subscribed until a subscriber comes, then answers the summary and the scoreboard with the document the frames make at each moment, times the speed', async () => {
    const T0 = 1_800_000_000_000;
    let now = T0;
    const up = await startUpstream({
      pushReplay: [writeCapture('paced.jsonl', healthyGame())],
      speed: 2,
      clock: { now: () => now },
      logger: silentLogger,
    });
    cleanup.push(() => up.close());
    const read = async () => {
      const summary = await summaryOf(up);
      const event = (await boardOf(up)).events[0];
      return {
        plays: summary.plays.map((p: any) => p.id),
        state: summary.header.competitions[0].status.type.state,
        board: [event.id, event.status.type.state, event.competitions[0].competitors[0].score],
      };
    };
    const before = { plays: [], state: 'in', board: [GAME, 'in', '0'] };
    expect(await read()).toEqual(before);
    now = T0 + 60_000;
    expect(await read()).toEqual(before);
    // The recorder subscribed 12 ms into its capture: a subscription now is that moment.
    const client = await connect(up);
    client.subscribe();
    await client.until((f) => f.frame?.op === 'S');
    const at = async (captureMs: number) => {
      now = T0 + 60_000 + (captureMs - 12) / 2;
      return read();
    };
    expect(await at(29)).toEqual(before);
    // The checkpoint (30 ms in) with its catch-up applied.
    expect(await at(30)).toEqual({ plays: ['1'], state: 'in', board: [GAME, 'in', '0'] });
    expect(await at(298)).toEqual({ plays: ['1'], state: 'in', board: [GAME, 'in', '0'] });
    expect(await at(300)).toEqual({ plays: ['1', '2'], state: 'in', board: [GAME, 'in', '2'] });
    expect(await at(900)).toEqual({ plays: ['1', '2'], state: 'post', board: [GAME, 'post', '2'] });
    // An earlier moment asked again (a lagging CDN does) gets that moment's document back.
    expect(await at(200)).toEqual({ plays: ['1'], state: 'in', board: [GAME, 'in', '0'] });
    expect(await at(60_000)).toEqual({ plays: ['1', '2'], state: 'post', board: [GAME, 'post', '2'] });
  });

  it('answers as the capture was answered: a topic refused stays refused, a subscription answered without a checkpoint gets none', async () => {
    const refused = await replay(
      writeCapture('404.jsonl', [...opening(404), { t: 50, kind: 'end', reason: 'interrupted' }]),
    );
    const a = await connect(refused.up);
    a.subscribe();
    expect((await a.until((f) => f.frame?.op === 'S')).frame).toMatchObject({ rc: 404, tc: TOPIC });

    const silent = await replay(
      writeCapture('no-h.jsonl', [...opening(200), { t: 50, kind: 'end', reason: 'time limit' }]),
    );
    const b = await connect(silent.up);
    b.subscribe();
    expect((await b.until((f) => f.frame?.op === 'S')).frame).toMatchObject({ rc: 200 });
    await new Promise((r) => setTimeout(r, 400));
    expect([...a.topicFrames(), ...b.topicFrames()].map((f) => f.frame.op)).toEqual(['S', 'S']);
  });

  it('gives a subscriber that subscribes again the checkpoint the recorder got when it did, and one that does not the live frames only', async () => {
    const entries = [
      ...opening(200),
      received(16, { op: 'H', tc: TOPIC, mid: 1, pl: checkpointUrl(1) }),
      { t: 20, kind: 'checkpoint', url: checkpointUrl(1), body: doc('in', [], 0) } as CaptureEntry,
      patch(200, 2, [play('1')]),
      // mid 3 lost: the recorder subscribed again and was given a fresh checkpoint and its catch-up.
      patch(300, 4, [play('2')]),
      sent(310, { op: 'S', sid: 'recorded-sid', tc: TOPIC }),
      received(312, { op: 'S', rc: 200, tc: TOPIC, sid: 'recorded-sid' }),
      received(313, { op: 'H', tc: TOPIC, mid: 5, pl: checkpointUrl(2) }),
      patch(314, 6, [play('3')], 'R'),
      {
        t: 330,
        kind: 'checkpoint',
        url: checkpointUrl(2),
        body: doc('in', [{ id: '1' }, { id: 'x' }], 0),
      } as CaptureEntry,
      patch(600, 7, [play('4')]),
      { t: 700, kind: 'end', reason: 'time limit' } as CaptureEntry,
    ];
    const { up } = await replay(writeCapture('resync.jsonl', entries));
    const [again, stays] = [await connect(up), await connect(up)];
    again.subscribe();
    stays.subscribe();
    await again.until((f) => f.frame?.mid === 4);
    again.subscribe();
    await again.until((f) => f.frame?.mid === 7);
    await stays.until((f) => f.frame?.mid === 7);
    const ops = (c: typeof again): string[] =>
      c.topicFrames().map((f) => `${f.frame.op}${f.frame.mid ?? ''}`);
    expect(ops(again)).toEqual(['S', 'H1', 'P2', 'P4', 'S', 'H5', 'R6', 'P7']);
    expect(ops(stays)).toEqual(['S', 'H1', 'P2', 'P4', 'P7']);
    const second = again.topicFrames().find((f) => f.frame.mid === 5)?.frame.pl as string;
    expect(second).toBe(`${up.url}/FastcastService/replay/${TOPIC}/1.json`);
    expect((await (await fetch(second)).json()).plays).toEqual([{ id: '1' }, { id: 'x' }]);
  });

  it('refuses a file that is not a capture, naming the option and the file', async () => {
    await expect(
      startUpstream({ pushReplay: [join(dir, 'missing.jsonl')], logger: silentLogger }),
    ).rejects.toThrow(/pushReplay: cannot read .*missing\.jsonl/);
    await expect(
      startUpstream({ pushReplay: [writeCapture('empty.jsonl', [])], logger: silentLogger }),
    ).rejects.toThrow(/pushReplay: the capture of gp-basketball-nba-401000001 holds no document/);
    await expect(
      startUpstream({
        pushReplay: [writeCapture('off.jsonl', opening(200))],
        push: false,
        logger: silentLogger,
      }),
    ).rejects.toThrow(/pushReplay: a capture is replayed over FastCast; expected push on/);
  });
});
