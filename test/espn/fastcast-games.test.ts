import { describe, expect, it } from 'vitest';
import type { FastcastListener } from '../../src/espn/fastcast-client.js';
import { createFastcastGames, lossDetail, lossKind } from '../../src/espn/fastcast-games.js';

describe('FastCast by game', () => {
  it('names the topics, tells checkpoints from patches, and ignores topics of no game', async () => {
    const topics: string[] = [];
    let listener: FastcastListener | undefined;
    const reports: unknown[] = [];
    const games = createFastcastGames(
      (l) => {
        listener = l;
        return {
          subscribe: (t) => void topics.push(`+${t}`),
          unsubscribe: (t) => void topics.push(`-${t}`),
          close: async () => void topics.push('closed'),
        };
      },
      {
        document: (game, update) => {
          reports.push({ game, ...update });
          return update.fresh ? undefined : 'refused';
        },
        lost: (game, kind, detail) => void reports.push({ game, kind, detail }),
      },
    );
    games.subscribe('womens', '7');
    games.unsubscribe('womens', '7');
    await games.close();
    expect(topics).toEqual(['+gp-basketball-wnba-7', '-gp-basketball-wnba-7', 'closed']);
    const topic = 'gp-basketball-nba-401';
    expect(listener?.document(topic, { doc: { a: 1 }, ts: null, patches: 0 })).toBeUndefined();
    expect(listener?.document(topic, { doc: { a: 2 }, ts: 5, patches: 3 })).toBe('refused');
    expect(listener?.document('event-basketball-nba', { doc: {}, ts: null, patches: 0 })).toBeUndefined();
    listener?.lost(topic, 'mid_gap', 'mid 3 after 1');
    listener?.lost(topic, 'topic_404', 'subscribe answered rc 404');
    listener?.lost('event-basketball-nba', 'socket_closed', 'code 1006');
    const game = { league: 'mens', gameId: '401' };
    expect(reports).toEqual([
      { game, doc: { a: 1 }, fresh: true, where: `fastcast ${topic}` },
      { game, doc: { a: 2 }, fresh: false, where: `fastcast ${topic}` },
      { game, kind: 'behind', detail: 'mid gap: mid 3 after 1' },
      { game, kind: 'down', detail: 'topic 404: subscribe answered rc 404' },
    ]);
  });

  it('leaves a game to polling after every loss but those a fresh checkpoint repairs', () => {
    expect(['mid_gap', 'bad_patch', 'bad_payload', 'bad_document'].map((r) => lossKind(r as never))).toEqual([
      'behind',
      'behind',
      'behind',
      'behind',
    ]);
    expect(
      ['checkpoint_failed', 'topic_404', 'no_topic', 'socket_closed', 'resync_storm'].map((r) =>
        lossKind(r as never),
      ),
    ).toEqual(['down', 'down', 'down', 'down', 'down']);
    expect(lossDetail('resync_storm', '5 in 60 s')).toBe('resync storm: 5 in 60 s');
  });
});
