import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
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
    const projects = (config.test?.projects ?? []) as Array<{
      test?: { name?: string; include?: string[]; exclude?: string[] };
    }>;
    const unit = projects.find((p) => p.test?.name === 'unit')?.test;
    const integration = projects.find((p) => p.test?.name === 'integration')?.test;
    expect(unit?.include).toEqual(['test/**/*.test.ts']);
    expect(integration?.include).toEqual([...INTEGRATION_FILES]);
    for (const file of INTEGRATION_FILES) expect(unit?.exclude).toContain(file);
    // Only the integration files and the full soak are left out of npm test.
    const all = testFiles('test');
    const inUnit = all.filter((f) => !INTEGRATION_FILES.includes(f) && !f.endsWith('.long.test.ts'));
    expect(inUnit.length + INTEGRATION_FILES.length + 1).toBe(all.length);
    expect(inUnit).toContain('test/scripts/suites.test.ts');
  });

  it('npm test and npm run test:integration run the two projects', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.test).toBe('vitest run --project unit');
    expect(scripts['test:integration']).toBe('vitest run --project integration');
  });
});
