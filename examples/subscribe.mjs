// Live NBA events from a courtside daemon.
// Run: node examples/subscribe.mjs [http://host:port, or ws://host:port/v1/stream]
// The client library reconnects by itself and resumes where it left off: no event missed or repeated.
import { connect } from 'courtside/client';

const client = connect(process.argv[2] ?? 'http://localhost:8080');
client.on('state', ({ state, reason }) => console.error(`[${state}] ${reason}`));

const nba = client.subscribe({ leagues: ['mens'], snapshot: true });
nba.on('snapshot', ({ teams, score }) => {
  console.log(`now: ${teams.away.abbreviation} ${score.away} - ${teams.home.abbreviation} ${score.home}`);
});
nba.on('gap', ({ message }) => console.error(`gap: ${message}`));

for await (const event of nba) {
  const detail = event.type === 'play.added' || event.type === 'play.updated' ? event.data.play.text : '';
  console.log(`${event.type} ${event.gameId} ${detail ?? ''}`);
}
