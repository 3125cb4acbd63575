// Live NBA events from a courtside daemon. Run: node examples/subscribe.mjs [ws://host:port/v1/stream]
import WebSocket from 'ws';

const url = process.argv[2] ?? 'ws://localhost:8080/v1/stream';
let since; // offset of the last event seen: a reconnect resumes from it, missing nothing

function connect() {
  const ws = new WebSocket(url);
  ws.on('open', () => {
    const subscribe = { op: 'subscribe', id: 'nba', leagues: ['mens'], snapshot: !since };
    ws.send(JSON.stringify(since ? { ...subscribe, since } : subscribe));
  });
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.type === 'snapshot') {
      const { teams, score } = frame.game;
      console.log(`now: ${teams.away.abbreviation} ${score.away} - ${teams.home.abbreviation} ${score.home}`);
    } else if (frame.type === 'event') {
      const event = frame.event;
      since = event.offset;
      const detail = event.type.startsWith('play.') ? event.data.play?.text : '';
      console.log(`${event.type} ${event.gameId} ${detail ?? ''}`);
    } else if (frame.type === 'error') {
      console.error(`${frame.code}: ${frame.message}`);
    }
  });
  ws.on('close', () => setTimeout(connect, 1000));
  ws.on('error', (err) => console.error(err.message));
}

connect();
