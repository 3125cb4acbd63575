import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A FastCast whose every answer a test writes: discovery, the socket (on the same port), and
 * checkpoints, over real sockets on port 0. Unlike the simulator it does only what the test says:
 * an `S` is answered 200 and then `onSubscribe` decides what follows (nothing, an `H`, a frame
 * holding several messages, a maintenance message...). Used for what ESPN was seen to do that the
 * simulator does not.
 */
export interface ScriptSession {
  readonly ws: WebSocket;
  readonly sid: string;
  /** Sends a message (an object) or a raw frame (a string). */
  send(frame: object | string): void;
}

export interface ScriptOptions {
  /** The token discovery hands out (default a plain one). */
  token?: () => string;
  /** Whether an upgrade whose raw query carries `raw` (the token as sent) is accepted for `token`. */
  acceptToken?: (raw: string, token: string) => boolean;
  /** After `C` is answered. */
  onConnect?: (s: ScriptSession) => void;
  /** After `S` is answered 200. */
  onSubscribe?: (s: ScriptSession, topic: string) => void;
  /** The checkpoint body served for `topic` (JSON-encoded unless a string), or a promise of it. */
  checkpoint?: (topic: string) => unknown;
  hbiSeconds?: number;
  /** The clock `subscribes` and `connects` are read on (ms); default the wall clock. */
  now?: () => number;
}

export interface ScriptServer {
  readonly url: string;
  readonly discoveryUrl: string;
  /** `checkpoint URL` of `topic`, to send in an `H`. */
  checkpointUrl(topic: string): string;
  /** Upgrades refused, and the raw token of each upgrade tried, in order. */
  readonly refused: number;
  readonly tokensTried: string[];
  /** Every `S` received: its topic and time (ms). */
  readonly subscribes: Array<{ topic: string; at: number }>;
  /** Times (ms) a socket was opened. */
  readonly connects: number[];
  readonly sessions: ScriptSession[];
  close(): Promise<void>;
}

export async function startScript(options: ScriptOptions = {}): Promise<ScriptServer> {
  const now = options.now ?? Date.now;
  const tokens = new Set<string>();
  const state = {
    refused: 0,
    tokensTried: [] as string[],
    subscribes: [] as Array<{ topic: string; at: number }>,
    connects: [] as number[],
    sessions: [] as ScriptSession[],
  };
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/public/websockethost') {
      const token = options.token?.() ?? randomUUID();
      tokens.add(token);
      const port = (server.address() as AddressInfo).port;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ ip: '127.0.0.1', port, securePort: port, token }));
      return;
    }
    const cp = /^\/cp\/([a-z0-9-]+)\.json$/.exec(path);
    if (cp && options.checkpoint) {
      void Promise.resolve(options.checkpoint(cp[1] as string)).then((body) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      });
      return;
    }
    res.statusCode = 404;
    res.end('{}');
  });
  server.on('upgrade', (req, socket, head) => {
    const raw = /[?&]TrafficManager-Token=([^&]*)/.exec(req.url ?? '')?.[1] ?? '';
    state.tokensTried.push(raw);
    // By default the query is read as a query-string parser reads it (`%XX` and `+` decoded).
    const readAs = (r: string): string => new URLSearchParams(`t=${r}`).get('t') ?? '';
    const token = [...tokens].find((t) => (options.acceptToken ?? ((r, tk) => readAs(r) === tk))(raw, t));
    if (token === undefined) {
      state.refused++;
      // The client may reset the connection as soon as it reads the refusal: a reset of a socket
      // this script is done with is no error of the test's.
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    tokens.delete(token);
    wss.handleUpgrade(req, socket, head, (ws) => {
      state.connects.push(now());
      const session: ScriptSession = {
        ws,
        sid: randomUUID(),
        send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
      };
      state.sessions.push(session);
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { op: string; tc?: string };
        if (m.op === 'C') {
          session.send({ op: 'C', rc: 200, hbi: options.hbiSeconds ?? 30, sid: session.sid });
          options.onConnect?.(session);
        } else if (m.op === 'S' && m.tc) {
          state.subscribes.push({ topic: m.tc, at: now() });
          session.send({ op: 'S', rc: 200, tc: m.tc });
          options.onSubscribe?.(session, m.tc);
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    discoveryUrl: `${base}/public/websockethost`,
    checkpointUrl: (topic) => `${base}/cp/${topic}.json`,
    get refused() {
      return state.refused;
    },
    tokensTried: state.tokensTried,
    subscribes: state.subscribes,
    connects: state.connects,
    sessions: state.sessions,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
