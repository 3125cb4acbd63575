import { describe, expect, it } from 'vitest';
import { encodePatchPayload, type FastcastFrame, type PatchOperation } from '../../src/espn/fastcast-wire.js';
import { createTopic, type ResyncReason, type TopicDocument } from '../../src/espn/fastcast-topic.js';
import type { SkippedOperation } from '../../src/espn/fastcast-patch.js';
import { fastcastSkippedOps } from '../../src/core/metrics.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- documents are free-form JSON */

/**
 * One topic fed frames by hand. The checkpoint "download" answers from memory and "soon" runs on
 * the next turn of the event loop, as the client's setImmediate does: this is the topic's own
 * logic, the socket and HTTP are tested against the simulator in fastcast-client.test.ts.
 */
function topic(checkpoint: unknown) {
  const docs: TopicDocument[] = [];
  const resyncs: ResyncReason[] = [];
  const skipped: SkippedOperation[] = [];
  const t = createTopic('gp-basketball-nba-1', {
    document: (u) => void docs.push(u),
    resync: (reason) => resyncs.push(reason),
    skipped: (ops) => skipped.push(...ops),
    fetchCheckpoint: () => Promise.resolve(structuredClone(checkpoint)),
    soon: (fn) => setImmediate(fn),
    now: () => 0,
  });
  let mid = 0;
  const h = (): void => t.frame({ op: 'H', tc: t.name, mid: ++mid, pl: 'https://checkpoint.example/1.json' });
  const p = (patch: PatchOperation[], op: 'P' | 'R' = 'P', skip = 0): void => {
    mid += 1 + skip;
    t.frame({ op, tc: t.name, mid, pl: encodePatchPayload(patch, 1, mid % 2 === 0) } as FastcastFrame);
  };
  const i = (): void => t.frame({ op: 'I', tc: t.name, mid: ++mid, pl: '0' });
  const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
  return { t, docs, resyncs, skipped, h, p, i, tick };
}

