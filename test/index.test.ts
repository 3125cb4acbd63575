import { describe, expect, expectTypeOf, it } from 'vitest';
import * as entry from '../src/index.js';
import type { ClientOptions, CourtsideClient, EspnClient, EspnClientOptions } from '../src/index.js';

describe('package entry', () => {
  it('keeps the earlier names of the ESPN client as aliases of the new ones', () => {
    expect(entry.createClient).toBe(entry.createEspnClient);
    expectTypeOf<CourtsideClient>().toEqualTypeOf<EspnClient>();
    expectTypeOf<ClientOptions>().toEqualTypeOf<EspnClientOptions>();
  });
});
