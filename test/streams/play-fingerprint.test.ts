import { describe, expect, it } from 'vitest';
import { rawPlayId } from '../../streams/play-fingerprint.js';

describe('rawPlayId', () => {
  it('reads a string or numeric id as text', () => {
    expect(rawPlayId({ id: '4015856070101' })).toBe('4015856070101');
    expect(rawPlayId({ id: 42 })).toBe('42');
  });

  it('is null for a play without an id, an id of another kind, or no play at all', () => {
    expect(rawPlayId({ text: 'Jump ball' })).toBeNull();
    expect(rawPlayId({ id: { value: 1 } })).toBeNull();
    expect(rawPlayId(null)).toBeNull();
    expect(rawPlayId([{ id: '1' }])).toBeNull();
  });
});
