import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in the package's own package.json, read at run time so the version has one source.
 * This module runs from src/core (tsx), dist/src/core (built) and an installed package's copy of
 * either, so it walks up from its own folder to the nearest package.json named courtside rather
 * than assuming a depth; a package.json of another name on the way (an app that vendors this
 * folder) is passed over.
 */
export function packageVersion(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'courtside' && pkg.version) return pkg.version;
    } catch {
      // no readable package.json here: try the folder above
    }
    if (dirname(dir) === dir) return '0.0.0';
  }
}

export const VERSION: string = packageVersion();
export const PROJECT_URL = 'https://github.com/courtside-dev/courtside';
export const DEFAULT_USER_AGENT = `courtside/${VERSION} (+${PROJECT_URL})`;
