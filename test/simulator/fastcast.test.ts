import { connect } from 'node:net';
import fjp from 'fast-json-patch';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  decodePatchPayload,
  gameTopic,
  readFrame,
  type FastcastFrame,
} from '../../src/espn/fastcast-wire.js';
import { parseFaultSpec } from '../../src/simulator/faults.js';
import type { RunningUpstream } from '../../src/simulator/index.js';
import { NBA, TestClock, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const ORIGIN = 'https://www.espn.com';

async function discover(up: RunningUpstream): Promise<{ ip: string; securePort: number; token: string }> {
  const { status, body } = await getJson(up.fastcastUrl as string);
  expect(status).toBe(200);
  return body;
}

/** A socket with its frames gathered, and a wait for a frame that matches. */
async function open(up: RunningUpstream, headers: Record<string, string> = { Origin: ORIGIN }) {
  const { ip, securePort, token } = await discover(up);
  const ws = new WebSocket(
    `ws://${ip}:${securePort}/FastcastService/pubsub/profiles/12000?TrafficManager-Token=${token}`,
    { headers, perMessageDeflate: false },
  );
  const frames: FastcastFrame[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    frames.push(readFrame(String(data), 'test'));
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const waitFor = async (test: (f: FastcastFrame) => boolean, ms = 5000): Promise<FastcastFrame> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = frames.find(test);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no frame matched; got ${JSON.stringify(frames.map((f) => f.op))}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 50);
      });
    }
  };
  const send = (frame: unknown): void => ws.send(JSON.stringify(frame));
  return { ws, frames, waitFor, send };
}

