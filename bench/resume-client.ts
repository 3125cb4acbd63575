import { WebSocket } from 'ws';

/**
 * The client side of `bench/resume.ts`, run in its own process (forked). Commands arrive over IPC:
 *   { cmd: 'connect', url, n }                  → n connected clients, not subscribed; replies 'ready'
 *   { cmd: 'resume', since, events, snapshots } → every client subscribes at once with `since` and
 *     a snapshot; replies { type: 'done', ms } once each has `events` events and `snapshots` snapshots
 */

type Command =
  | { cmd: 'connect'; url: string; n: number }
  | { cmd: 'resume'; since: string; events: number; snapshots: number };

interface Client {
  ws: WebSocket;
  events: number;
  snapshots: number;
}

const clients: Client[] = [];
const EVENT = Buffer.from('{"type":"event"');
const SNAPSHOT = Buffer.from('{"type":"snapshot"');

function open(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, {
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    const client: Client = { ws, events: 0, snapshots: 0 };
    clients.push(client);
    ws.on('message', (data: Buffer) => {
      if (data.subarray(0, EVENT.length).equals(EVENT)) client.events += 1;
      else if (data.subarray(0, SNAPSHOT.length).equals(SNAPSHOT)) client.snapshots += 1;
      else if (data.toString().startsWith('{"type":"welcome"')) resolve();
      else if (data.toString().startsWith('{"type":"error"'))
        process.send?.({ type: 'error', message: data.toString() });
    });
    ws.on('error', reject);
  });
}

async function resume(since: string, events: number, snapshots: number): Promise<void> {
  const started = Date.now();
  for (const c of clients) c.ws.send(JSON.stringify({ op: 'subscribe', id: 'v', since, snapshot: true }));
  const done = (): boolean => clients.every((c) => c.events >= events && c.snapshots >= snapshots);
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
  process.send?.({ type: 'done', ms: Date.now() - started });
}

process.on('message', (m: Command) => {
  if (m.cmd === 'connect') {
    void (async () => {
      for (let i = 0; i < m.n; i += 100) {
        await Promise.all(Array.from({ length: Math.min(100, m.n - i) }, () => open(m.url)));
      }
      process.send?.({ type: 'ready' });
    })();
  } else void resume(m.since, m.events, m.snapshots);
});
