import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../../src/bus/memory.js';
import type { Bus } from '../../../src/bus/types.js';
import { EVENT_TYPES } from '../../../src/model/events.js';
import { VIEWER_ERROR_CODES } from '../../../src/server/viewer-protocol.js';
import { SERVER_FRAME_TYPES } from '../../../src/server/delivery/frames.js';
import { createAsyncApiRoute } from '../../../src/server/routes/index.js';
import type { DaemonServer } from '../../../src/server/server.js';
import { commit, mapSnapshots, startServer, TestClient, type Frame } from '../gateway-harness.js';
import { game, makeEvent, makeSnapshot } from '../../support/events.js';
import { finishedSummaries, HAVE_FIXTURES, NO_FIXTURES_REASON } from '../../support/fixtures.js';
import { replayByPolls } from '../../streams/replay-helpers.js';

type Json = Record<string, unknown>;

const G = game('mens', '401585607', ['13', 'LAL'], ['2', 'BOS']);

let bus: Bus;
let server: DaemonServer;
let url: string;
let doc: Json;

beforeAll(async () => {
  bus = createMemoryBus();
  server = await startServer({
    bus,
    port: 0,
    snapshots: mapSnapshots([makeSnapshot(G)]),
    routes: [createAsyncApiRoute()],
  });
  url = server.url;
  const res = await fetch(`${url}/v1/asyncapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as Json;
});

afterAll(async () => {
  await server?.close();
  await bus?.close();
});

const components = (): Json => doc.components as Json;
const messages = (): Record<string, Json> => components().messages as Record<string, Json>;
const schemas = (): Record<string, Json> => components().schemas as Record<string, Json>;

/** The message a channel lists, followed through its `$ref`. */
function channelMessages(channel: string): Json[] {
  const listed = ((doc.channels as Json)[channel] as Json).messages as Record<string, Json>;
  return Object.values(listed).map((m) => messages()[String(m.$ref).split('/').pop()!]!);
}

describe('GET /v1/asyncapi.json', () => {
  it('validates with the AsyncAPI parser, with no error or warning', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    // Severity 0 is an error, 1 a warning, 2 information, 3 a hint.
    expect(diagnostics.filter((d) => d.severity <= 2).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.version()).toMatch(/^3\./);
    expect(
      document!
        .channels()
        .all()
        .map((c) => c.address()),
    ).toEqual(['/v1/stream', '/v1/stream/sse']);
  }, 60_000);

  it('lists exactly the server frame types of the code on the WebSocket channel', () => {
    const frameTypes = channelMessages('stream')
      .map((m) => ((m.payload as Json).properties as Json).type as Json | undefined)
      .filter((t) => t !== undefined)
      .map((t) => t.const);
    expect(frameTypes.sort()).toEqual([...SERVER_FRAME_TYPES].sort());
  });

  it('lists exactly the client operations the gateway parses', () => {
    const ops = channelMessages('stream')
      .map((m) => ((m.payload as Json).properties as Json).op as Json | undefined)
      .filter((t) => t !== undefined)
      .map((t) => t.const);
    expect(ops.sort()).toEqual(['ping', 'subscribe', 'unsubscribe']);
  });

  it('lists exactly the error codes of the code', () => {
    expect(schemas().ErrorCode!.enum).toEqual([...VIEWER_ERROR_CODES]);
    const sseCodes = ((messages().sseError!.payload as Json).properties as Json).code as Json;
    for (const code of sseCodes.enum as string[]) expect(VIEWER_ERROR_CODES).toContain(code);
  });

  it('lists exactly the event types of the model, each with a data schema', () => {
    const union = schemas().GameEvent!.oneOf as Json[];
    const types = union.map((r) => {
      const event = schemas()[String(r.$ref).split('/').pop()!]!;
      const props = event.properties as Record<string, Json>;
      expect(schemas()[String(props.data!.$ref).split('/').pop()!]).toBeDefined();
      return props.type!.const;
    });
    expect(types).toEqual([...EVENT_TYPES]);
    const subscribe = messages().subscribeMessage!.payload as Json;
    const filter = ((subscribe.properties as Json).types as Json).items as Json;
    expect(filter.enum).toEqual([...EVENT_TYPES]);
  });

  it("describes the frames a real session sends, and the gateway's own validation agrees with it", async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    // The document's own `#/components/...` references resolve inside it.
    ajv.addSchema({ ...doc, $id: 'asyncapi' }, 'asyncapi');
    const validate = (name: string, value: unknown): void => {
      const check = ajv.getSchema(`asyncapi#/components/messages/${name}/payload`)!;
      expect(check(value), `${name}: ${JSON.stringify(check.errors)} in ${JSON.stringify(value)}`).toBe(true);
    };
    const client = await TestClient.connect(url);
    try {
      const sub = { op: 'subscribe', id: 's', games: [G.gameId], snapshot: true };
      validate('subscribeMessage', sub);
      await client.request(sub, (f) => f.type === 'snapshot');
      await commit(bus, G, [makeEvent(G, 'score.changed')]);
      await client.next((f) => f.type === 'event');
      await client.request({ op: 'ping' }, (f) => f.type === 'pong');
      const bad = { op: 'subscribe', id: 'x', leagues: ['wnba'] };
      await client.request(bad, (f) => f.type === 'error');
      await client.request({ op: 'unsubscribe', id: 's' }, (f) => f.type === 'unsubscribed');
      const seen = new Set<string>();
      for (const frame of client.frames as Frame[]) {
        validate(`${frame.type}Frame`, frame);
        seen.add(frame.type);
      }
      expect([...seen].sort()).toEqual([...SERVER_FRAME_TYPES].sort());
      // A message the gateway refused is one the document refuses too.
      const subscribeCheck = ajv.getSchema('asyncapi#/components/messages/subscribeMessage/payload')!;
      expect(subscribeCheck(bad)).toBe(false);
      expect(subscribeCheck({ ...sub, extra: 1 })).toBe(false);
    } finally {
      client.close();
    }
  });

  it('answers HEAD, and refuses POST with 405', async () => {
    const head = await fetch(`${url}/v1/asyncapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await fetch(`${url}/v1/asyncapi.json`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

// Apart from the socket tests: the replay keeps the event loop busy for seconds.
describe('the AsyncAPI document and the engine', () => {
  it.skipIf(!HAVE_FIXTURES || finishedSummaries().length === 0)(
    `describes every event the engine makes of the recorded games ${HAVE_FIXTURES ? '' : NO_FIXTURES_REASON}`,
    () => {
      const ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addSchema({ ...doc, $id: 'asyncapi' }, 'asyncapi');
      const check = ajv.getSchema('asyncapi#/components/schemas/GameEvent')!;
      const seen = new Set<string>();
      for (const file of finishedSummaries()) {
        const final = JSON.parse(readFileSync(file.file, 'utf8')) as Record<string, unknown>;
        const { events } = replayByPolls(file.league, final, 60_000);
        events.forEach((event, i) => {
          // The log assigns the offset when it appends; the diff's events have none yet.
          const logged = { ...event, offset: `1732252800000-${i}` };
          if (!check(logged)) {
            expect.fail(`${event.type} of ${file.file}: ${JSON.stringify(check.errors)}`);
          }
          seen.add(event.type);
        });
        // An event the schema refuses is refused: a score of the wrong type.
        const scored = events.find((e) => e.type === 'score.changed');
        if (scored)
          expect(check({ ...scored, offset: '1-0', data: { ...scored.data, score: { home: '1' } } })).toBe(
            false,
          );
      }
      // The recorded games make nine of the eleven kinds of event; each matched its schema above.
      expect(seen.size).toBeGreaterThanOrEqual(9);
    },
    60_000,
  );
});
