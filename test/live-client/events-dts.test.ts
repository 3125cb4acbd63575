import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENTS_DTS, renderEventsDts } from '../../scripts/events-dts.js';

describe('src/live-client/events.d.ts', () => {
  it('equals what npm run gen:events-dts prints from the model', async () => {
    const generated = await renderEventsDts();
    expect(
      readFileSync(EVENTS_DTS, 'utf8') === generated,
      'src/live-client/events.d.ts differs from the model: run `npm run gen:events-dts` and commit the result',
    ).toBe(true);
  }, 30_000);

  it('imports nothing, so that the library ships without the daemon', async () => {
    const generated = await renderEventsDts();
    expect(generated).not.toMatch(/^\s*import\b/m);
    expect(generated).toContain(
      "export type League = 'mens' | 'womens' | 'mens-college' | 'womens-college';",
    );
    expect(generated).not.toContain('SnapshotSource');
  }, 30_000);
});
