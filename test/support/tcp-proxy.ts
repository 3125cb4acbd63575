import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server, which a test cuts and restores: `cut()` destroys every open
 * connection and refuses new ones (a network outage as the client sees it), `restore()` lets
 * them through again, `freeze()` keeps connections open but stops reading them (a silent path:
 * no close, no data, only a heartbeat notices; what was sent meanwhile arrives after `restore()`,
 * as TCP would deliver it). The target may change at any time (a daemon restarted on a new port).
 */
export interface TcpProxy {
  /** `http://127.0.0.1:<port>` of the proxy. */
  readonly url: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  cut(): void;
  restore(): void;
  freeze(): void;
  /** Forwards new connections to this port from now on. */
  retarget(port: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, host = '127.0.0.1'): Promise<TcpProxy> {
  let target = targetPort;
  let mode: 'open' | 'cut' | 'frozen' = 'open';
  let accepted = 0;
  const pairs = new Set<[Socket, Socket]>();

  const each = (f: (socket: Socket) => void): void => {
    for (const pair of pairs) pair.forEach(f);
  };
  const drop = (): void => {
    for (const [a, b] of pairs) {
      a.destroy();
      b.destroy();
    }
    pairs.clear();
  };

  const server: Server = createServer((client) => {
    client.on('error', () => undefined);
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    accepted += 1;
    const upstream = connectTcp(target, host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const forget = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', forget);
    upstream.on('close', forget);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === 'frozen') pair.forEach((socket) => socket.pause());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  const port = address.port;

  return {
    url: `http://${host}:${port}`,
    port,
    get accepted() {
      return accepted;
    },
    cut() {
      mode = 'cut';
      drop();
    },
    restore() {
      if (mode === 'frozen') each((socket) => socket.resume());
      mode = 'open';
    },
    freeze() {
      mode = 'frozen';
      each((socket) => socket.pause());
    },
    retarget(next) {
      target = next;
    },
    async close() {
      mode = 'cut';
      drop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
