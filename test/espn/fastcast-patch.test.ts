import fc from 'fast-check';
import fjp from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { PatchOperation } from '../../src/espn/fastcast-wire.js';
import { applyBatch } from '../../src/espn/fastcast-patch.js';
import { SUMMARY_READ_PARTS } from '../../src/espn/summary-parts.js';
import { HAVE_FIXTURES, loadFixture, itRecorded } from '../support/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- documents are free-form JSON */

const doc = () => ({
  header: { id: '1', competitions: [{ id: '1' }] },
  plays: [{ id: 'a' }],
  odds: [{ spread: 1 }],
  pickcenter: [],
});

/** The parts courtside reads, for comparing documents on them alone. */
const readParts = (d: any): Record<string, unknown> =>
  Object.fromEntries(Object.entries(d).filter(([k]) => SUMMARY_READ_PARTS.has(k)));

describe('applyBatch', () => {
  it('applies a batch that applies, as one patch would, on a copy', () => {
    const before = doc();
    const frozen = JSON.stringify(before);
    const ops: PatchOperation[] = [
      { op: 'add', path: '/plays/-', value: { id: 'b' } },
      { op: 'replace', path: '/odds/0/spread', value: 2 },
      { op: 'move', from: '/plays/0', path: '/plays/1' },
    ];
    const result = applyBatch(before, ops);
    expect(result).toEqual({
      ok: true,
      doc: fjp.applyPatch(doc(), ops as fjp.Operation[], true, false).newDocument,
      skipped: [],
    });
    expect(JSON.stringify(before)).toBe(frozen);
  });

  it.each<[string, PatchOperation]>([
    ['remove of an absent odds key', { op: 'remove', path: '/odds/0/overUnder' }],
    ['replace of an absent pick', { op: 'replace', path: '/pickcenter/4', value: {} }],
    ['add under an absent parent', { op: 'add', path: '/predictor/homeTeam/gameProjection', value: 1 }],
    ['failing test', { op: 'test', path: '/odds/0/spread', value: 9 }],
    ['copy from an absent source into an unread part', { op: 'copy', from: '/plays/9', path: '/news/x' }],
    ['remove in a part no recorded summary has', { op: 'remove', path: '/somethingNew/1' }],
  ])('skips a %s, and applies the rest', (_name, bad) => {
    const result = applyBatch(doc(), [bad, { op: 'add', path: '/plays/-', value: { id: 'b' } }]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((result.doc as any).plays).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]).toMatchObject({ op: bad.op, path: bad.path });
    expect(result.skipped[0]!.part).toBe(bad.path.split('/')[1]);
  });

  it.each<[string, PatchOperation]>([
    ['remove of an absent play', { op: 'remove', path: '/plays/5' }],
    ['replace in the header that is not there', { op: 'replace', path: '/header/season/year', value: 1 }],
    ['failing test on the header', { op: 'test', path: '/header/id', value: '2' }],
    ['move out of an absent play into an unread part', { op: 'move', from: '/plays/4', path: '/odds/1' }],
    ['replace of the whole document with nothing behind it', { op: 'copy', from: '/nowhere', path: '' }],
    ['path that is not a pointer', { op: 'remove', path: 'plays/0' }],
    ['win probability entry that is not there', { op: 'remove', path: '/winprobability/3' }],
    ['box score member that is not there', { op: 'replace', path: '/boxscore/teams/0', value: {} }],
  ])('fails the batch on a %s, leaving the document untouched', (_name, bad) => {
    const before = doc();
    const frozen = JSON.stringify(before);
    const result = applyBatch(before, [
      { op: 'add', path: '/plays/-', value: { id: 'b' } },
      { op: 'remove', path: '/odds/0/missing' },
      bad,
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain(bad.path === '' ? bad.op : bad.path);
    expect(JSON.stringify(before)).toBe(frozen);
  });

  it('shares what a batch does not touch with the document before it, and copies the paths it does', () => {
    const before: any = {
      header: { competitions: [{ status: { displayClock: '5:00' }, competitors: [{ score: '10' }] }] },
      plays: [{ id: 'a' }, { id: 'b' }],
      boxscore: { teams: [{ stats: [1] }] },
      odds: [{ spread: 1 }],
    };
    const frozen = JSON.stringify(before);
    const result = applyBatch(before, [
      { op: 'add', path: '/plays/-', value: { id: 'c' } },
      { op: 'replace', path: '/header/competitions/0/status/displayClock', value: '4:59' },
      { op: 'replace', path: '/plays/2/id', value: 'c2' },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const after: any = result.doc;
    expect(JSON.stringify(before)).toBe(frozen);
    expect(after).not.toBe(before);
    expect(after.plays).not.toBe(before.plays);
    expect(after.plays[0]).toBe(before.plays[0]);
    expect(after.plays[2]).toEqual({ id: 'c2' });
    expect(after.header.competitions[0].status).not.toBe(before.header.competitions[0].status);
    expect(after.header.competitions[0].competitors).toBe(before.header.competitions[0].competitors);
    expect(after.boxscore).toBe(before.boxscore);
    expect(after.odds).toBe(before.odds);
  });

  it("never changes an operation's value, nor a document it handed out, in a later batch", () => {
    const value = { id: 'b', text: 'x' };
    const first = applyBatch(doc(), [{ op: 'add', path: '/plays/-', value }]);
    if (!first.ok) throw new Error(first.error);
    const handedOut = JSON.stringify(first.doc);
    const second = applyBatch(first.doc, [
      { op: 'replace', path: '/plays/1/text', value: 'y' },
      { op: 'move', from: '/plays/0', path: '/odds/-' },
      { op: 'remove', path: '/odds/1/id' },
    ]);
    expect(second.ok).toBe(true);
    expect(value).toEqual({ id: 'b', text: 'x' });
    expect(JSON.stringify(first.doc)).toBe(handedOut);
    expect((second as any).doc.plays).toEqual([{ id: 'b', text: 'y' }]);
    expect((second as any).doc.odds).toEqual([{ spread: 1 }, {}]);
  });

  it('gives what the same operations give on a deep copy, for any batch, leaving the input as it was', () => {
    // The reference: the lenient apply on a whole copy of the document.
    const onCopy = (d: unknown, ops: PatchOperation[]): unknown => {
      let next: unknown = structuredClone(d);
      for (const op of ops) {
        try {
          next = fjp.applyOperation(next, structuredClone(op) as fjp.Operation, true, true, true).newDocument;
        } catch {
          const reads = (p: string): boolean => p === '' || SUMMARY_READ_PARTS.has(p.split('/')[1] ?? '');
          if (reads(op.path) || (op.op === 'move' && reads(op.from ?? ''))) return 'fails';
        }
      }
      return next;
    };
    const path = fc
      .tuple(
        fc.constantFrom('plays', 'odds', 'header'),
        fc.array(fc.constantFrom('0', '1', '2', '-', 'id', 'x'), { maxLength: 2 }),
      )
      .map(([part, rest]) => ['', part, ...rest].join('/'));
    const op: fc.Arbitrary<PatchOperation> = fc.oneof(
      fc.record({ op: fc.constant('add'), path, value: fc.jsonValue() }),
      fc.record({ op: fc.constant('replace'), path, value: fc.jsonValue() }),
      fc.record({ op: fc.constant('remove'), path }),
      fc.record({ op: fc.constant('move'), from: path, path }),
      fc.record({ op: fc.constant('copy'), from: path, path }),
      fc.record({ op: fc.constant('test'), path, value: fc.jsonValue() }),
    ) as fc.Arbitrary<PatchOperation>;
    const start = (): any => ({
      header: { id: '1', x: { id: 2 } },
      plays: [{ id: 'a', x: [1] }, { id: 'b' }],
      odds: [{ id: 'o', x: { y: 1 } }],
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 6 }), (ops) => {
        const before = start();
        const expected = onCopy(before, ops);
        const result = applyBatch(before, ops);
        expect(before).toEqual(start());
        if (expected === 'fails') expect(result.ok).toBe(false);
        else expect(result).toMatchObject({ ok: true, doc: expected });
      }),
      { numRuns: 500 },
    );
  });

  itRecorded(!HAVE_FIXTURES)(
    'a recorded summary patched with absent odds keys mixed in reads as the same patch without them would give',
    () => {
      const live: any = loadFixture('mens/summary__401705066_live.json');
      const clean: PatchOperation[] = [
        { op: 'add', path: '/plays/-', value: { ...live.plays.at(-1), id: '999999999', text: 'new play' } },
        { op: 'replace', path: '/header/competitions/0/status/displayClock', value: '1:23' },
        { op: 'remove', path: '/winprobability/0' },
      ];
      const noisy: PatchOperation[] = [
        { op: 'remove', path: '/odds/0/details_gone' },
        clean[0]!,
        { op: 'replace', path: '/pickcenter/99/spread', value: -3.5 },
        clean[1]!,
        { op: 'remove', path: '/againstTheSpread/7' },
        clean[2]!,
      ];
      const expected = fjp.applyPatch(
        structuredClone(live),
        clean as fjp.Operation[],
        true,
        true,
      ).newDocument;
      const result = applyBatch(live, noisy);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.skipped.map((s) => s.part)).toEqual(['odds', 'pickcenter', 'againstTheSpread']);
      expect(readParts(result.doc)).toEqual(readParts(expected));
      expect(Object.keys(readParts(expected)).sort()).toEqual([...SUMMARY_READ_PARTS].sort());
    },
  );
});
