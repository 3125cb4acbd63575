import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

/** A stream that records what is written, with the terminal flag the progress bar checks. */
function stream(isTTY: boolean): { out: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callback();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(out, { isTTY, columns: 80 });
  return { out, written };
}

describe('createProgress', () => {
  it('draws nothing when stderr is not a terminal', () => {
    const { out, written } = stream(false);
    const bar = createProgress(3, out);
    bar.tick('a');
    bar.done();
    expect(written).toEqual([]);
  });

  it('redraws one line in place with the count and label, and ends it on done', () => {
    const { out, written } = stream(true);
    const bar = createProgress(4, out);
    bar.tick('mens_scoreboard');
    expect(written[0]).toBe(`\r${'█'.repeat(7)}${'░'.repeat(21)} 1/4 mens_scoreboard\x1b[K`);
    for (let i = 0; i < 3; i++) bar.tick('x');
    // The last tick always draws, whatever the redraw throttle says.
    expect(written.at(-1)).toBe(`\r${'█'.repeat(28)} 4/4 x\x1b[K`);
    bar.done();
    expect(written.at(-1)).toBe('\n');
  });

  it('throttles redraws of fast work but never counts past the total', () => {
    const { out, written } = stream(true);
    const bar = createProgress(1_000, out);
    for (let i = 0; i < 1_200; i++) bar.tick();
    // 1,000 ticks within a few ms draw a handful of frames, not a thousand.
    expect(written.length).toBeLessThan(50);
    expect(written.at(-1)).toContain(' 1000/1000');
  });

  it('keeps the line within the terminal width', () => {
    const { out, written } = stream(true);
    Object.assign(out, { columns: 40 });
    createProgress(2, out).tick('a very long operation label that would wrap the line');
    expect(written[0]?.replace('\x1b[K', '').length).toBeLessThanOrEqual(39);
  });
});
