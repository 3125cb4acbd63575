import { describe, expect, it } from 'vitest';
import { reconcileSummary } from '../../streams/summary-merge.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- summaries are free-form JSON */
const summary = (period: number, clock: string, ids: string[]): any => ({
  header: {
    id: '1',
    competitions: [
      {
        status: { period, displayClock: clock, type: { state: 'in', name: 'STATUS_IN_PROGRESS' } },
        competitors: [
          { homeAway: 'home', score: '10', team: { id: '1', abbreviation: 'H' } },
          { homeAway: 'away', score: '8', team: { id: '2', abbreviation: 'A' } },
        ],
      },
    ],
  },
  plays: ids.map((id) => ({ id, text: id })),
});
const ids = (doc: any): string[] => doc.plays.map((p: any) => p.id);

describe('a polled summary against the push document', () => {
  it('an older summary takes nothing back: plays after its own newest are kept', () => {
    const push = summary(1, '5:00', ['1', '2', '3', '4']);
    const r = reconcileSummary(push, summary(1, '6:00', ['1', '2']), 'test');
    expect(r.pollWins).toBe(false);
    expect(r.doc).toBe(push);
  });

  it('an older summary adds the plays push lacks, after the play before them', () => {
    const push = summary(1, '5:00', ['1', '2', '4']);
    const r = reconcileSummary(push, summary(1, '6:00', ['1', '2', '9', '10', '4']), 'test');
    expect(r).toMatchObject({ pollWins: false, added: 2 });
    expect(ids(r.doc)).toEqual(['1', '2', '9', '10', '4']);
    expect((r.doc as any).header).toBe(push.header);
  });

  it('an older summary that lists a play push lacks twice adds it once', () => {
    const push = summary(1, '5:00', ['1', '2', '3']);
    const r = reconcileSummary(push, summary(1, '6:00', ['1', '9', '9']), 'test');
    expect(r).toMatchObject({ pollWins: false, added: 1 });
    expect(ids(r.doc)).toEqual(['1', '9', '2', '3']);
  });

  it('a summary at least as new is the truth, removals included', () => {
    const push = summary(1, '5:00', ['1', '2', '3']);
    const polled = summary(1, '4:00', ['1', '3', '4']);
    const r = reconcileSummary(push, polled, 'test');
    expect(r.pollWins).toBe(true);
    expect(r.doc).toBe(polled);
  });

  it('a summary ahead on the clock but without push’s newest play is not believed on removals', () => {
    const push = summary(1, '5:00', ['1', '2', '3']);
    const r = reconcileSummary(push, summary(1, '4:00', ['1', '2']), 'test');
    expect(r.pollWins).toBe(false);
    expect(ids(r.doc)).toEqual(['1', '2', '3']);
  });
});

describe('a polled summary with fewer plays than push', () => {
  it('is not believed on removals even when it has push’s last play (plays are revealed out of list order)', () => {
    const push = summary(1, '5:00', ['1', '2', '3']);
    const r = reconcileSummary(push, summary(1, '5:00', ['1', '3']), 'test');
    expect(r.pollWins).toBe(false);
    expect(ids(r.doc)).toEqual(['1', '2', '3']);
  });

  it('a push document whose header does not read (a checkpoint that was no summary) gives way to the poll', () => {
    const polled = summary(1, '6:00', ['1', '2']);
    for (const push of [{ pl: summary(1, '5:00', ['1', '2', '3']) }, { plays: [{ id: '9' }] }, null]) {
      const r = reconcileSummary(push, polled, 'test');
      expect(r).toEqual({ doc: polled, pollWins: true, added: 0 });
    }
  });
});
