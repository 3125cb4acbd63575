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

/** Growth of RSS after the first 10% of the samples, as a fraction of the 10% mark's value. */
export function rssGrowthAfterWarmup(samples: readonly number[]): number {
  const live = samples.filter((s) => s > 0);
  if (live.length < 2) return 0;
  const mark = live[Math.floor(live.length / 10)] ?? live[0] ?? 1;
  const rest = live.slice(Math.floor(live.length / 10));
  // The median of the last tenth, so a single GC-timing spike does not decide the verdict.
  const tail = rest.slice(-Math.max(1, Math.floor(rest.length / 10))).sort((a, b) => a - b);
  const end = tail[Math.floor(tail.length / 2)] ?? mark;
  return (end - mark) / mark;
}
