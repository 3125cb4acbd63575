import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { collectRecordings, renderTablesDoc } from '../../src/tables/doc.js';
import { SCHEMA } from '../../src/tables/schema.js';
import { FIXTURES_DIR, HAVE_FIXTURES, itRecorded } from '../support/fixtures.js';

const target = join(import.meta.dirname, '..', '..', 'docs', 'tables.md');

describe('docs/tables.md', () => {
  const committed = readFileSync(target, 'utf8');

  it('lists every column of every declared table', () => {
    for (const groups of Object.values(SCHEMA)) {
      for (const group of groups) for (const name of group.names) expect(committed).toContain(`\`${name}\``);
    }
  });

  itRecorded(!HAVE_FIXTURES)('is current: `npm run docs:tables` would not change it', async () => {
    const config = (await resolveConfig(target)) ?? {};
    const fresh = await format(renderTablesDoc(collectRecordings(FIXTURES_DIR)), {
      ...config,
      filepath: target,
    });
    expect(committed, 'docs/tables.md is stale: run `npm run docs:tables`').toBe(fresh);
  });
});
