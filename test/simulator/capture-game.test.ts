import { describe, expect, it } from 'vitest';
import { CAPTURE_FORMAT, type Capture, type CaptureEntry } from '../../src/espn/fastcast-capture.js';
import { encodePatchPayload } from '../../src/espn/fastcast-wire.js';
import { createCaptureGame } from '../../src/simulator/capture-game.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */

/** The game of a capture: its document at any moment, asked in any order, across many patches. */

const TOPIC = 'gp-basketball-nba-401000002';

function summary(plays: string[]): Record<string, unknown> {
  const side = (homeAway: string, id: string) => ({ homeAway, score: '0', team: { id, abbreviation: id } });
  return {
    header: {
      id: '401000002',
      competitions: [
        {
          status: { period: 1, displayClock: '12:00', type: { state: 'in', name: 'STATUS_IN_PROGRESS' } },
          competitors: [side('home', '1'), side('away', '2')],
        },
      ],
    },
    plays: plays.map((id) => ({ id })),
  };
}

function capture(entries: CaptureEntry[]): Capture {
  const header = {
    format: CAPTURE_FORMAT,
    version: 1,
    league: 'mens',
    game: '401000002',
    topic: TOPIC,
    startedAt: 0,
    discoveryUrl: 'x',
    upstream: 'y',
    courtside: 'test',
  } as const;
  return { header, entries, truncated: false };
}

const frame = (t: number, op: string, mid: number, pl: unknown): CaptureEntry => ({
  t,
  kind: 'received',
  frame: JSON.stringify({ op, tc: TOPIC, mid, pl }),
});

describe('a capture game', () => {
  it('answers each moment with the checkpoint and the patches received by then, in any order of asking', () => {
    const url = 'https://cdn.example/cp.json';
    const entries: CaptureEntry[] = [
      frame(1, 'H', 1, url),
      // A patch that cannot apply is skipped here: the site API side only stands in for ESPN's.
      frame(2, 'R', 2, encodePatchPayload([{ op: 'remove', path: '/odds/0' }], 2, false)),
      { t: 3, kind: 'checkpoint', url, body: { pl: summary([]) } },
    ];
    for (let i = 1; i <= 80; i++)
      entries.push(
        frame(
          10 * i,
          'P',
          i + 2,
          encodePatchPayload([{ op: 'add', path: '/plays/-', value: { id: `p${i}` } }], 10 * i, i % 2 === 0),
        ),
      );
    // Another topic's frame and an undecodable payload change nothing.
    entries.push({
      t: 805,
      kind: 'received',
      frame: JSON.stringify({ op: 'P', tc: 'other', mid: 1, pl: '[]' }),
    });
    entries.push(frame(806, 'P', 90, '{"~c":1,"pl":"not base64 zlib"}'));
    const game = createCaptureGame(capture(entries), {
      startAt: 1_000,
      speed: 1,
      clock: { at: (now) => now - 1_000, subscribed: () => undefined },
    });
    const playsAt = (ms: number): number => (game.summary(1_000 + ms).plays as unknown[]).length;
    // The wrapped checkpoint ({"pl": document}) unwrapped; moments asked out of order.
    for (const ms of [0, 3, 805, 9, 10, 555, 559, 560, 240, 799, 800, 100_000, 15]) {
      expect(playsAt(ms), `at ${ms} ms`).toBe(Math.min(80, Math.floor(ms / 10)));
    }
    expect((game.final.plays as any[]).map((p) => p.id)).toEqual(
      Array.from({ length: 80 }, (_, i) => `p${i + 1}`),
    );
    expect(game.state(1_000 + 555)).toMatchObject({ state: 'in', period: 1, revealed: 55, totalPlays: 80 });
    expect(game.endAt).toBe(1_000 + 806);
  });
});
