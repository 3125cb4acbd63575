/**
 * The heavy clients of `bench/isolation.ts`, in their own process. Each client has its own address
 * (`X-Forwarded-For: 10.<i>`, believed because the daemon trusts 127.0.0.1 as a proxy). Commands
 * over IPC:
 *   { cmd: 'ops', url, clients, ms } → each client asks `GET /v1/ops/mens_summary` for ids that do
 *     not exist, in a loop for `ms`, waiting what `Retry-After` says after a 429; replies with the
 *     answers by status
 *   { cmd: 'storm', url, clients }  → as many WebSocket clients resume from the log's start at once;
 *     replies with the frames they got and how long until the last
 */
import { WebSocket } from 'ws';

type Command =
  { cmd: 'ops'; url: string; clients: number; ms: number } | { cmd: 'storm'; url: string; clients: number };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const addressOf = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function ops(url: string, clients: number, ms: number): Promise<Record<string, number>> {
  const until = Date.now() + ms;
  const counts: Record<string, number> = { requests: 0, refusedWithoutRetryAfter: 0 };
  let id = 0;
  const loop = async (i: number): Promise<void> => {
    while (Date.now() < until) {
      const eventId = 800_000_000 + i * 100_000 + (id++ % 100_000);
      const res = await fetch(`${url}/v1/ops/mens_summary?event_id=${eventId}`, {
        headers: { 'x-forwarded-for': addressOf(i + 1) },
      }).catch(() => undefined);
      counts.requests = (counts.requests ?? 0) + 1;
      const key = res ? String(res.status) : 'network';
      counts[key] = (counts[key] ?? 0) + 1;
      await res?.arrayBuffer().catch(() => undefined);
      if (res?.status === 429) {
        const after = Number(res.headers.get('retry-after'));
        if (!(after > 0)) counts.refusedWithoutRetryAfter = (counts.refusedWithoutRetryAfter ?? 0) + 1;
        await sleep(Math.min(Math.max(after, 0) * 1000, until - Date.now()));
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => loop(i)));
  return counts;
}

async function storm(url: string, clients: number): Promise<Record<string, number>> {
  const sockets: WebSocket[] = [];
  let frames = 0;
  let errors = 0;
  let last = Date.now();
  await Promise.all(
    Array.from(
      { length: clients },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, {
            perMessageDeflate: false,
            headers: { 'x-forwarded-for': addressOf(100_000 + i) },
          });
          sockets.push(ws);
          ws.on('message', (data: Buffer) => {
            if (data.toString('utf8', 0, 20).startsWith('{"type":"welcome"')) return resolve();
            if (data.toString('utf8', 0, 16).startsWith('{"type":"error"')) errors++;
            frames++;
            last = Date.now();
          });
          ws.on('error', reject);
        }),
    ),
  );
  const started = Date.now();
  for (const ws of sockets)
    ws.send(JSON.stringify({ op: 'subscribe', id: 'v', since: '0-0', snapshot: true }));
  // Done when nothing has arrived for a second.
  while (Date.now() - last < 1_000 || last < started) await sleep(100);
  for (const ws of sockets) ws.terminate();
  return { clients, frames, errors, ms: last - started };
}

process.on('message', (m: Command) => {
  const work = m.cmd === 'ops' ? ops(m.url, m.clients, m.ms) : storm(m.url, m.clients);
  void work.then((figures) => process.send?.(figures));
});