/** Sends a raw upgrade request and returns the raw answer. */
function rawUpgrade(up: RunningUpstream, token: string, lines: string[]): Promise<string> {
  const { hostname, port } = new URL(up.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        [
          `GET /FastcastService/pubsub/profiles/12000?TrafficManager-Token=${token} HTTP/1.1`,
          ...lines,
          '',
          '',
        ].join('\r\n'),
      );
    });
    let text = '';
    socket.on('data', (d) => {
      text += String(d);
      // A refusal ends the connection; an accepted upgrade keeps it open: its head is enough.
      if (text.startsWith('HTTP/1.1 101') && text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

/** `doc` with the patches of `frames` applied in turn (each to a copy). */
function applyFrames(doc: any, frames: readonly FastcastFrame[]): any {
  return frames.reduce(
    (d, f) =>
      fjp.applyPatch(d, decodePatchPayload(f.pl as string, 'test').patch as any, true, false).newDocument,
    doc,
  );
}

/** A synthetic game ten minutes in, and a socket connected to the simulator's FastCast (`C` answered). */
async function connected() {
  const clock = new TestClock();
  const up = await start({ clock, simulate: { games: 1, seed: 3 }, fastcast: { hbiSeconds: 0.3 } });
  const game = up.games[0]!;
  clock.advance(10 * 60_000);
  const s = await open(up);
  s.send({ op: 'C' });
  const c = await s.waitFor((f) => f.op === 'C');
  return { clock, up, game, topic: gameTopic(game.league, game.id), s, c };
}

describe('FastCast in the simulator', () => {
  it('takes the push faults in the --faults syntax; cdnlag is milliseconds', () => {
    expect(
      parseFaultSpec(
        'lostframe=0.1,badpatch=0.05,dropsocket=0.01,topic404=0.2,expiredtoken=0.1,silentsocket=0.01,cdnlag=3000',
      ),
    ).toEqual({
      lostframe: 0.1,
      badpatch: 0.05,
      dropsocket: 0.01,
      topic404: 0.2,
      expiredtoken: 0.1,
      silentsocket: 0.01,
      cdnlag: 3000,
    });
    expect(() => parseFaultSpec('lostframe=2')).toThrow(/lostframe=2 is invalid; expected a probability/);
  });

  it('discovery answers ip, securePort and a token; --push off serves no discovery', async () => {
    const up = await start({ simulate: { games: 1, seed: 1 } });
    const d = await discover(up);
    expect(d.ip).toBe('127.0.0.1');
    expect(d.securePort).toBe(Number(new URL(up.url).port));
    expect(d.token.length).toBeGreaterThan(10);
    const off = await start({ push: false, simulate: { games: 1, seed: 1 } });
    expect(off.fastcastUrl).toBeNull();
    expect((await getJson(off.url + '/public/websockethost')).status).toBe(404);
  });

  it('survives clients that reset the connection while their upgrade is refused', async () => {
    const up = await start({ simulate: { games: 1, seed: 1 } });
    const { hostname, port } = new URL(up.url);
    const { token } = await discover(up);
    // Without the origin: refused with 403. Each client resets as soon as it has sent its request,
    // so the refusal is written to a socket the peer has reset (ECONNRESET / EPIPE at the server).
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(
            `GET /FastcastService/pubsub/profiles/12000?TrafficManager-Token=${token} HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nHost: ${hostname}:${port}\r\nSec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
            () => {
              socket.resetAndDestroy();
              resolve();
            },
          );
        });
        socket.on('error', () => resolve());
      });
    }
    // Still answering: an unhandled socket error would have ended the process.
    await new Promise((r) => setTimeout(r, 200));
    expect((await getJson(up.fastcastUrl as string)).status).toBe(200);
  });

  it('refuses an upgrade whose header names are not written exactly, or without the origin', async () => {
    const up = await start({ simulate: { games: 1, seed: 1 } });
    const host = new URL(up.url).host;
    const exact = ['Upgrade: websocket', 'Connection: Upgrade', `Host: ${host}`, `Sec-WebSocket-Key: ${KEY}`];
    const lower = await rawUpgrade(up, (await discover(up)).token, [
      'upgrade: websocket',
      'Connection: Upgrade',
      `Host: ${host}`,
      `Sec-WebSocket-Key: ${KEY}`,
      'Sec-WebSocket-Version: 13',
      `Origin: ${ORIGIN}`,
    ]);
    expect(lower).toMatch(/^HTTP\/1.1 404/);
    expect(JSON.parse(lower.slice(lower.indexOf('\r\n\r\n') + 4))).toEqual({ rc: 404, op: 'ERROR' });
    const noOrigin = await rawUpgrade(up, (await discover(up)).token, [
      ...exact,
      'Sec-WebSocket-Version: 13',
    ]);
    expect(noOrigin).toMatch(/^HTTP\/1.1 403/);
    const { token } = await discover(up);
    const ok = await rawUpgrade(up, token, [
      ...exact,
      'Sec-WebSocket-Version: 13',
      `Origin: ${ORIGIN}`,
    ]).catch((e: unknown) => String(e));
    expect(ok).toMatch(/^HTTP\/1.1 101/);
    // A token serves one connection only.
    await expect(
      rawUpgrade(up, token, [...exact, 'Sec-WebSocket-Version: 13', `Origin: ${ORIGIN}`]),
    ).resolves.toMatch(/^HTTP\/1.1 401/);
    // And one never handed out serves none.
    await expect(
      rawUpgrade(up, 'not-a-token', [...exact, 'Sec-WebSocket-Version: 13', `Origin: ${ORIGIN}`]),
    ).resolves.toMatch(/^HTTP\/1.1 401/);
  });

  it('plays C, S, H, R/P in both payload forms and I/B; the patches rebuild the summary', async () => {
    const { clock, up, game, topic, s, c } = await connected();
    expect(c).toMatchObject({ rc: 200, hbi: 0.3 });
    expect(typeof c.sid).toBe('string');
    s.send({ op: 'S', sid: c.sid, tc: 'gp-basketball-nba-1' });
    expect(await s.waitFor((f) => f.op === 'S' && f.tc === 'gp-basketball-nba-1')).toMatchObject({ rc: 404 });
    s.send({ op: 'S', sid: c.sid, tc: topic });
    expect(await s.waitFor((f) => f.op === 'S' && f.tc === topic)).toMatchObject({ rc: 200 });
    const h = await s.waitFor((f) => f.op === 'H');
    expect(h.mid).toBe(1);
    let doc: any = (await getJson(h.pl as string)).body;
    expect(doc.header.id).toBe(game.id);
    const forms = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const seen = s.frames.filter((f) => f.op === 'P').length;
      clock.advance(120_000);
      await s.waitFor((f) => f.op === 'P' && s.frames.filter((g) => g.op === 'P').length > seen);
    }
    const patches = s.frames.filter((f) => f.op === 'R' || f.op === 'P').sort((a, b) => a.mid! - b.mid!);
    for (const f of patches) forms.add(JSON.parse(f.pl as string)['~c']);
    doc = applyFrames(doc, patches);
    expect(forms).toEqual(new Set([0, 1]));
    expect(doc).toEqual(JSON.parse(game.summaryText(clock.now())));
    // A later subscriber gets the latest checkpoint, then the patches since it as R frames.
    const late = await open(up);
    late.send({ op: 'C' });
    late.send({ op: 'S', tc: topic });
    const lh = await late.waitFor((f) => f.op === 'H');
    const checkpoint: any = (await getJson(lh.pl as string)).body;
    await late.waitFor((f) => f.op === 'R');
    await new Promise((r) => setTimeout(r, 100));
    const rs = late.frames.filter((f) => f.op === 'R');
    expect(rs.length).toBeGreaterThan(0);
    expect(rs.map((f) => f.mid)).toEqual(rs.map((_, i) => lh.mid! + 1 + i));
    expect(applyFrames(checkpoint, rs)).toEqual(doc);
    late.ws.close();
    await s.waitFor((f) => f.op === 'I' && f.pl === '0' && f.tc === topic, 3000);
    await s.waitFor((f) => f.op === 'B', 3000);
    s.ws.close();
  });

  it('injects the push faults: lost frame, bad patch, topic 404, expired token, dropped and silent socket', async () => {
    const { clock, up, topic, s, c } = await connected();
    const sid = c.sid;
    up.faults.set('topic404=1');
    s.send({ op: 'S', sid, tc: topic });
    expect(await s.waitFor((f) => f.op === 'S')).toMatchObject({ rc: 404 });
    up.faults.set('');
    s.send({ op: 'S', sid, tc: topic });
    await s.waitFor((f) => f.op === 'S' && f.rc === 200);
    const h = await s.waitFor((f) => f.op === 'H');
    const doc: any = (await getJson(h.pl as string)).body;
    up.faults.set('lostframe=1');
    clock.advance(120_000);
    // A lost frame shows as a gap in the topic's mids once the next frame (an I keep-alive) comes.
    const mids = (): number[] =>
      s.frames.filter((f) => f.tc === topic && f.mid !== undefined).map((f) => f.mid!);
    const gap = (): boolean => mids().some((m, i, all) => i > 0 && m !== all[i - 1]! + 1);
    await s.waitFor(() => gap());
    up.faults.set('');
    expect(s.frames.some((f) => f.op === 'P')).toBe(false);
    clock.advance(120_000);
    const after = await s.waitFor((f) => f.op === 'P');
    up.faults.set('badpatch=1');
    clock.advance(120_000);
    const bad = await s.waitFor((f) => f.op === 'P' && f.mid! > after.mid!);
    expect(() =>
      fjp.applyPatch(doc, decodePatchPayload(bad.pl as string, 'test').patch as any, true, false),
    ).toThrow();
    up.faults.set('silentsocket=1');
    clock.advance(120_000);
    await new Promise((r) => setTimeout(r, 300));
    const count = s.frames.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(s.frames.length).toBe(count);
    up.faults.set('dropsocket=1');
    const d = await open(up);
    d.send({ op: 'C' });
    d.send({ op: 'S', tc: topic });
    await d.waitFor((f) => f.op === 'H');
    const closed = new Promise((r) => d.ws.once('close', r));
    clock.advance(120_000);
    await closed;
    up.faults.set('expiredtoken=1');
    await expect(open(up)).rejects.toThrow(/401/);
  });

  it('the site summary lags the push document by cdnlag', async () => {
    const clock = new TestClock();
    const up = await start({ clock, simulate: { games: 1, seed: 3 }, faults: 'cdnlag=60000' });
    const game = up.games[0]!;
    clock.advance(10 * 60_000);
    const { body } = await getJson(`${up.url}${NBA}/summary?event=${game.id}`);
    expect(body.plays.length).toBe(JSON.parse(game.summaryText(clock.now() - 60_000)).plays.length);
    expect(body.plays.length).toBeLessThan(JSON.parse(game.summaryText(clock.now())).plays.length);
  });
});
