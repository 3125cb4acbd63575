import { firstValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineContextOptions, EngineRuntime } from '../../streams/engine-context.js';
import type { GamePushListener } from '../../streams/engine-types.js';
import { createGameDocuments } from '../../streams/game-document.js';
import { NOT_FED_REASON } from '../../streams/game-feed.js';
import { engineContext, rawPlay, summary, VirtualClock } from './helpers.js';

const KEY = { league: 'mens', gameId: '401' } as const;
const RECONCILE_MS = 15_000;

const contexts: EngineRuntime[] = [];
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.markClosed();
});

function setup(options: { push?: boolean; followed?: boolean } = {}) {
  const clock = new VirtualClock();
  const polls: string[] = [];
  let polled: unknown = summary({ state: 'in', plays: [rawPlay(1)] });
  const client = {
    call: async (op: string) => {
      polls.push(op);
      return polled;
    },
  } as unknown as EngineContextOptions['client'];
  const subscribed: string[] = [];
  let listener: GamePushListener | undefined;
  const push = {
    reconcileMs: RECONCILE_MS,
    connect(l: GamePushListener) {
      listener = l;
      return {
        subscribe: (league: string, gameId: string) => void subscribed.push(`+${league}:${gameId}`),
        unsubscribe: (league: string, gameId: string) => void subscribed.push(`-${league}:${gameId}`),
        close: async () => undefined,
      };
    },
  };
  const ctx = engineContext(clock, client, options.push === false ? {} : { push });
  contexts.push(ctx);
  const documents = createGameDocuments(ctx, () => options.followed ?? true);
  const report = (): GamePushListener => {
    if (!listener) throw new Error('push is off');
    return listener;
  };
  let room = true;
  const request = { where: 'mens_summary?event=401', mayRequest: async () => room };
  return {
    clock,
    documents,
    polls,
    subscribed,
    report,
    request,
    setPolled: (doc: unknown) => (polled = doc),
    setRoom: (r: boolean) => (room = r),
  };
}

describe('game documents', () => {
  it('with push off, polls whenever the budget has room, and says so when it has none', async () => {
    const s = setup({ push: false });
    expect(await s.documents.next(KEY, s.request)).toMatchObject({ kind: 'document', pushed: false });
    s.setRoom(false);
    expect(await s.documents.next(KEY, s.request)).toEqual({ kind: 'deferred' });
    expect(s.polls).toEqual(['mens_summary']);
    expect(s.documents.feedStatus(KEY)).toBeNull();
    expect(s.documents.demand(KEY)).toEqual({ everyMs: 3_000, scheduled: false });
    expect(await firstValueFrom(s.documents.wakes(KEY).pipe(toArray()))).toEqual([]);
  });

  it('subscribes a fed game once, diffs a pushed document without a request, then waits for the reconciliation', async () => {
    const s = setup();
    s.documents.fed(KEY);
    s.documents.fed(KEY);
    expect(s.subscribed).toEqual(['+mens:401']);
    // The first poll: push has delivered nothing yet.
    expect(await s.documents.next(KEY, s.request)).toMatchObject({ kind: 'document', pushed: false });
    const woken: number[] = [];
    s.documents.wakes(KEY).subscribe(() => woken.push(1));
    const pushed = summary({ state: 'in', plays: [rawPlay(1), rawPlay(2)] });
    expect(s.report().document(KEY, { doc: pushed, fresh: true, where: 'push 401' })).toBeUndefined();
    expect(woken).toEqual([1]);
    expect(s.documents.pending(KEY)).toBe(true);
    expect(s.documents.feedStatus(KEY)).toMatchObject({
      source: 'push',
      state: 'push',
      reason: 'checkpoint',
    });
    expect(s.documents.demand(KEY)).toEqual({ everyMs: RECONCILE_MS, scheduled: true });
    expect(await s.documents.next(KEY, s.request)).toEqual({ kind: 'document', doc: pushed, pushed: true });
    expect(s.documents.pending(KEY)).toBe(false);
    // A checkpoint after no loss asks for no poll; the last one was just now.
    expect(await s.documents.next(KEY, s.request)).toEqual({ kind: 'push-fed' });
    expect(s.polls).toHaveLength(1);
    // The reconciliation: the older polled summary only adds to what push delivered.
    await s.clock.advance(RECONCILE_MS);
    const merged = await s.documents.next(KEY, s.request);
    expect(s.polls).toHaveLength(2);
    expect(merged).toMatchObject({ kind: 'document', pushed: false, doc: { plays: pushed.plays } });
  });

  it('refuses a pushed document whose header does not read, and ignores games not followed', async () => {
    const s = setup();
    s.documents.fed(KEY);
    expect(s.report().document(KEY, { doc: { header: {} }, fresh: true, where: 'push 401' })).toMatch(
      /^pushed document unusable: .*push 401.*competition/,
    );
    expect(s.documents.pending(KEY)).toBe(false);
    const other = setup({ followed: false });
    other.documents.fed(KEY);
    other.report().document(KEY, { doc: summary({ state: 'in' }), fresh: true, where: 'push 401' });
    expect(other.documents.pending(KEY)).toBe(false);
    expect(other.documents.feedStatus(KEY)).toMatchObject({ state: 'polling', reason: 'started' });
  });

  it('tells losses apart: behind resyncs, down falls back; unfed forgets what push delivered', async () => {
    const s = setup();
    s.documents.fed(KEY);
    s.report().document(KEY, { doc: summary({ state: 'in' }), fresh: true, where: 'push 401' });
    s.report().lost(KEY, 'behind', 'mid gap: 3 after 1');
    expect(s.documents.feedStatus(KEY)).toMatchObject({ state: 'resyncing', reason: 'mid gap: 3 after 1' });
    s.report().document(KEY, { doc: summary({ state: 'in' }), fresh: true, where: 'push 401' });
    s.report().lost(KEY, 'down', 'socket closed: code 1006');
    expect(s.documents.feedStatus(KEY)).toMatchObject({
      source: 'polling',
      state: 'fallen-back',
      reason: 'socket closed: code 1006',
    });
    s.report().document(KEY, { doc: summary({ state: 'in' }), fresh: false, where: 'push 401' });
    s.documents.unfed(KEY);
    expect(s.subscribed).toEqual(['+mens:401', '-mens:401']);
    expect(s.documents.pending(KEY)).toBe(false);
    expect(s.documents.feedStatus(KEY)).toMatchObject({ state: 'fallen-back', reason: NOT_FED_REASON });
  });

  it('standing by leaves a pushed document to the lease holder', () => {
    const s = setup();
    s.documents.fed(KEY);
    s.report().document(KEY, { doc: summary({ state: 'in' }), fresh: true, where: 'push 401' });
    s.documents.standBy(KEY);
    expect(s.documents.pending(KEY)).toBe(false);
    expect(s.subscribed).toEqual(['+mens:401', '-mens:401']);
  });
});
