import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventDataFields } from '../scripts/event-model.js';
import { EVENT_TYPES } from '../src/model/events.js';
import { ROOT } from './cli/harness.js';

/**
 * docs/events.md against the model: under "Event types", every type has a section (`### `
 * heading naming it in a code span; one section may cover several types), and the section names
 * every field of the type's data, as a key of its JSON example (`"label":`) or in a code span of
 * its text (`` `moved` ``, `` `moved: true` ``).
 */
const page = readFileSync(join(ROOT, 'docs/events.md'), 'utf8');
const types = page.split('\n## Event types\n')[1]?.split('\n## ')[0] ?? '';
const sections = types
  .split('\n### ')
  .slice(1)
  .map((section) => ({
    heading: section.split('\n')[0] ?? '',
    body: section,
  }));

function sectionOf(type: string): string | undefined {
  return sections.find((s) => s.heading.includes(`\`${type}\``))?.body;
}

function documents(section: string, field: string): boolean {
  return section.includes(`"${field}":`) || new RegExp(`\`${field}[\`:]`).test(section);
}

describe('docs/events.md, "Event types"', () => {
  const fields = eventDataFields();

  it('has a section for every event type', () => {
    expect(EVENT_TYPES.filter((type) => sectionOf(type) === undefined)).toEqual([]);
  });

  for (const type of EVENT_TYPES) {
    it(`${type}: names every field of its data`, () => {
      const section = sectionOf(type) ?? '';
      const missing = (fields[type] ?? []).map((f) => f.name).filter((name) => !documents(section, name));
      expect(missing, `fields of ${type} that its section of docs/events.md does not name`).toEqual([]);
    });
  }
});
