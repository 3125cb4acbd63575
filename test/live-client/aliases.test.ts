import { describe, expect, it } from 'vitest';
import * as lib from '../../src/live-client/courtside.js';

describe('client library names', () => {
  it('keeps the earlier names as aliases of LiveClient and LiveClientError', () => {
    expect(lib.Client).toBe(lib.LiveClient);
    expect(lib.CourtsideClientError).toBe(lib.LiveClientError);
    expect(new lib.LiveClientError('closed', 'x')).toBeInstanceOf(lib.CourtsideClientError);
  });
});
