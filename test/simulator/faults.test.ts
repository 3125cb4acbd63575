import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../src/simulator/faults.js';
import { NBA, TestClock, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const NEWS = `${NBA}/news`;

describe('fault spec', () => {
  it('parses the CLI form and rejects unknown faults and bad values with INVALID_OPTIONS', () => {
    expect(
      parseFaultSpec('error=0.2,timeout=0.05, malformed=0.02,correct=0.05,remove=0.01,latency=200'),
    ).toEqual({
      error: 0.2,
      timeout: 0.05,
      malformed: 0.02,
      correct: 0.05,
      remove: 0.01,
      latency: 200,
    });
    expect(parseFaultSpec({ error: 0.1 })).toEqual({ error: 0.1 });
    expect(() => parseFaultSpec('explode=1')).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => parseFaultSpec('error=2')).toThrow(/error=2/);
    expect(() => parseFaultSpec('latency=-1')).toThrow(/latency/);
    expect(() => parseFaultSpec('error=')).toThrow(/error/);
  });
});

describe('fault controller', () => {
  it('failNext answers n errors with the status and Retry-After, then recovers', async () => {
    const up = await start();
    up.faults.failNext(2, { status: 503, retryAfter: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(up.url + NEWS);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      await res.text();
    }
    const ok = await fetch(up.url + NEWS);
    expect(ok.status).toBe(200);
    await ok.text();
    expect(up.requests.entries.map((r) => r.status)).toEqual([503, 503, 200]);
    up.faults.failNext(1, { status: 429 });
    const limited = await fetch(up.url + NEWS);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
    await limited.text();
  });

  it('hangNext leaves a request unanswered until the client gives up; close() still ends', async () => {
    const up = await start();
    up.faults.hangNext(1);
    await expect(fetch(up.url + NEWS, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect((await getJson(up.url + NEWS)).status).toBe(200);
    up.faults.hangNext(1);
    const pending = fetch(up.url + NEWS).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((r) => setTimeout(r, 100));
    await up.close();
    expect(await pending).toBe('failed');
    expect(up.requests.entries.at(-1)?.status).toBe(0);
  });

  it('malformedNext sends a truncated JSON body without validators', async () => {
    const up = await start();
    up.faults.malformedNext(1);
    const res = await fetch(up.url + NEWS);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeNull();
    const text = await res.text();
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow();
    expect((await getJson(up.url + NEWS)).status).toBe(200);
  });

  it('clear() drops queued and probabilistic faults', async () => {
    const up = await start({ faults: 'error=1' });
    up.faults.hangNext(3);
    up.faults.clear();
    expect((await getJson(up.url + NEWS)).status).toBe(200);
    expect(up.faults.spec).toEqual({});
  });
});

describe('probabilistic faults', () => {
  const statuses = async (seed: number, spec: string, n: number): Promise<number[]> => {
    const up = await start({ faults: spec, seed });
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await fetch(up.url + NEWS);
      await res.text();
      out.push(res.status);
    }
    return out;
  };

  it('answer 5xx at the given rate, deterministically for a seed', async () => {
    const a = await statuses(7, 'error=0.5', 40);
    const b = await statuses(7, 'error=0.5', 40);
    expect(a).toEqual(b);
    const errors = a.filter((s) => s >= 500).length;
    expect(errors).toBeGreaterThan(8);
    expect(errors).toBeLessThan(32);
    expect(a.every((s) => s === 200 || [500, 502, 503, 504].includes(s))).toBe(true);
    expect((await statuses(1, 'error=1', 5)).every((s) => s >= 500)).toBe(true);
  });

  it('timeout=1 hangs every request; malformed=1 truncates every body', async () => {
    const hang = await start({ faults: 'timeout=1' });
    await expect(fetch(hang.url + NEWS, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    const bad = await start({ faults: 'malformed=1' });
    const text = await (await fetch(bad.url + NEWS)).text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it('latency adds a fixed delay', async () => {
    const up = await start({ faults: 'latency=150' });
    const t0 = performance.now();
    expect((await getJson(up.url + NEWS)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  async function liveGame(spec: string) {
    const clock = new TestClock();
    const up = await start({
      simulate: { games: 1, seed: 4, leagues: ['mens'] },
      clock,
      faults: spec,
      seed: 3,
    });
    const game = up.games[0];
    if (!game) throw new Error('no game');
    clock.ms = game.startAt + (game.endAt - game.startAt) / 2;
    const url = `${up.url}${NBA}/summary?event=${game.id}`;
    const finalById = new Map<string, any>((game.final.plays as any[]).map((p) => [p.id, p]));
    return { up, clock, game, url, finalById };
  }

  it('correct changes an already revealed play, and the change persists to the final payload', async () => {
    const { up, clock, game, url, finalById } = await liveGame('correct=1');
    const first = (await getJson(url)).body.plays as any[];
    const changed = first.filter((p) => JSON.stringify(p) !== JSON.stringify(finalById.get(p.id)));
    expect(changed).toHaveLength(1);
    const [play] = changed;
    expect(play.text).not.toBe(finalById.get(play.id).text);
    up.faults.set('');
    clock.advance(60_000);
    const later = (await getJson(url)).body.plays as any[];
    expect(later.find((p) => p.id === play.id)).toEqual(play);
    clock.ms = game.endAt + 1;
    const post = (await getJson(url)).body;
    expect(post.header.competitions[0].status.type.state).toBe('post');
    expect(post.plays.find((p: any) => p.id === play.id)).toEqual(play);
  });

  it('remove makes a revealed play vanish from then on', async () => {
    const { up, clock, game, url } = await liveGame('remove=1');
    const revealedBefore = game.state(clock.ms).revealed;
    const body = (await getJson(url)).body;
    expect(body.plays).toHaveLength(revealedBefore - 1);
    const ids = new Set(body.plays.map((p: any) => p.id));
    const gone = (game.final.plays as any[]).slice(0, revealedBefore).find((p) => !ids.has(p.id));
    expect(gone).toBeDefined();
    expect(body.winprobability.some((w: any) => w.playId === gone.id)).toBe(false);
    up.faults.set('');
    clock.ms = game.endAt + 1;
    const post = (await getJson(url)).body;
    expect(post.plays).toHaveLength((game.final.plays as any[]).length - 1);
    expect(post.plays.some((p: any) => p.id === gone.id)).toBe(false);
  });
});
