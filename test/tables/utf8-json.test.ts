import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8JsonWriter } from '../../src/tables/utf8-json.js';

const decoder = new TextDecoder();

/** What the writer wrote for `value`, or undefined when it declined it. */
function written(value: unknown, capacity?: number): Uint8Array | undefined {
  const writer = new Utf8JsonWriter(capacity);
  return writer.json(value) ? writer.bytes.slice(0, writer.pos) : undefined;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// Strings of any UTF-16 code units: lone surrogates, controls, quotes and backslashes included.
const anyString = fc.string({ unit: 'binary' });
const anyText = fc.oneof(
  anyString,
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', 'é', '\ud83c', '\udfc0', 'a') }),
);

describe('Utf8JsonWriter.json', () => {
  it('writes the UTF-8 bytes of JSON.stringify for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(written(value)).toEqual(utf8(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('escapes strings as JSON.stringify does, lone surrogates and controls included', () => {
    fc.assert(
      fc.property(fc.array(anyText), fc.dictionary(anyText, anyText), (list, record) => {
        expect(written(list)).toEqual(utf8(JSON.stringify(list)));
        expect(written(record)).toEqual(utf8(JSON.stringify(record)));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps JSON.stringify key order (integer keys first) and drops what JSON cannot hold', () => {
    const value = {
      b: 1,
      2: 'two',
      a: [undefined, () => 0, Symbol('s'), NaN, -0, 1e21],
      1: null,
      u: undefined,
      f: () => 1,
    };
    expect(decoder.decode(written(value))).toBe(JSON.stringify(value));
    const bare = Object.assign(Object.create(null) as object, { x: 1 });
    expect(decoder.decode(written(bare))).toBe('{"x":1}');
  });

  it('grows its buffer from a tiny one', () => {
    const value = { text: 'é'.repeat(1000), list: Array.from({ length: 200 }, (_, i) => ({ i })) };
    expect(written(value, 1)).toEqual(utf8(JSON.stringify(value)));
  });

  it('declines what only JSON.stringify can write, leaving its position unchanged', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const declined = [
      new Date(0),
      { when: new Date(0) },
      [new String('boxed')],
      { toJSON: () => 'custom' },
      { n: 1n },
      cyclic,
      new (class Point {
        x = 1;
      })(),
    ];
    for (const value of declined) {
      const writer = new Utf8JsonWriter();
      writer.text('kept');
      expect(writer.json(value)).toBe(false);
      expect(writer.pos).toBe(4);
    }
  });

  it('leaves everything to JSON.stringify while a shared prototype has a toJSON', () => {
    const proto = Object.prototype as { toJSON?: () => unknown };
    proto.toJSON = () => 'everything';
    try {
      expect(written({ a: 1 })).toBeUndefined();
    } finally {
      delete proto.toJSON;
    }
    expect(written({ a: 1 })).toEqual(utf8('{"a":1}'));
  });

  it('leaves everything to JSON.stringify while Object.prototype has an enumerable key', () => {
    const proto = Object.prototype as { inherited?: number };
    proto.inherited = 1;
    try {
      // for...in would walk the inherited key; JSON.stringify leaves it out.
      expect(written({ a: 1 })).toBeUndefined();
    } finally {
      delete proto.inherited;
    }
  });
});

describe('Utf8JsonWriter.text', () => {
  it('writes the bytes TextEncoder writes, lone surrogates as U+FFFD', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const writer = new Utf8JsonWriter(1);
        writer.text(text);
        expect(writer.bytes.slice(0, writer.pos)).toEqual(utf8(text));
      }),
      { numRuns: 500 },
    );
  });
});
