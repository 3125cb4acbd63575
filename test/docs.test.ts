import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/model/events.js';
import {
  VIEWER_ERROR_CODES as CLIENT_ERROR_CODES,
  VIEWER_OPS as CLIENT_OPS,
} from '../src/server/viewer-protocol.js';
import { SERVER_FRAME_TYPES } from '../src/server/delivery/frames.js';
import { ROOT } from './cli/harness.js';

/**
 * What the docs say that the code knows: the list of event types, the files a new event type
 * goes in, and that no page sends its reader to a document outside the repository.
 */
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name).slice(ROOT.length + 1));
}

describe('docs/protocol.md', () => {
  it('lists exactly the event types of EVENT_TYPES, in their order', () => {
    const item = /^- `types`: event types \(([^)]*)\)/m.exec(read('docs/protocol.md'))?.[1] ?? '';
    const listed = [...item.matchAll(/`([a-z]+\.[a-z]+)`/g)].map((m) => m[1]);
    expect(listed).toEqual([...EVENT_TYPES]);
  });
});

describe('docs/architecture.md, "an event type"', () => {
  const recipe = read('docs/architecture.md').split('### an event type')[1]?.split('\n### ')[0] ?? '';
  const named = [...recipe.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1] ?? '');

  it('names files that exist, twelve of them', () => {
    expect(named).toHaveLength(12);
    for (const path of named) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it('names every source file that handles the event types one by one', () => {
    // A file that names at least four in five of the types, each quoted, switches over them: a
    // new type belongs there too.
    const handlers = ['src', 'streams', 'workers'].flatMap(sourceFiles).filter((file) => {
      const text = read(file);
      const quoted = EVENT_TYPES.filter((t) => new RegExp(`['"\`]${t.replace('.', '\\.')}['"\`]`).test(text));
      return quoted.length >= EVENT_TYPES.length * 0.8;
    });
    expect(handlers.length).toBeGreaterThanOrEqual(6);
    expect(handlers.filter((file) => !named.includes(file))).toEqual([]);
  });
});

describe('README and docs/', () => {
  it('refer to no document outside the repository', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const outside = /\bthe spec\b|\bspec's\b|\(spec,|interface document|\.\.\/shared\b/i;
    const offending = pages.flatMap((page) =>
      read(page)
        .split('\n')
        .map((line, i) => ({ where: `${page}:${i + 1}`, line }))
        .filter(({ line }) => outside.test(line)),
    );
    expect(offending).toEqual([]);
  });
});

describe('docs/protocol.md, frames and error codes', () => {
  const page = read('docs/protocol.md');
  /** The first column of the table under a heading: its backticked names, in order. */
  const tableOf = (heading: string): string[] => {
    const section = page.split(`\n${heading}\n`)[1]?.split('\n#')[0] ?? '';
    return [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((m) => m[1] ?? '');
  };

  it('lists exactly the client operations of CLIENT_OPS', () => {
    expect(tableOf('### Client → server')).toEqual([...CLIENT_OPS]);
  });

  it('lists exactly the server frame types of SERVER_FRAME_TYPES', () => {
    expect(tableOf('### Server → client')).toEqual([...SERVER_FRAME_TYPES]);
  });

  it('lists exactly the error codes of CLIENT_ERROR_CODES', () => {
    expect(tableOf('### Errors').sort()).toEqual([...CLIENT_ERROR_CODES].sort());
  });
});
