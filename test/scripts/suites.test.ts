import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import unitConfig from '../../vitest.config.js';
import { INTEGRATION_FILES } from '../../vitest.integration.config.js';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the two suites', () => {
  it('the integration list names files that exist, each once', () => {
    for (const file of INTEGRATION_FILES) expect(existsSync(join(ROOT, file)), file).toBe(true);
    expect(new Set(INTEGRATION_FILES).size).toBe(INTEGRATION_FILES.length);
  });

  it('npm test takes every other test file, so a new one lands there', () => {
    const exclude = unitConfig.test?.exclude ?? [];
    expect(unitConfig.test?.include).toEqual(['test/**/*.test.ts']);
    for (const file of INTEGRATION_FILES) expect(exclude).toContain(file);
    // Only the integration files and the full soak are left out.
    const all = testFiles('test').map((f) => relative(ROOT, join(ROOT, f)));
    const unit = all.filter((f) => !INTEGRATION_FILES.includes(f) && !f.endsWith('.long.test.ts'));
    expect(unit.length + INTEGRATION_FILES.length + 1).toBe(all.length);
    expect(unit).toContain('test/scripts/suites.test.ts');
  });
});