describe('a FastCast topic', () => {
  it('hands out the checkpoint with its catch-up frames applied, then patch batches; all six operations', async () => {
    const s = topic({ a: [1, 2], b: { c: 1 } });
    s.h();
    s.p([{ op: 'add', path: '/a/-', value: 3 }], 'R');
    await s.tick();
    await s.tick();
    expect(s.docs).toEqual([{ doc: { a: [1, 2, 3], b: { c: 1 } }, ts: 1, patches: 0 }]);
    s.p([{ op: 'move', from: '/a/0', path: '/b/m' }]);
    s.p([
      { op: 'copy', from: '/b/c', path: '/z' },
      { op: 'test', path: '/z', value: 1 },
      { op: 'replace', path: '/b/c', value: 9 },
      { op: 'remove', path: '/a/0' },
    ]);
    await s.tick();
    // Two frames read together: one batch, one document.
    expect(s.docs).toHaveLength(2);
    expect(s.docs[1]).toEqual({ doc: { a: [3], b: { c: 9, m: 1 }, z: 1 }, ts: 1, patches: 2 });
  });

  it('a patch that does not apply to a part courtside reads leaves the document as it was and asks for a fresh checkpoint', async () => {
    const s = topic({ plays: [1], odds: { spread: 1 } });
    s.h();
    await s.tick();
    await s.tick();
    const before = s.t.doc as any;
    s.p([
      { op: 'add', path: '/plays/-', value: 2 },
      { op: 'remove', path: '/odds/missing' },
      { op: 'remove', path: '/plays/7' },
    ]);
    await s.tick();
    expect(s.resyncs).toEqual(['bad_patch']);
    expect(before).toEqual({ plays: [1], odds: { spread: 1 } });
    expect(s.t.doc).toBe(before);
    expect(s.t.phase).toBe('subscribing');
  });

  it('an operation failing on a part courtside does not read is skipped and counted; the rest of the batch applies', async () => {
    const counted = async (part: string): Promise<number> =>
      (await fastcastSkippedOps.get()).values.find((v) => v.labels.part === part)?.value ?? 0;
    const odds = await counted('odds');
    const pickcenter = await counted('pickcenter');
    const s = topic({ plays: [1], odds: { spread: 1 }, pickcenter: [] });
    s.h();
    await s.tick();
    await s.tick();
    s.p([
      { op: 'remove', path: '/odds/overUnder' },
      { op: 'add', path: '/plays/-', value: 2 },
    ]);
    s.p([
      { op: 'replace', path: '/pickcenter/3/line', value: 5 },
      { op: 'replace', path: '/odds/spread', value: 2 },
    ]);
    await s.tick();
    expect(s.resyncs).toEqual([]);
    expect(s.docs.at(-1)).toEqual({
      doc: { plays: [1, 2], odds: { spread: 2 }, pickcenter: [] },
      ts: 1,
      patches: 2,
    });
    expect(s.skipped.map((o) => [o.part, o.op, o.path])).toEqual([
      ['odds', 'remove', '/odds/overUnder'],
      ['pickcenter', 'replace', '/pickcenter/3/line'],
    ]);
    expect(await counted('odds')).toBe(odds + 1);
    expect(await counted('pickcenter')).toBe(pickcenter + 1);
  });

  it("a document its reader refuses is resynced: the reason is the reader's", async () => {
    const resyncs: Array<[ResyncReason, string]> = [];
    let refuse = false;
    const t = createTopic('gp-basketball-nba-1', {
      document: () => (refuse ? 'header does not read' : undefined),
      resync: (reason, detail) => resyncs.push([reason, detail]),
      fetchCheckpoint: () => Promise.resolve({ plays: [] }),
      soon: (fn) => setImmediate(fn),
      now: () => 0,
    });
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    t.frame({ op: 'H', tc: t.name, mid: 1, pl: 'https://cp.example/1' });
    await tick();
    expect(t.phase).toBe('live');
    refuse = true;
    t.frame({
      op: 'P',
      tc: t.name,
      mid: 2,
      pl: encodePatchPayload([{ op: 'remove', path: '/plays' }], 1, false),
    });
    await tick();
    expect(resyncs).toEqual([['bad_document', 'header does not read']]);
    expect(t.phase).toBe('subscribing');
  });

  it('a mid gap asks for a fresh checkpoint; I frames consume a mid; frames before the next H are dropped', async () => {
    const s = topic({ a: [] });
    s.h();
    await s.tick();
    await s.tick();
    s.i();
    s.p([{ op: 'add', path: '/a/-', value: 1 }], 'P', 0);
    await s.tick();
    expect(s.resyncs).toEqual([]);
    s.p([{ op: 'add', path: '/a/-', value: 2 }], 'P', 1);
    expect(s.resyncs).toEqual(['mid_gap']);
    s.p([{ op: 'add', path: '/a/-', value: 3 }]);
    await s.tick();
    expect((s.t.doc as any).a).toEqual([1]);
  });

  it('a checkpoint announced while live at a mid the document has is ignored; one ahead of it is loaded', async () => {
    let served: unknown = { a: [] };
    const docs: TopicDocument[] = [];
    const loads: string[] = [];
    const t = createTopic('gp-basketball-nba-1', {
      document: (u) => void docs.push(u),
      resync: () => undefined,
      fetchCheckpoint: (url) => {
        loads.push(url);
        return Promise.resolve(structuredClone(served));
      },
      soon: (fn) => setImmediate(fn),
      now: () => 0,
    });
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    const patch = (mid: number, value: number): void =>
      t.frame({
        op: 'P',
        tc: t.name,
        mid,
        pl: encodePatchPayload([{ op: 'add', path: '/a/-', value }], 1, false),
      });
    t.frame({ op: 'H', tc: t.name, mid: 40, pl: 'https://cp.example/40' });
    await tick();
    patch(41, 1);
    patch(42, 2);
    await tick();
    // Announced to every subscriber once published: the document already holds mid 42.
    t.frame({ op: 'H', tc: t.name, mid: 42, pl: 'https://cp.example/42' });
    patch(43, 3);
    await tick();
    expect(loads).toEqual(['https://cp.example/40']);
    expect(t.phase).toBe('live');
    expect(docs.at(-1)).toMatchObject({ doc: { a: [1, 2, 3] }, patches: 1 });
    // A checkpoint past the document's mid is news: loaded, and the mids go on from it.
    served = { a: [1, 2, 3, 4, 5] };
    t.frame({ op: 'H', tc: t.name, mid: 45, pl: 'https://cp.example/45' });
    await tick();
    patch(46, 6);
    await tick();
    await tick();
    expect(loads).toEqual(['https://cp.example/40', 'https://cp.example/45']);
    expect(t.doc).toEqual({ a: [1, 2, 3, 4, 5, 6] });
  });

  it('a checkpoint announced while the first one is still downloading, at a mid the frames held have, is not downloaded', async () => {
    const docs: TopicDocument[] = [];
    const loads: string[] = [];
    let answer: (body: unknown) => void = () => undefined;
    const t = createTopic('gp-basketball-nba-1', {
      document: (u) => void docs.push(u),
      resync: () => undefined,
      fetchCheckpoint: (url) => {
        loads.push(url);
        // A slow download (a loaded machine, a distant host): answered when the test says.
        return new Promise((resolve) => (answer = resolve));
      },
      soon: (fn) => setImmediate(fn),
      now: () => 0,
    });
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    const add = (op: 'R' | 'P', mid: number, value: number): void =>
      t.frame({ op, tc: t.name, mid, pl: encodePatchPayload([{ op: 'add', path: '/a/-', value }], 1, true) });
    t.frame({ op: 'H', tc: t.name, mid: 40, pl: 'https://cp.example/40' });
    add('R', 41, 1);
    add('P', 42, 2);
    // Announced to every subscriber once published: the frames held already reach mid 42.
    t.frame({ op: 'H', tc: t.name, mid: 42, pl: 'https://cp.example/42' });
    add('P', 43, 3);
    expect(t.phase).toBe('loading');
    answer({ a: [] });
    await tick();
    await tick();
    expect(loads).toEqual(['https://cp.example/40']);
    expect(t.phase).toBe('live');
    expect(docs).toEqual([{ doc: { a: [1, 2, 3] }, ts: 1, patches: 0 }]);
    // One past the frames held is news, even while loading: it replaces the download under way.
    t.frame({ op: 'H', tc: t.name, mid: 44, pl: 'https://cp.example/44' });
    t.frame({ op: 'H', tc: t.name, mid: 46, pl: 'https://cp.example/46' });
    expect(loads).toEqual(['https://cp.example/40', 'https://cp.example/44', 'https://cp.example/46']);
  });

  it('takes the catch-up numbered from the checkpoint, below an H carrying the current mid, or before an H with a mid of its own', async () => {
    const run = async (frames: FastcastFrame[]) => {
      const docs: TopicDocument[] = [];
      const resyncs: ResyncReason[] = [];
      const t = createTopic('gp-basketball-nba-1', {
        document: (u) => void docs.push(u),
        resync: (reason) => resyncs.push(reason),
        fetchCheckpoint: () => Promise.resolve({ a: [] }),
        soon: (fn) => setImmediate(fn),
        now: () => 0,
      });
      for (const f of frames) t.frame(f);
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      return { doc: t.doc as any, resyncs };
    };
    const tc = 'gp-basketball-nba-1';
    const add = (op: 'R' | 'P', mid: number, value: number): FastcastFrame => ({
      op,
      tc,
      mid,
      pl: encodePatchPayload([{ op: 'add', path: '/a/-', value }], 1, true),
    });
    const keepAlive = (mid: number): FastcastFrame => ({ op: 'I', tc, mid, pl: '0' });
    const h = (mid: number): FastcastFrame => ({ op: 'H', tc, mid, pl: 'https://cp.example/x' });
    // The H carries the topic's current mid (13); the catch-up keeps its own, 11 to 13.
    expect(await run([h(13), add('R', 11, 1), keepAlive(12), add('R', 13, 2), add('P', 14, 3)])).toEqual({
      doc: { a: [1, 2, 3] },
      resyncs: [],
    });
    // The H takes a mid of its own (14) after the catch-up's 11 to 13.
    expect(await run([h(14), add('R', 11, 1), add('R', 12, 2), add('R', 13, 3), add('P', 15, 4)])).toEqual({
      doc: { a: [1, 2, 3, 4] },
      resyncs: [],
    });
    // Gaps are still gaps: inside the catch-up, after it, and a catch-up frame repeated.
    expect((await run([h(13), add('R', 11, 1), add('R', 13, 2)])).resyncs).toEqual(['mid_gap']);
    expect((await run([h(13), add('R', 12, 1), add('R', 13, 2), add('P', 15, 3)])).resyncs).toEqual([
      'mid_gap',
    ]);
    expect((await run([h(13), add('R', 12, 1), add('R', 13, 2), add('R', 12, 1)])).resyncs).toEqual([
      'mid_gap',
    ]);
    expect((await run([h(10), add('P', 12, 1)])).resyncs).toEqual(['mid_gap']);
  });
});
