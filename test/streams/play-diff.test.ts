import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent, PlayRow } from '../../src/model/events.js';
import {
  applyPlayDiff,
  diffPlays,
  emptyPlayState,
  type PlayDiff,
  type PlayState,
} from '../../streams/play-diff.js';
import { rowContent, sameRawPlay } from '../../streams/play-fingerprint.js';
import { parsePlays } from '../../src/tables/index.js';
import { playRow, rawPlay, reconstructPlays } from './helpers.js';

// Rows diffed as their own source: the cheap check is a content comparison.
const ROWS = {
  idOf: (r: PlayRow) => r.id,
  same: (a: PlayRow, b: PlayRow) => rowContent(a) === rowContent(b),
  toRows: (rs: readonly PlayRow[]) => [...rs],
};

function step(state: PlayState, rows: PlayRow[]): PlayDiff {
  const diff = diffPlays(state, rows, ROWS);
  applyPlayDiff(state, diff);
  return diff;
}

/** Play changes as consumer events (only the fields reconstruction reads). */
function asEvents(diff: PlayDiff): GameEvent[] {
  return diff.changes.map((c) => {
    if (c.kind === 'added')
      return { type: 'play.added', data: { play: c.row, after: c.after, index: c.index } };
    if (c.kind === 'updated') {
      return {
        type: 'play.updated',
        data: { play: c.row, changed: c.changed, previous: c.previous, moved: c.moved, after: c.after },
      };
    }
    return { type: 'play.removed', data: { playId: c.id, play: c.row } };
  }) as unknown as GameEvent[];
}

const kinds = (diff: PlayDiff) => diff.changes.map((c) => `${c.kind}:${c.id}`);

describe('diffPlays', () => {
  it('adds new plays with their predecessor and index', () => {
    const state = emptyPlayState();
    const d1 = step(state, [playRow(1), playRow(2)]);
    expect(kinds(d1)).toEqual(['added:90001', 'added:90002']);
    expect(d1.changes[1]).toMatchObject({ after: '90001', index: 1 });
    const d2 = step(state, [playRow(1), playRow(2), playRow(3)]);
    expect(kinds(d2)).toEqual(['added:90003']);
    expect(d2.changes[0]).toMatchObject({ after: '90002', index: 2 });
  });

  it('reports nothing for an identical list', () => {
    const state = emptyPlayState();
    step(state, [playRow(1), playRow(2)]);
    const d = step(state, [playRow(1), playRow(2)]);
    expect(d.changes).toEqual([]);
    expect(d.records.size).toBe(0);
  });

  it('places a play inserted before existing ones after the play that precedes it', () => {
    const state = emptyPlayState();
    const all: GameEvent[] = [];
    all.push(...asEvents(step(state, [playRow(1), playRow(3)])));
    const d = step(state, [playRow(0), playRow(1), playRow(2), playRow(3)]);
    expect(kinds(d)).toEqual(['added:90000', 'added:90002']);
    expect(d.changes[0]).toMatchObject({ after: null });
    expect(d.changes[1]).toMatchObject({ after: '90001' });
    // The successor's stored link changed too, and nothing was reported as moved.
    expect(d.records.get('90003')?.after).toBe('90002');
    all.push(...asEvents(d));
    expect(reconstructPlays(all).map((r) => r.id)).toEqual(['90000', '90001', '90002', '90003']);
  });

  it('reports a changed column as an update with the changed names and previous values', () => {
    const state = emptyPlayState();
    step(state, [playRow(1), playRow(2)]);
    const d = step(state, [playRow(1), playRow(2, { home_score: 9, text: 'corrected' })]);
    expect(d.changes).toHaveLength(1);
    const c = d.changes[0];
    expect(c?.kind).toBe('updated');
    if (c?.kind !== 'updated') return;
    expect(c.changed).toEqual(['text', 'home_score']);
    expect(c.previous).toEqual({ text: 'play 2', home_score: 0 });
    expect(c.moved).toBe(false);
    expect(c.record.updates).toBe(1);
  });

  it('reports plays missing from a shorter list as removed, keeping a tombstone', () => {
    const state = emptyPlayState();
    step(state, [playRow(1), playRow(2), playRow(3)]);
    const d = step(state, [playRow(1), playRow(3)]);
    expect(kinds(d)).toEqual(['removed:90002']);
    expect(d.records.get('90002')).toMatchObject({ row: null, removes: 1 });
    expect(d.records.get('90003')?.after).toBe('90001');
    // Coming back is a new addition with a counter for distinct ids.
    const back = step(state, [playRow(1), playRow(2), playRow(3)]);
    expect(kinds(back)).toEqual(['added:90002']);
    expect(back.changes[0]?.record.adds).toBe(2);
  });

  it('reports a reordered play as moved', () => {
    const state = emptyPlayState();
    const all = asEvents(step(state, [playRow(1), playRow(2), playRow(3)]));
    const d = step(state, [playRow(2), playRow(1), playRow(3)]);
    expect(d.changes.every((c) => c.kind === 'updated' && c.moved && c.changed.length === 0)).toBe(true);
    all.push(...asEvents(d));
    expect(reconstructPlays(all).map((r) => r.id)).toEqual(['90002', '90001', '90003']);
  });

  it('skips plays without an id and repeated ids', () => {
    const state = emptyPlayState();
    const d = step(state, [playRow(1), playRow(1, { text: 'dup' }), playRow(2, { id: null })]);
    expect(kinds(d)).toEqual(['added:90001']);
    expect(d.skipped).toBe(2);
  });

  it('converts only new or changed plays', () => {
    const state = emptyPlayState();
    const rows = Array.from({ length: 900 }, (_, i) => playRow(i));
    step(state, rows);
    let converted = 0;
    const source = { ...ROWS, toRows: (rs: readonly PlayRow[]) => ((converted += rs.length), [...rs]) };
    // Same objects: the cheap check passes for each, only the 2 new ones are converted.
    for (const [id, r] of state.records) r.src = rows.find((x) => x.id === id);
    const d = diffPlays(state, [...rows, playRow(900), playRow(901)], source);
    expect(converted).toBe(2);
    expect(d.changes).toHaveLength(2);
  });

  it('rebuilds any sequence of lists by applying events in order (property)', () => {
    const list = fc
      .uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 20 })
      .chain((ids) =>
        fc.tuple(fc.constant(ids), fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length })),
      );
    fc.assert(
      fc.property(fc.array(list, { minLength: 1, maxLength: 8 }), (lists) => {
        const state = emptyPlayState();
        const events: GameEvent[] = [];
        let last: PlayRow[] = [];
        for (const [ids, edits] of lists) {
          last = ids.map((n, i) => playRow(n, edits[i] ? { text: `edited ${n}` } : {}));
          events.push(...asEvents(step(state, last)));
        }
        expect(reconstructPlays(events)).toEqual(last);
      }),
      { numRuns: 300 },
    );
  });
});

