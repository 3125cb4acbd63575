import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/core/suggest.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['', 'abc', 3],
    ['lead_chnage', 'lead_change', 1],
    ['final_scor', 'final_score', 1],
    ['kitten', 'sitting', 3],
  ])('%j to %j is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('closest', () => {
  const names = ['lead_change', 'final_score', 'close_game', 'run'];
  it('finds a slip of the keyboard, whatever the case', () => {
    expect(closest('lead_chnage', names)).toBe('lead_change');
    expect(closest('FINAL_SCORE', names)).toBe('final_score');
    expect(closest('rum', names)).toBe('run');
  });
  it('suggests nothing for a word that is not close to any', () => {
    expect(closest('webhook', names)).toBeUndefined();
    expect(closest('xy', names)).toBeUndefined();
  });
});
