import fjp from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { PatchOperation } from '../../src/espn/fastcast-frames.js';
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
