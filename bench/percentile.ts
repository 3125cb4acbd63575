/** The value at fraction `p` (0.5 for the median) of an ascending list; NaN for an empty one. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}
