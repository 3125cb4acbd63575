import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createFastcastClient, type FastcastClient } from '../../src/espn/fastcast-client.js';
import { DISCOVERY_PATH } from '../../src/espn/fastcast-wire.js';
import { testCerts, type Pem, type TestCa, type TestCerts } from '../support/test-certs.js';
import { VirtualTime } from '../support/virtual-time.js';

/**
 * FastCast's TLS on real sockets with throw-away certificates: discovery at `https://localhost`
 * answers the IP 127.0.0.1, and the socket there is served one leaf or another. The name check
 * accepts the address or the discovery host and nothing else; the chain is always verified.
 */

const TOPIC = 'gp-basketball-nba-401';
let certs: TestCerts;
let trusted: TestCa;
let untrusted: TestCa;
let discoveryLeaf: Pem;

beforeAll(() => {
  certs = testCerts();
  trusted = certs.ca('courtside test CA');
  untrusted = certs.ca('courtside unknown CA');
  discoveryLeaf = trusted.leaf(['DNS:localhost']);
});
afterAll(() => certs.remove());

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

interface Upstream {
  readonly discoveryUrl: string;
  /** Sockets whose TLS handshake and upgrade succeeded. */
  readonly sockets: number;
  /** `C` handshakes answered. */
  readonly connects: number;
  /** Closes every open socket from the server's side. */
  dropAll(): void;
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** A FastCast look-alike: discovery on `localhost`, the socket on 127.0.0.1 with `socketLeaf`. */
async function startUpstream(socketLeaf: Pem): Promise<Upstream> {
  const state = { sockets: 0, connects: 0 };
  const socketServer = createHttpsServer({ key: socketLeaf.key, cert: socketLeaf.cert });
  const wss = new WebSocketServer({ server: socketServer });
  open.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  wss.on('connection', (ws) => {
    state.sockets++;
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { op: string; tc?: string };
      if (frame.op === 'C') {
        state.connects++;
        ws.send(JSON.stringify({ op: 'C', rc: 200, hbi: 30, sid: 'x' }));
      } else if (frame.op === 'S') ws.send(JSON.stringify({ op: 'S', rc: 200, tc: frame.tc }));
    });
  });
  const socketPort = await listen(socketServer, '127.0.0.1');
  const discovery = createHttpsServer({ key: discoveryLeaf.key, cert: discoveryLeaf.cert }, (req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ip: '127.0.0.1', securePort: socketPort, token: 'tok' }));
  });
  // `localhost` is where the client looks it up, whichever address family that gives first.
  const discoveryPort = await listen(discovery, 'localhost');
  return {
    discoveryUrl: `https://localhost:${discoveryPort}${DISCOVERY_PATH}`,
    get sockets() {
      return state.sockets;
    },
    get connects() {
      return state.connects;
    },
    dropAll: () => wss.clients.forEach((ws) => ws.terminate()),
  };
}

interface LogLine {
  level: number;
  msg: string;
  reason?: string;
  detail?: string;
  address?: string;
  serviceHost?: string;
}

function startClient(
  up: Upstream,
  ca: string | undefined,
): { client: FastcastClient; logs: LogLine[]; time: VirtualTime } {
  // The client's backoffs run in virtual time; the TLS handshakes are real.
  const time = new VirtualTime();
  const logs: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const client = createFastcastClient(
    {
      discoveryUrl: up.discoveryUrl,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0',
      origin: 'https://www.espn.com',
      timeoutMs: 2000,
      backoffBaseMs: 20,
      backoffMaxMs: 50,
      retryTopicMs: 100,
      resyncMinMs: 50,
      ...(ca === undefined ? {} : { ca }),
      // These servers answer `C` and `S` only: no `H` frame ever asks for a checkpoint.
      fetchDocument: () => Promise.reject(new Error('no checkpoint in a TLS handshake test')),
      logger,
      scheduler: time,
    },
    { document: () => undefined, lost: () => undefined },
  );
  open.push(() => client.close());
  client.subscribe(TOPIC);
  return { client, logs, time };
}

const accepted = (logs: LogLine[]): LogLine[] =>
  logs.filter((l) => l.msg.startsWith("FastCast's certificate names"));
const lost = (logs: LogLine[]): LogLine[] => logs.filter((l) => l.msg.startsWith('FastCast connection lost'));

describe('FastCast TLS', () => {
  it('accepts a certificate naming the discovery host on the IP discovery gave, and says so once', async () => {
    const up = await startUpstream(trusted.leaf(['DNS:localhost']));
    const { client, logs, time } = startClient(up, trusted.cert);
    await time.until(() => client.connected, 'the C handshake');
    expect(up.connects).toBe(1);
    expect(accepted(logs)).toEqual([
      expect.objectContaining({ level: 30, address: '127.0.0.1', serviceHost: 'localhost' }),
    ]);
    // A reconnection is checked again but not logged again.
    up.dropAll();
    await time.until(() => up.connects === 2 && client.connected, 'the second handshake');
    expect(accepted(logs)).toHaveLength(1);
  });

  it('accepts a certificate naming the address connected to, without the widened name', async () => {
    const up = await startUpstream(trusted.leaf(['IP:127.0.0.1']));
    const { client, logs, time } = startClient(up, trusted.cert);
    await time.until(() => client.connected, 'the C handshake');
    expect(accepted(logs)).toEqual([]);
  });

  it('refuses a certificate naming another host, and keeps trying', async () => {
    const up = await startUpstream(trusted.leaf(['DNS:evil.example']));
    const { client, logs, time } = startClient(up, trusted.cert);
    await time.until(() => lost(logs).length >= 3, 'three refused connections');
    for (const line of lost(logs)) {
      expect(line.reason).toBe('error');
      expect(line.detail).toContain("FastCast's certificate is valid for neither 127.0.0.1 nor localhost");
      expect(line.detail).toContain('evil.example');
    }
    expect(up.sockets).toBe(0);
    expect(client.connected).toBe(false);
    expect(accepted(logs)).toEqual([]);
  });

  it('refuses a certificate whose chain is not trusted, even naming the discovery host', async () => {
    const up = await startUpstream(untrusted.leaf(['DNS:localhost', 'IP:127.0.0.1']));
    const { client, logs, time } = startClient(up, trusted.cert);
    await time.until(() => lost(logs).length >= 2, 'two refused connections');
    for (const line of lost(logs)) expect(line.detail).toMatch(/unable to verify|issuer certificate/);
    expect(up.sockets).toBe(0);
    expect(client.connected).toBe(false);
    expect(accepted(logs)).toEqual([]);
  });

  it('without the test CA given, discovery itself is refused: Node’s roots alone do not trust it', async () => {
    const up = await startUpstream(trusted.leaf(['DNS:localhost']));
    const { client, logs, time } = startClient(up, undefined);
    await time.until(
      () => logs.filter((l) => l.msg === 'FastCast discovery failed').length >= 2,
      'two failed discoveries',
    );
    expect(up.sockets).toBe(0);
    expect(client.connected).toBe(false);
  });
});
