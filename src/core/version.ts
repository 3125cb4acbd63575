import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// Read at run time so the version has one source: package.json (two levels up from dist/src too).
function readVersion(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(path) as { name?: string; version?: string };
      if (pkg.name === 'courtside' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION: string = readVersion();
export const PROJECT_URL = 'https://github.com/courtside-dev/courtside';
export const DEFAULT_USER_AGENT = `courtside/${VERSION} (+${PROJECT_URL})`;
