import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startApi, type ApiHarness } from './helpers.js';

describe(`HTTP API with bearer tokens`, () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({ tokens: ['tok-one', 'tok-two'] });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers 401 without a valid token, and nothing goes upstream', async () => {
    api.upstream.requests.clear();
    for (const headers of [{}, { authorization: 'Bearer wrong' }] as Array<Record<string, string>>) {
      const res = await fetch(`${api.url}/v1/ops/mens_news`, { headers });
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    expect((await fetch(`${api.url}/v1/ops/mens_news?token=nope`)).status).toBe(401);
    expect(api.upstream.requests.count()).toBe(0);
  });

  it('serves with a token in the Authorization header or in ?token=', async () => {
    const header = await fetch(`${api.url}/v1/ops/mens_news`, {
      headers: { authorization: 'Bearer tok-two' },
    });
    expect(header.status).toBe(200);
    // Behind a token, no shared cache may keep the answer.
    expect(header.headers.get('cache-control')).toBe('private, max-age=300');
    expect(Array.isArray(await header.json())).toBe(true);
    // `token` is the server's parameter, not the operation's: it must not be refused as unknown.
    const query = await fetch(`${api.url}/v1/ops/mens_news?limit=2&token=tok-one`);
    expect(query.status).toBe(200);
    await query.arrayBuffer();
    const doc = (await (await fetch(`${api.url}/openapi.json?token=tok-one`)).json()) as {
      security?: unknown;
    };
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });
});