describe('sameRawPlay', () => {
  it('notices a change in the source of every plays column', () => {
    const base = rawPlay(3);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw ESPN JSON
    const mutations: Array<[string, (p: Record<string, any>) => void]> = [
      ['id', (p) => (p.id = 'x')],
      ['sequence_number', (p) => (p.sequenceNumber = '77')],
      ['text', (p) => (p.text = 'other')],
      ['away_score', (p) => (p.awayScore = 99)],
      ['home_score', (p) => (p.homeScore = 99)],
      ['scoring_play', (p) => (p.scoringPlay = !p.scoringPlay)],
      ['score_value', (p) => (p.scoreValue = 3)],
      ['participants', (p) => (p.participants = [{ athlete: { id: '1' } }])],
      ['wallclock', (p) => (p.wallclock = '2025-01-01T00:00:00Z')],
      ['shooting_play', (p) => (p.shootingPlay = !p.shootingPlay)],
      ['points_attempted', (p) => (p.pointsAttempted = 2)],
      ['short_description', (p) => (p.shortDescription = 'x')],
      ['type_id', (p) => (p.type = { ...p.type, id: '1' })],
      ['type_text', (p) => (p.type = { ...p.type, text: 'x' })],
      ['period_number', (p) => (p.period = { ...p.period, number: 2 })],
      ['period_display_value', (p) => (p.period = { ...p.period, displayValue: 'x' })],
      ['clock_display_value', (p) => (p.clock = { displayValue: '1:00' })],
      ['team_id', (p) => (p.team = { id: '9' })],
      ['coordinate_x', (p) => (p.coordinate = { ...p.coordinate, x: 1 })],
      ['coordinate_y', (p) => (p.coordinate = { ...p.coordinate, y: 1 })],
    ];
    const [before] = parsePlays({ plays: [base] });
    for (const [column, mutate] of mutations) {
      const copy = structuredClone(base);
      mutate(copy);
      const [after] = parsePlays({ plays: [copy] });
      // The mutation really changes that column, and the cheap check sees it.
      expect((after as unknown as Record<string, unknown>)[column], column).not.toEqual(
        (before as unknown as Record<string, unknown>)[column],
      );
      expect(sameRawPlay(base, copy), column).toBe(false);
    }
    expect(sameRawPlay(base, structuredClone(base))).toBe(true);
    expect(mutations.map(([c]) => c).sort()).toEqual(Object.keys(before as object).sort());
  });
});
