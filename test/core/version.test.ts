import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageVersion, VERSION } from '../../src/core/version.js';
import { ROOT } from '../cli/harness.js';

describe('packageVersion', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tree = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'courtside-version-'));
    dirs.push(dir);
    return dir;
  };

  it('is the version in the repository’s package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(VERSION).not.toBe('0.0.0');
  });

  it('walks up any number of folders to the nearest package.json named courtside', () => {
    const root = tree();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'courtside', version: '9.8.7' }));
    // A package of another name on the way (a vendored copy's folder) is passed over.
    mkdirSync(join(root, 'dist', 'src'), { recursive: true });
    writeFileSync(join(root, 'dist', 'package.json'), JSON.stringify({ name: 'other', version: '1.0.0' }));
    const deep = join(root, 'dist', 'src', 'core', 'a', 'b');
    mkdirSync(deep, { recursive: true });
    expect(packageVersion(deep)).toBe('9.8.7');
  });

  it('is 0.0.0 when no package.json named courtside is found up to the root', () => {
    const root = tree();
    writeFileSync(join(root, 'package.json'), '{ not json');
    expect(packageVersion(root)).toBe('0.0.0');
  });
});
