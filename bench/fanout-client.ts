import { WebSocket } from 'ws';
import { percentile } from './percentile.js';

/**
 * The client side of `bench/fanout.ts`, run in its own process (forked) so the server's figures
 * do not include the cost of receiving. Commands arrive over IPC:
 *   { cmd: 'connect', url, n }  → opens n clients, each subscribes to everything; replies 'ready'
 *   { cmd: 'stats' }            → replies { frames, p50, p99, samples } since the last stats, then resets
 *   { cmd: 'close' }            → drops every client; replies 'closed'
 * Every 50 ms it reports { type: 'progress', total } (the server paces itself on it).
 */

type Command = { cmd: 'connect'; url: string; n: number } | { cmd: 'stats' } | { cmd: 'close' };

const sockets: WebSocket[] = [];
let frames = 0;
/** Frames since the process started (the server's pacing reads it; `frames` resets per stats). */
let total = 0;
// Latency is sampled (1 frame in 8): parsing every frame's timestamp would make the client the bottleneck.
const SAMPLE_EVERY = 8;
let latencies: number[] = [];
const AT = Buffer.from('"at":"');
let lastCpu = process.cpuUsage();

function onFrame(data: Buffer): void {
  frames += 1;
  total += 1;
  if (frames % SAMPLE_EVERY !== 0) return;
  const i = data.indexOf(AT);
  if (i < 0) return;
  const at = Date.parse(data.toString('latin1', i + AT.length, i + AT.length + 24));
  if (Number.isFinite(at)) latencies.push(Date.now() - at);
}

function open(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // The server's frames are its own JSON; skipping UTF-8 validation keeps the client cheap.
    const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
    sockets.push(ws);
    let subscribed = false;
    ws.on('message', (data: Buffer) => {
      if (subscribed) {
        onFrame(data);
        return;
      }
      const text = data.toString();
      if (text.startsWith('{"type":"welcome"')) ws.send('{"op":"subscribe","id":"all"}');
      else if (text.startsWith('{"type":"subscribed"')) {
        subscribed = true;
        resolve();
      }
    });
    ws.on('error', reject);
    ws.on('close', () => {
      if (!subscribed) reject(new Error('closed before subscribing'));
    });
  });
}

process.on('message', (message: Command) => {
  void (async () => {
    if (message.cmd === 'connect') {
      // 200 at a time: the server's accept backlog and the handshake CPU stay reasonable.
      for (let i = 0; i < message.n; i += 200) {
        await Promise.all(Array.from({ length: Math.min(200, message.n - i) }, () => open(message.url)));
      }
      process.send?.({ type: 'ready', n: sockets.length });
    } else if (message.cmd === 'stats') {
      const sorted = latencies.sort((a, b) => a - b);
      const cpu = process.cpuUsage(lastCpu);
      lastCpu = process.cpuUsage();
      process.send?.({
        type: 'stats',
        frames,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        samples: sorted.length,
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      });
      frames = 0;
      latencies = [];
    } else if (message.cmd === 'close') {
      for (const ws of sockets.splice(0)) ws.terminate();
      frames = 0;
      latencies = [];
      process.send?.({ type: 'closed' });
    }
  })().catch((err: unknown) => {
    process.send?.({ type: 'error', message: (err as Error).message });
  });
});

setInterval(() => process.send?.({ type: 'progress', total }), 50).unref();
process.on('disconnect', () => process.exit(0));
