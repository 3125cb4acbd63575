import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { expect, it } from 'vitest';
import { alertExamplesSection, currentSection } from '../../../scripts/alert-examples-doc.js';
import { RULE_NAMES } from '../../../workers/rules-file.js';
import { HAVE_FIXTURES, describeRecorded } from '../../support/fixtures.js';

const DOC = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'), 'docs', 'alerts.md');

describeRecorded(!HAVE_FIXTURES)(`docs/alerts.md message examples`, () => {
  it('are what the code renders for the recorded games (npx tsx scripts/alert-examples-doc.ts)', async () => {
    const generated = await format(await alertExamplesSection(), { parser: 'markdown', printWidth: 110 });
    expect(currentSection(readFileSync(DOC, 'utf8'))).toBe(generated.trim());
    // An example of every rule, and both leagues.
    for (const rule of RULE_NAMES) {
      expect(generated).toContain(`#### \`${rule}\``);
    }
    expect(generated).toMatch(/^NBA, /m);
    expect(generated).toMatch(/^WNBA, /m);
  }, 60_000);
});
