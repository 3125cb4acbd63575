import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The client library (`src/live-client/`) as one ES module, for a page that imports it from the
 * daemon or a user who saves the one file next to their page. The library is kept in small
 * modules for its readers; joining them needs no bundler because they follow three rules that
 * this join relies on (and checks): sibling modules are imported by name only
 * (`import { a } from './x.js'`), an import ends with `;` on its own statement, and top-level
 * names are unique across the modules.
 */

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'\.\/([\w-]+\.js)';\n/gm;
const RE_EXPORT = /^export\s*\{([^}]*)\}\s*from\s*'\.\/([\w-]+\.js)';\n/gm;
const TOP_LEVEL_EXPORT = /^export (?=(?:async )?(?:function|class|const|let) )/gm;
const ANY_RELATIVE = /^(?:import|export)\b[^;]*?from\s*'\.\//m;

export class ClientBundleError extends Error {
  readonly code = 'CLIENT_BUNDLE';
}

/** The modules reachable from `entry`, each after the ones it imports. */
function moduleOrder(dir: string, entry: string): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string): void => {
    if (order.includes(name)) return;
    if (visiting.has(name)) throw new ClientBundleError(`client library: import cycle through ${name}`);
    visiting.add(name);
    const text = readFileSync(join(dir, name), 'utf8');
    for (const pattern of [IMPORT, RE_EXPORT]) {
      for (const match of text.matchAll(pattern)) visit(match[2]!);
    }
    visiting.delete(name);
    order.push(name);
  };
  visit(entry);
  return order;
}

/**
 * Joins the library's modules into one: each sibling import is dropped (its module comes earlier
 * in the file), the entry's re-exports become plain `export { ... }` of the joined names, and
 * only the entry keeps its own `export` keywords, so the one module exports what the entry does.
 */
export function bundleClientLibrary(dir: string, entry = 'courtside.js'): string {
  const parts = moduleOrder(dir, entry).map((name) => {
    let text = readFileSync(join(dir, name), 'utf8')
      .replace(IMPORT, '')
      .replace(RE_EXPORT, (_all, names: string) => (name === entry ? `export {${names}};\n` : ''));
    if (name !== entry) text = text.replace(TOP_LEVEL_EXPORT, '');
    if (ANY_RELATIVE.test(text)) {
      throw new ClientBundleError(`client library: ${name} imports a sibling in a form the join cannot read`);
    }
    return `// ---- ${name}\n${text}`;
  });
  return `// courtside client library, one module (joined from src/live-client/)\n${parts.join('\n')}`;
}
