import { describe, expect, it } from 'vitest';
import { getTestRedis, redisPerTest, type TestRedis } from '../support/redis.js';
import { startReceiver } from '../support/receiver.js';
import { GameScript } from '../support/events.js';
import { waitFor } from '../support/wait-for.js';
import { SECRET, acceptedAlertIds, startPipeline } from './pipeline.js';

/**
 * A bot's game filters and the upset rule on real Redis, through the producer, the alert worker
 * and the webhook worker: the bot keeps to ranked games, one subscriber to a conference.
 */
const available = await getTestRedis();

function collegeGame(gameId: string, homeRank: number | null, conference: string): GameScript {
  const g = new GameScript(gameId, 'mens-college', Date.now(), {
    home: {
      id: `h${gameId}`,
      abbreviation: 'HOM',
      rank: homeRank,
      conference: { id: conference, name: null },
    },
    away: { id: `a${gameId}`, abbreviation: 'AWY', rank: null, conference: { id: conference, name: null } },
  });
  g.started().toPeriod(1, '20:00');
  g.toPeriod(2, '20:00');
  g.scores('away', 2, { clock: '3:00' }); // the ranked home team trails late
  g.ended();
  return g;
}

describe.skipIf(!available)('college game filters and the upset rule (real Redis)', () => {
  let redis!: TestRedis;
  const closers = redisPerTest((r) => (redis = r));

  it('a ranked-only bot alerts on the ranked games; a subscriber keeps to its conference', async () => {
    const all = await startReceiver();
    const acc = await startReceiver();
    closers.push(all.close, acc.close);
    const pipeline = await startPipeline(redis, {
      leagues: ['mens-college'],
      ranked: true,
      rules: { final_score: {}, upset: {} },
      subscribers: [
        { id: 'all', url: all.url, secret: SECRET },
        { id: 'acc', url: acc.url, secret: SECRET, conferences: ['2'] },
      ],
    });
    closers.push(pipeline.close);
    const rankedAcc = collegeGame(`41${Math.floor(Math.random() * 1e6)}`, 4, '2');
    const rankedSec = collegeGame(`42${Math.floor(Math.random() * 1e6)}`, 9, '23');
    const unranked = collegeGame(`43${Math.floor(Math.random() * 1e6)}`, null, '2');
    for (const g of [rankedAcc, rankedSec, unranked]) for (const e of g.events) pipeline.producer.add(e);
    await pipeline.producer.flush();
    // Each ranked game: an upset alert late, an upset at the final, the final score.
    await waitFor(() => all.accepted().length >= 6 && acc.accepted().length >= 3, 30_000, 'the alerts');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = (g: GameScript) => [
      `final_score:mens-college:${g.gameId}:final`,
      `upset:mens-college:${g.gameId}:final`,
      `upset:mens-college:${g.gameId}:late`,
    ];
    expect(acceptedAlertIds(all)).toEqual([...ids(rankedAcc), ...ids(rankedSec)].sort());
    expect(acceptedAlertIds(acc)).toEqual(ids(rankedAcc).sort());
  }, 60_000);
});
