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
 * Where a process's resident memory is, in MiB, from `/proc/<pid>/smaps`: `brk`, the C heap's main
 * arena (memory glibc keeps once its heap is fragmented shows here); `anon`, other anonymous
 * mappings (V8's heap pages, other malloc arenas, large blocks); `file`, the binary and libraries.
 * Empty when the process is gone.
 */
export function readMemoryMap(pid: number): { brk: number; anon: number; file: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = { brk: 0, anon: 0, file: 0 };
  let kind: keyof typeof kb = 'anon';
  for (const line of text.split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1] ?? '';
      kind = name === '[heap]' ? 'brk' : name === '' ? 'anon' : 'file';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[kind] += Number(rss[1]);
  }
  return {
    brk: Math.round(kb.brk / 1024),
    anon: Math.round(kb.anon / 1024),
    file: Math.round(kb.file / 1024),
  };
}

/**
 * Growth of RSS after the first 10% of the run: the median of the last tenth of the samples against
 * the median of the tenth after the first (10%-20%). Medians of windows, not single samples: with
 * V8's old generation RSS is a sawtooth (tens of MB between major collections), and one sample
 * would measure where the sawtooth happened to be.
 */
export function rssGrowthAfterWarmup(samples: readonly number[]): number {
  const tenths = rssTenths(samples);
  const start = tenths[1] ?? 0;
  const end = tenths[9] ?? 0;
  return start > 0 ? (end - start) / start : 0;
}

/** The median of each tenth of the samples (empty with fewer than ten): the run's curve. */
export function rssTenths(samples: readonly number[]): number[] {
  const live = samples.filter((s) => s > 0);
  const tenth = Math.floor(live.length / 10);
  if (tenth < 1) return [];
  const median = (window: number[]): number =>
    window.sort((a, b) => a - b)[Math.floor(window.length / 2)] ?? 0;
  // The last tenth is the last samples, as many as in each other tenth.
  return Array.from({ length: 10 }, (_, i) =>
    median(i === 9 ? live.slice(-tenth) : live.slice(i * tenth, (i + 1) * tenth)),
  );
}
