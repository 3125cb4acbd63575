import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes, from `/proc/<pid>/status` (VmRSS); 0 when gone. */
export function readRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Growth of RSS after the first 10% of the run: the median of the last tenth of the samples against
 * the median of the tenth after the first (10%-20%). Medians of windows, not single samples: with
 * V8's old generation RSS is a sawtooth (tens of MB between major collections), and one sample
 * would measure where the sawtooth happened to be.
 */
export function rssGrowthAfterWarmup(samples: readonly number[]): number {
  const live = samples.filter((s) => s > 0);
  const tenth = Math.floor(live.length / 10);
  if (tenth < 1) return 0;
  const median = (window: number[]): number =>
    window.sort((a, b) => a - b)[Math.floor(window.length / 2)] ?? 0;
  const start = median(live.slice(tenth, 2 * tenth));
  const end = median(live.slice(-tenth));
  return start > 0 ? (end - start) / start : 0;
}
