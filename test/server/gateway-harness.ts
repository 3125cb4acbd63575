import { request, type IncomingMessage } from 'node:http';
import { WebSocket, type ClientOptions } from 'ws';
import type { GameEvent, GameSnapshot, SnapshotSource } from '../../src/model/events.js';
import type { Bus, GameKey, NewGameEvent } from '../../src/bus/types.js';
import { createDaemonServer, type DaemonServer, type DaemonServerOptions } from '../../src/server/server.js';

/** A real `ws` client, a raw SSE client and a daemon server for the gateway tests. */

export async function commit(bus: Bus, g: GameKey, events: NewGameEvent[]): Promise<GameEvent[]> {
  const done = await bus.commit({ league: g.league, gameId: g.gameId }, events, { meta: null });
  if (!done) throw new Error('commit refused');
  return done;
}

/** A real SnapshotSource over an in-test map. */
export function mapSnapshots(
  snaps: GameSnapshot[] = [],
): SnapshotSource & { map: Map<string, GameSnapshot> } {
  const map = new Map(snaps.map((s) => [`${s.league}:${s.gameId}`, s]));
  return {
    map,
    async snapshot(league, gameId) {
      return map.get(`${league}:${gameId}`);
    },
    async list() {
      return [...map.values()];
    },
  };
}

export async function startServer(
  options: Partial<DaemonServerOptions> & Pick<DaemonServerOptions, 'bus'>,
): Promise<DaemonServer> {
  const server = createDaemonServer({ snapshots: mapSnapshots(), ...options });
  await server.start();
  return server;
}

export type Frame = Record<string, unknown> & { type: string };

/** A `ws` client that records every frame and waits for the ones a test needs. */
export class TestClient {
  readonly frames: Frame[] = [];
  /** When each frame arrived (`Date.now()`), by index in `frames`. */
  readonly receivedAt: number[] = [];
  closed: { code: number; reason: string } | undefined;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      this.receivedAt.push(Date.now());
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  static async connect(url: string, options: ClientOptions = {}): Promise<TestClient> {
    const ws = new WebSocket(
      url.replace(/^http/, 'ws') + (url.includes('/v1/stream') ? '' : '/v1/stream'),
      options,
    );
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    await client.next((f) => f.type === 'welcome');
    return client;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Resolves with the first recorded frame (from `from` on) matching `pred`. */
  async next(pred: (f: Frame) => boolean, timeoutMs = 10_000, from = 0): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(pred);
      if (found) return found;
      if (this.closed) throw new Error(`closed (${this.closed.code}) before the frame arrived`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; frames: ${JSON.stringify(this.frames.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a message and waits for the reply after it that matches. */
  async request(value: unknown, pred: (f: Frame) => boolean): Promise<Frame> {
    const from = this.frames.length;
    this.send(value);
    return this.next(pred, 10_000, from);
  }

  events(sub?: string): Array<GameEvent & { sub: string }> {
    return this.frames
      .filter((f) => f.type === 'event' && (sub === undefined || f.sub === sub))
      .map((f) => ({ ...(f.event as GameEvent), sub: f.sub as string }));
  }

  async waitClosed(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('not closed in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  close(): void {
    this.ws.terminate();
  }
}

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  /** When the message was complete (`Date.now()`). */
  at?: number;
}

/** Parses one SSE message block as an EventSource would, keeping comments (heartbeats) visible. */
function parseSseBlock(block: string): SseMessage {
  const m: SseMessage = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) m.comment = line.slice(1).trim();
    else {
      const i = line.indexOf(':');
      const field = line.slice(0, i);
      const value = line.slice(i + 1).replace(/^ /, '');
      if (field === 'id' || field === 'event' || field === 'data') m[field] = value;
    }
  }
  return m;
}

/** A raw HTTP client reading an SSE stream as it comes (what `curl -N` does). */
export class SseClient {
  res: IncomingMessage | undefined;
  ended = false;
  private readonly complete: SseMessage[] = [];
  private partial = '';
  private readonly req;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.req = request(url, { headers });
    this.req.on('response', (res) => {
      this.res = res;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => this.read(chunk));
      res.on('end', () => (this.ended = true));
      res.on('error', () => (this.ended = true));
    });
    this.req.on('error', () => (this.ended = true));
    this.req.end();
  }

  private read(chunk: string): void {
    this.partial += chunk;
    const at = Date.now();
    for (let end = this.partial.indexOf('\n\n'); end !== -1; end = this.partial.indexOf('\n\n')) {
      const block = this.partial.slice(0, end);
      this.partial = this.partial.slice(end + 2);
      if (block.trim() !== '') this.complete.push({ ...parseSseBlock(block), at });
    }
  }

  /** The complete messages so far. */
  messages(): SseMessage[] {
    return this.complete.map(({ at: _at, ...m }) => m);
  }

  /** The complete messages so far, each with the time it was complete. */
  timedMessages(): SseMessage[] {
    return [...this.complete];
  }

  events(): SseMessage[] {
    return this.messages().filter((m) => m.id !== undefined);
  }

  async status(): Promise<number> {
    await until(() => this.res !== undefined || this.ended, 10_000, 'response');
    return this.res?.statusCode ?? 0;
  }

  close(): void {
    this.req.destroy();
  }
}

export async function until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
