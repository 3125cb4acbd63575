import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeFrames } from '../../../src/server/delivery/sink.js';

/** A stream that records each system-call-sized write it receives (`_write` or `_writev`). */
function recorder(): { out: Writable; calls: Buffer[][] } {
  const calls: Buffer[][] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      calls.push([chunk]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map((c) => c.chunk as Buffer));
      done();
    },
  });
  return { out, calls };
}

const frame = (bytes: number, fill: number): Buffer => Buffer.alloc(bytes, fill);

describe('writeFrames', () => {
  it.each([
    ['a small batch', 3, 100],
    ['a large batch', 500, 800],
  ])('writes %s in one writev of the frames themselves, not a copy', (_, count, bytes) => {
    const { out, calls } = recorder();
    const frames = Array.from({ length: count }, (_, i) => frame(bytes, i % 256));
    writeFrames(out, frames);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(count);
    // The very buffers given: a frame shared by a thousand clients stays one buffer.
    calls[0]?.forEach((chunk, i) => expect(chunk).toBe(frames[i]));
  });

  it('writes a single frame as it is', () => {
    const { out, calls } = recorder();
    const only = frame(64 * 1024, 7);
    writeFrames(out, [only]);
    expect(calls).toEqual([[only]]);
  });
});
