import { describe, expect, it } from 'vitest';
import { checkCheckpoint } from '../../src/espn/fastcast-checkpoint.js';
import { HAVE_FIXTURES, loadFixture, itRecorded } from '../support/fixtures.js';

const summary = (headerId: unknown, competitionId: unknown): Record<string, unknown> => ({
  header: { id: headerId, competitions: [{ id: competitionId, competitors: [] }] },
  plays: [{ id: '1' }],
});

describe('checkCheckpoint', () => {
  it('accepts a summary whose header names the game, by header.id or by its first competition', () => {
    const both = summary('401', '401');
    expect(checkCheckpoint(both, '401')).toEqual({ ok: true, document: both });
    expect(checkCheckpoint(summary(undefined, '401'), '401').ok).toBe(true);
    expect(checkCheckpoint(summary('401', undefined), '401').ok).toBe(true);
    // ESPN writes ids as strings; a number naming the same game is the same game.
    expect(checkCheckpoint(summary(401, undefined), '401').ok).toBe(true);
  });

  it('unwraps {"pl": document} and {"pl": "<document as JSON text>"}', () => {
    const doc = summary('7', '7');
    expect(checkCheckpoint({ pl: doc }, '7')).toEqual({ ok: true, document: doc });
    expect(checkCheckpoint({ pl: JSON.stringify(doc) }, '7')).toEqual({ ok: true, document: doc });
  });

  it('does not unwrap a summary that happens to hold a pl key beside its header', () => {
    const doc = { ...summary('7', '7'), pl: { header: { id: '8', competitions: [{ id: '8' }] } } };
    expect(checkCheckpoint(doc, '7')).toEqual({ ok: true, document: doc });
  });

  it.each([
    [null, 'not_object', 'null'],
    [[summary('7', '7')], 'not_object', 'an array'],
    ['<html>', 'not_object', 'a string'],
    [{ pl: '{not json' }, 'bad_wrapper', 'not JSON'],
    [{ pl: [1, 2] }, 'bad_wrapper', 'an array'],
    [{ pl: 5 }, 'bad_wrapper', 'a number'],
    [{ plays: [] }, 'no_header', 'no header'],
    [{ header: { id: '7' } }, 'no_header', 'no competition'],
    [{ header: { id: '7', competitions: [] } }, 'no_header', 'no competition'],
    [summary('8', '8'), 'other_game', 'names game 8, not the subscribed game 7'],
    [summary(null, null), 'other_game', 'names no game'],
    [{ pl: summary('8', '8') }, 'other_game', 'game 8'],
  ] as const)('refuses %j as %s', (body, reason, words) => {
    const result = checkCheckpoint(body, '7');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe(reason);
    expect(result.detail).toContain(words);
  });

  itRecorded(!HAVE_FIXTURES)('accepts a recorded live summary for its own game and no other', () => {
    const live = loadFixture('mens/summary__401705066_live.json');
    expect(checkCheckpoint(live, '401705066').ok).toBe(true);
    expect(checkCheckpoint({ pl: live }, '401705066').ok).toBe(true);
    expect(checkCheckpoint(live, '401585607')).toMatchObject({ ok: false, reason: 'other_game' });
  });
});
