// An example a user would write: narrowing on `type` gives each event's own data. Checked by
// test/live-client/types.test.ts with tsc; every @ts-expect-error must be an error there.
import { WebSocket } from 'ws';
import { connect, gameState, type GameEvent, type LiveGame } from '../../../src/live-client/courtside.js';

export async function follow(url: string): Promise<LiveGame | undefined> {
  const client = connect(url, { token: 's3cret', retry: { minMs: 100, maxMs: 1_000 }, WebSocket });
  // The platform's WebSocket fits too (browsers, Node 22+).
  connect(url, { WebSocket: globalThis.WebSocket, retry: false });
  const sub = client.subscribe({ leagues: ['mens'], types: ['play.added', 'score.changed'], snapshot: true });
  const games = gameState();

  sub.on('event', (event) => {
    if (event.type === 'play.added') {
      const text: string | null = event.data.play.text;
      void text;
      // @ts-expect-error a play has no score of its own: `data.score` belongs to score.changed
      void event.data.score;
    }
  });
  sub.on('gap', (gap) => console.log(gap.message, gap.since));
  client.on('state', (change) => {
    // @ts-expect-error not a connection state
    if (change.state === 'offline') return;
    console.log(change.state, change.reason, change.retryInMs);
  });

  for await (const event of sub) {
    switch (event.type) {
      case 'score.changed':
        console.log(event.data.score.home, event.data.previous.away);
        break;
      case 'winprob.changed':
        console.log(event.data.homeWinPercentage.toFixed(3));
        break;
      case 'situation.changed':
        console.log(event.data.situation.home.bonus);
        break;
      default:
        // @ts-expect-error only play.* events carry a play; this branch may be any other type
        console.log(event.data.play);
    }
    games.apply(event);
    if (event.type === 'game.ended') break;
  }

  for await (const message of sub.messages()) {
    if (message.type === 'snapshot') console.log(message.game.recentPlays.length);
    else if (message.type === 'gap') console.log(message.message);
    else console.log(message.seq, message.offset);
    games.apply(message);
  }

  // @ts-expect-error an unknown league is refused at compile time
  client.subscribe({ leagues: ['nhl'] });
  // @ts-expect-error an unknown event type too
  client.subscribe({ types: ['goal'] });

  const one: GameEvent | undefined = undefined;
  void one;
  await client.close();
  return games.get('mens', '401585607');
}
