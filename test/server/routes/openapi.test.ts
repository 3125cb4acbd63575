import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/espn/operations.js';
import { buildOpenApi } from '../../../src/server/routes/index.js';

import { startApi, type ApiHarness } from './helpers.js';

type Json = Record<string, unknown>;

/** Every `$ref` in the document, as a list of JSON pointers. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refs(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refs(value, out);
    }
  }
  return out;
}

function resolve(doc: Json, pointer: string): unknown {
  expect(pointer.startsWith('#/')).toBe(true);
  return pointer
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Json)[part] : undefined),
      doc,
    );
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with a path for each operation and the fixed endpoints', () => {
    const doc = buildOpenApi();
    expect(doc.openapi).toBe('3.1.0');
    const paths = doc.paths as Record<string, Json>;
    for (const name of OPERATIONS.keys()) expect(paths[`/v1/ops/${name}`]).toBeDefined();
    expect(Object.keys(paths).filter((p) => p.startsWith('/v1/ops/'))).toHaveLength(OPERATIONS.size);
    for (const p of [
      '/v1/games/live',
      '/v1/games/{league}/{gameId}',
      '/healthz',
      '/metrics',
      '/v1/stream',
      '/v1/stream/sse',
    ]) {
      expect(paths[p]).toBeDefined();
    }
  });

  it('resolves every $ref, declares every path template parameter and uses unique operation ids', () => {
    const doc = buildOpenApi({ auth: true });
    for (const pointer of refs(doc)) expect(resolve(doc, pointer), pointer).toBeDefined();
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const get = item.get as Json;
      expect(get.responses).toBeDefined();
      const id = get.operationId as string;
      expect(ids.has(id)).toBe(false);
      ids.add(id);
      const declared = ((get.parameters ?? []) as Json[]).filter((p) => p.in === 'path').map((p) => p.name);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(declared.sort()).toEqual(templated.sort());
    }
  });

  it('lists each operation parameter under its client name, path parameters required', () => {
    const doc = buildOpenApi();
    const op = (doc.paths as Record<string, { get: { parameters: Json[] } }>)['/v1/ops/mens_team_schedule'];
    const params = op?.get.parameters ?? [];
    expect(params.find((p) => p.name === 'team_id')).toMatchObject({ in: 'query', required: true });
    expect(params.find((p) => p.name === 'season')).toMatchObject({ in: 'query', required: false });
    expect(params.find((p) => p.name === 'format')).toBeDefined();
    const scoreboard = (doc.paths as Record<string, { get: { parameters: Json[] } }>)[
      '/v1/ops/womens_scoreboard'
    ];
    expect(scoreboard?.get.parameters.map((p) => p.name)).toContain('season_type');
    const summary = (doc.paths as Record<string, { get: { parameters: Json[] } }>)['/v1/ops/mens_summary'];
    expect(summary?.get.parameters.map((p) => p.name)).toEqual(['event_id', 'format', 'table']);
  });

  it('declares bearer security only when tokens are configured', () => {
    expect(buildOpenApi().security).toBeUndefined();
    const secured = buildOpenApi({ auth: true });
    expect(secured.security).toEqual([{ bearerAuth: [] }]);
    expect((secured.components as Json).securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
  });
});

describe(`GET /openapi.json`, () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves the document as JSON', async () => {
    const res = await fetch(`${api.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as Json;
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });
});
