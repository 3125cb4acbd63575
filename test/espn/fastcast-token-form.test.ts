import { describe, expect, it } from 'vitest';
import { createTokenForms } from '../../src/espn/fastcast-token-form.js';

describe('the token forms', () => {
  it('tries the encoded form once after the given one is refused, and keeps the form accepted', () => {
    const f = createTokenForms();
    expect(f.next()).toBe('given');
    expect(f.refused('given', 'a/b=')).toBe(true);
    expect(f.next()).toBe('encoded');
    expect(f.refused('encoded', 'a/b=')).toBe(false);
    expect(f.next()).toBe('given');
    expect(f.refused('given', 'a/b=')).toBe(true);
    expect(f.accepted('encoded')).toBe(true);
    expect(f.accepted('encoded')).toBe(false);
    // Known now: a later refusal (an expired token) tries nothing else.
    expect(f.refused('encoded', 'a/b=')).toBe(false);
    expect(f.next()).toBe('encoded');
  });

  it('does not try again a token that encoding leaves as it was', () => {
    const f = createTokenForms();
    expect(f.refused('given', 'abc_-XYZ09')).toBe(false);
    expect(f.next()).toBe('given');
  });
});
