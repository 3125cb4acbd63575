import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds `dist/` once before the integration suite. Its tests run what users run: the README's
 * examples import `courtside/client`, which resolves to the built package, and a fresh clone's
 * `npm ci` no longer builds (the build runs on `prepack`, so an installed tarball lists no install
 * script).
 */
export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
}
