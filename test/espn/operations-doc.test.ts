import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { renderOperationsDoc } from '../../src/espn/operations-doc.js';
import { OPERATION_NAMES } from '../../src/espn/operations.js';

const DOC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'operations.md');

describe('docs/operations.md', () => {
  it('equals the output of npm run docs:operations', async () => {
    const config = (await resolveConfig(DOC)) ?? {};
    const generated = await format(renderOperationsDoc(), { ...config, filepath: DOC });
    // On failure: run `npm run docs:operations` and commit the result.
    expect(readFileSync(DOC, 'utf8')).toBe(generated);
  });

  it('has a section with an example for every operation', () => {
    const doc = renderOperationsDoc();
    for (const name of OPERATION_NAMES) {
      expect(doc).toContain(`## ${name}\n`);
      expect(doc).toContain(`courtside op ${name}`);
      expect(doc).toContain(`client.${name}(`);
    }
    expect(doc).toContain('courtside op mens_summary --event-id 401585607 --table plays --format csv');
    expect(doc).toContain('`season_type` | query `seasontype`');
  });
});
