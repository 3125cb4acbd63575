/** The most of `times` (ms) that fall within any one second: a rate limit's worst second. */
export function maxInAnySecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}
