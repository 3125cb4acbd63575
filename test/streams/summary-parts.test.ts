import { describe, expect, it } from 'vitest';
import {
  SUMMARY_READ_PARTS,
  SUMMARY_UNREAD_PARTS,
  partOf,
  readsPointer,
} from '../../src/espn/summary-parts.js';
import type { League } from '../../src/core/leagues.js';
import { parsePlays } from '../../src/tables/index.js';
import { diffSummary } from '../../streams/game-diff.js';
import { newGameState } from '../../streams/diff-state.js';
import type { RawPlay } from '../../streams/play-fingerprint.js';
import { reconcileSummary } from '../../streams/summary-merge.js';
import { FIXTURES_DIR, HAVE_FIXTURES, listFixtures, loadFixture, itRecorded } from '../support/fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- ESPN's raw JSON is free-form */

const summaries = listFixtures().filter((f) => f.suffix === 'summary');
const only = (doc: any, keep: (part: string) => boolean): any =>
  Object.fromEntries(Object.entries(doc).filter(([k]) => keep(k)));

/** What the engine makes of a summary, from a fresh game state: events, stored delta, snapshot. */
function outcome(raw: unknown, league: League, gameId: string): string {
  const d = diffSummary(newGameState(league, gameId), raw, {
    now: Date.UTC(2025, 0, 1),
    toRows: (plays: readonly RawPlay[]) => parsePlays({ plays }),
    where: 'test',
  });
  if (d.kind === 'stale') return 'stale';
  return JSON.stringify({ events: d.events, delta: d.delta, snapshot: d.snapshot });
}

describe('the summary parts courtside reads', () => {
  it('places a pointer in its top-level part', () => {
    expect(partOf('/odds/0/details')).toBe('odds');
    expect(partOf('/a~1b~0c/x')).toBe('a/b~c');
    expect(partOf('/plays')).toBe('plays');
    expect(partOf('')).toBeNull();
    expect(partOf('plays/0')).toBeNull();
    expect(readsPointer('/header/id')).toBe(true);
    expect(readsPointer('')).toBe(true);
    expect(readsPointer('/pickcenter/0')).toBe(false);
    for (const part of SUMMARY_UNREAD_PARTS) expect(SUMMARY_READ_PARTS.has(part)).toBe(false);
  });

  itRecorded(!HAVE_FIXTURES || summaries.length === 0)(
    'give the same events, state and snapshot as the whole summary, for every recorded summary',
    () => {
      let compared = 0;
      for (const f of summaries) {
        const raw: any = loadFixture(f.file.slice(FIXTURES_DIR.length + 1));
        const gameId = String(raw?.header?.id ?? '');
        let whole: string;
        try {
          whole = outcome(raw, f.league, gameId);
        } catch {
          continue; // a summary the engine refuses as a whole (no header) says nothing here
        }
        const dropped = Object.keys(raw).filter((k) => !SUMMARY_READ_PARTS.has(k));
        expect(dropped.length, f.file).toBeGreaterThan(0);
        expect(
          outcome(
            only(raw, (k) => SUMMARY_READ_PARTS.has(k)),
            f.league,
            gameId,
          ),
          f.file,
        ).toBe(whole);
        // The reconciliation of a polled summary against a pushed one reads no other part either.
        const polled = { ...raw, plays: (raw.plays ?? []).slice(0, -1) };
        const fromWhole = reconcileSummary(raw, polled, 'test');
        const fromRead = reconcileSummary(
          only(raw, (k) => SUMMARY_READ_PARTS.has(k)),
          polled,
          'test',
        );
        expect([fromRead.pollWins, fromRead.added], f.file).toEqual([fromWhole.pollWins, fromWhole.added]);
        compared++;
      }
      expect(compared).toBeGreaterThan(3);
    },
  );
});
