import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The layer order of courtside's code, lowest first. A file may import files of its own layer and
 * of the layers before it, never of a later one, and never in a circle. Layers that share a rank
 * (server and workers) may not import each other: both sit on the engine's output and are
 * composed only by the daemon.
 */
export interface Layer {
  name: string;
  /** Path prefixes (files or folders) relative to the repository root. */
  paths: readonly string[];
  /** Layers of the same rank: neither may import the other. */
  rank: number;
}

export const LAYERS: readonly Layer[] = [
  { name: 'core', paths: ['src/core/'], rank: 0 },
  { name: 'model', paths: ['src/model/'], rank: 1 },
  // The client library: plain JavaScript for browsers and Node, importing nothing of courtside.
  { name: 'live-client', paths: ['src/live-client/'], rank: 2 },
  { name: 'espn', paths: ['src/espn/'], rank: 3 },
  { name: 'tables', paths: ['src/tables/'], rank: 4 },
  // The ESPN client: where an operation call meets its table form.
  { name: 'espn-client', paths: ['src/espn-client/'], rank: 5 },
  { name: 'bus', paths: ['src/bus/'], rank: 6 },
  { name: 'engine', paths: ['streams/'], rank: 7 },
  { name: 'server', paths: ['src/server/'], rank: 8 },
  { name: 'workers', paths: ['workers/'], rank: 8 },
  { name: 'daemon', paths: ['src/daemon/'], rank: 9 },
  // The simulator stands in for ESPN: only the command line (and the package entries) start it.
  { name: 'simulator', paths: ['src/simulator/'], rank: 10 },
  { name: 'cli', paths: ['src/cli/', 'src/cli.ts'], rank: 11 },
  { name: 'entry', paths: ['src/index.ts'], rank: 12 },
];

/** The folders whose files the check reads. */
export const CHECKED_ROOTS: readonly string[] = ['src', 'streams', 'workers'];

export interface Violation {
  kind: 'cycle' | 'layer' | 'unassigned';
  message: string;
}

export function layerOf(file: string, layers: readonly Layer[] = LAYERS): Layer | undefined {
  return layers.find((layer) => layer.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
}

/** Every `.ts` file below the checked roots, as repository-relative POSIX paths. */
export function listSources(root: string, roots: readonly string[] = CHECKED_ROOTS): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
        out.push(relative(root, path).split(sep).join('/'));
    }
  };
  for (const r of roots) walk(join(root, r));
  return out.sort();
}

/** The repository files a source file imports (relative specifiers only; packages are not layered). */
export function importsOf(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const out: string[] = [];
  for (const ref of info.importedFiles) {
    const spec = ref.fileName;
    if (!spec.startsWith('.')) continue;
    const target = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts');
    out.push(target);
  }
  return out;
}

export type ImportGraph = Map<string, string[]>;

export function buildGraph(root: string, files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files)
    graph.set(
      file,
      importsOf(root, file).filter((t) => known.has(t)),
    );
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function findCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

export function checkLayers(graph: ImportGraph, layers: readonly Layer[] = LAYERS): Violation[] {
  const violations: Violation[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file, layers);
    if (!from) {
      violations.push({
        kind: 'unassigned',
        message: `${file} belongs to no layer: add its folder to LAYERS`,
      });
      continue;
    }
    for (const target of targets) {
      const to = layerOf(target, layers);
      if (!to || to === from) continue;
      if (to.rank > from.rank || (to.rank === from.rank && to.name !== from.name)) {
        violations.push({
          kind: 'layer',
          message: `${file} (${from.name}) imports ${target} (${to.name}): ${from.name} may import only ${allowed(from, layers)}`,
        });
      }
    }
  }
  for (const cycle of findCycles(graph)) {
    violations.push({ kind: 'cycle', message: `import cycle: ${cycle.join(' → ')}` });
  }
  return violations;
}

function allowed(layer: Layer, layers: readonly Layer[]): string {
  const names = layers.filter((l) => l.rank < layer.rank).map((l) => l.name);
  return names.length === 0 ? 'itself' : names.join(', ');
}

/** The check as `npm run lint` runs it: prints each violation and returns how many there were. */
export function runCheck(root: string, out: (line: string) => void = console.error): number {
  const files = listSources(root);
  const violations = checkLayers(buildGraph(root, files));
  for (const v of violations) out(`check-layers: ${v.message}`);
  return violations.length;
}
