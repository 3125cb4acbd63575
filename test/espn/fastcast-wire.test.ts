import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decodePatchPayload,
  encodePatchPayload,
  gameTopic,
  parseGameTopic,
  MAX_PAYLOAD_BYTES,
  readFrame,
  readFrames,
  socketPath,
} from '../../src/espn/fastcast-wire.js';

const PATCH = [
  { op: 'move', from: '/plays/0', path: '/plays/1' },
  { op: 'copy', from: '/header', path: '/copy' },
];

describe('FastCast frames', () => {
  it('names game topics as ESPN does, and reads them back', () => {
    expect(gameTopic('mens', '401585607')).toBe('gp-basketball-nba-401585607');
    expect(gameTopic('womens', '401')).toBe('gp-basketball-wnba-401');
    expect(parseGameTopic('gp-basketball-wnba-401')).toEqual({ league: 'womens', gameId: '401' });
    expect(parseGameTopic('event-basketball-nba')).toBeUndefined();
    expect(gameTopic('mens-college', '401706886')).toBe('gp-basketball-mens-college-basketball-401706886');
    expect(gameTopic('womens-college', '7')).toBe('gp-basketball-womens-college-basketball-7');
    expect(parseGameTopic('gp-basketball-mens-college-basketball-401706886')).toEqual({
      league: 'mens-college',
      gameId: '401706886',
    });
    expect(parseGameTopic('gp-basketball-womens-college-basketball-7')).toEqual({
      league: 'womens-college',
      gameId: '7',
    });
    expect(parseGameTopic('gp-basketball-college-football-7')).toBeUndefined();
  });

  it('puts the token in the socket path so that a query parser reads back the very token', () => {
    for (const token of ['a+b/c==', 'Zm9v+YmFy/', 'hex0123abcdef', 'a&b#c d']) {
      const url = new URL(`ws://127.0.0.1:1${socketPath(token)}`);
      expect(url.pathname).toBe('/FastcastService/pubsub/profiles/12000');
      expect(url.searchParams.get('TrafficManager-Token')).toBe(token);
    }
    expect(socketPath('abc_-XYZ09')).toBe(
      '/FastcastService/pubsub/profiles/12000?TrafficManager-Token=abc_-XYZ09',
    );
  });

  it('decodes both payload forms: ~c 1 (base64 of zlib-deflated JSON) and ~c 0 (plain)', () => {
    const compressed = JSON.stringify({
      ts: 5,
      '~c': 1,
      pl: deflateSync(JSON.stringify(PATCH)).toString('base64'),
    });
    expect(decodePatchPayload(compressed, 'x')).toEqual({ ts: 5, patch: PATCH });
    expect(decodePatchPayload(JSON.stringify({ ts: 6, '~c': 0, pl: JSON.stringify(PATCH) }), 'x')).toEqual({
      ts: 6,
      patch: PATCH,
    });
    for (const c of [true, false])
      expect(decodePatchPayload(encodePatchPayload(PATCH, 7, c), 'x').patch).toEqual(PATCH);
  });

  it('names what is wrong with a payload or a frame', () => {
    expect(() => decodePatchPayload('nope', 'w')).toThrow(/patch payload is not JSON/);
    expect(() => decodePatchPayload(JSON.stringify({ '~c': 1, pl: 'AAAA' }), 'w')).toThrow(
      /does not inflate/,
    );
    expect(() => decodePatchPayload(JSON.stringify({ '~c': 0, pl: '{}' }), 'w')).toThrow(/not an array/);
    expect(() => decodePatchPayload(JSON.stringify({ '~c': 0, pl: '[1]' }), 'w')).toThrow(/not an operation/);
    expect(() => readFrame('{"rc":200}', 'w')).toThrow(expect.objectContaining({ code: 'UPSTREAM_PAYLOAD' }));
    expect(readFrame('{"op":"P","mid":"12","tc":"t","pl":"x","extra":1}', 'w')).toEqual({
      op: 'P',
      mid: 12,
      tc: 't',
      pl: 'x',
    });
  });

  it('puts the whole token percent-encoded in the encoded form', () => {
    const token = 'a+b/c=d&e#f g%';
    expect(socketPath(token, 'encoded')).toBe(
      `/FastcastService/pubsub/profiles/12000?TrafficManager-Token=${encodeURIComponent(token)}`,
    );
    expect(socketPath(token, 'given')).toBe(socketPath(token));
    expect(socketPath(token)).toContain('TrafficManager-Token=a%2Bb/c=d%26e%23f%20g%');
  });

  it('reads a frame holding several messages as those messages, dropping entries that are not one', () => {
    expect(readFrames('{"op":"B"}', 'w')).toEqual({ frames: [{ op: 'B' }], invalid: 0 });
    expect(readFrames('[{"op":"H","tc":"t","mid":1,"pl":"u"},3,{"x":1},{"op":"I","mid":"2"}]', 'w')).toEqual({
      frames: [
        { op: 'H', tc: 't', mid: 1, pl: 'u' },
        { op: 'I', mid: 2 },
      ],
      invalid: 2,
    });
    expect(readFrames('[]', 'w')).toEqual({ frames: [], invalid: 0 });
    expect(() => readFrames('{"rc":1}', 'w')).toThrow(/frame has no op/);
    expect(() => readFrames('[', 'w')).toThrow(/not JSON/);
  });

  it('refuses a compressed patch inflating past 16 MiB without inflating it; one just under passes', () => {
    const zeros = (n: number): string =>
      JSON.stringify({ ts: 1, '~c': 1, pl: deflateSync(Buffer.alloc(n, 0x20)).toString('base64') });
    expect(() => decodePatchPayload(zeros(MAX_PAYLOAD_BYTES + 1), 'w')).toThrow(/inflates past 16 MiB/);
    // Under the limit: inflated, then refused for what it holds (spaces are no patch).
    expect(() => decodePatchPayload(zeros(MAX_PAYLOAD_BYTES), 'w')).toThrow(/patch is not JSON/);
  });
});
