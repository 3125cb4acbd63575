import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { DISCOVERY_PATH } from '../../src/espn/fastcast-wire.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { testCerts, type Pem, type TestCa, type TestCerts } from '../support/test-certs.js';
import { runCli } from './harness.js';

/**
 * The doctor's TLS line on real TLS with throw-away certificates, as a user runs it: discovery at
 * `https://localhost` answers the IP 127.0.0.1, whose socket serves a certificate naming only
 * `localhost` (accepted for the discovery host, and said so) or one from a CA nobody trusts
 * (refused, with what to do). The CA reaches the doctor as it reaches courtside: NODE_EXTRA_CA_CERTS.
 */
let certs: TestCerts;
let trusted: TestCa;
let caDir: string;
let caFile: string;
beforeAll(() => {
  certs = testCerts();
  trusted = certs.ca('courtside doctor test CA');
  caDir = mkdtempSync(join(tmpdir(), 'courtside-doctor-ca-'));
  caFile = join(caDir, 'trusted-ca.pem');
  writeFileSync(caFile, trusted.cert);
});
afterAll(() => {
  certs.remove();
  rmSync(caDir, { recursive: true, force: true });
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** Discovery on `localhost` and the socket on 127.0.0.1 with `socketLeaf`: `C` answered, every topic 404. */
async function tlsFastcast(socketLeaf: Pem): Promise<string> {
  const socketServer = createHttpsServer({ key: socketLeaf.key, cert: socketLeaf.cert });
  const wss = new WebSocketServer({ server: socketServer });
  closers.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  wss.on('connection', (ws) =>
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { op: string; tc?: string };
      if (frame.op === 'C') ws.send(JSON.stringify({ op: 'C', rc: 200, hbi: 30, sid: 's' }));
      if (frame.op === 'S') ws.send(JSON.stringify({ op: 'S', rc: 404, tc: frame.tc }));
    }),
  );
  const socketPort = await listen(socketServer, '127.0.0.1');
  const leaf = trusted.leaf(['DNS:localhost']);
  const discovery = createHttpsServer({ key: leaf.key, cert: leaf.cert }, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ip: '127.0.0.1', securePort: socketPort, token: 'tok' }));
  });
  return `https://localhost:${await listen(discovery, 'localhost')}${DISCOVERY_PATH}`;
}

async function site(): Promise<RunningUpstream> {
  const up = await startUpstream({ logger: silentLogger, push: false });
  closers.push(() => up.close());
  return up;
}

async function doctor(fastcastUrl: string, upstream: string) {
  const run = runCli(
    ['doctor', '--upstream', upstream, '--fastcast-url', fastcastUrl, '--game', '401', '--seconds', '1'],
    { NODE_EXTRA_CA_CERTS: caFile },
  );
  const { code } = await run.exited;
  const line =
    run
      .stdout()
      .split('\n')
      .find((l) => /^\w+\s+fastcast-tls\s/.test(l)) ?? run.stdout();
  return { code, line, stdout: run.stdout() };
}

describe('courtside doctor on TLS', () => {
  it('says which name the certificate was accepted for', { timeout: 60_000 }, async () => {
    const [url, up] = await Promise.all([tlsFastcast(trusted.leaf(['DNS:localhost'])), site()]);
    const d = await doctor(url, up.url);
    expect(d.line).toMatch(
      /^ok\s+fastcast-tls\s+the certificate \(.*DNS:localhost.*\) names the discovery host, not the address 127\.0\.0\.1/,
    );
    expect(d.stdout).toMatch(/^ok\s+fastcast-upgrade\s+wss:\/\/127\.0\.0\.1:\d+\//m);
    // The look-alike has no topic: the doctor goes as far as the subscription, and says so.
    expect(d.stdout).toMatch(/^fail\s+fastcast-subscribe\s+.*answered rc 404/m);
    expect(d.code).toBe(1);
  });

  it('names a certificate from a CA not trusted, and what to do', { timeout: 60_000 }, async () => {
    const stranger = certs.ca('courtside doctor unknown CA');
    const [url, up] = await Promise.all([tlsFastcast(stranger.leaf(['IP:127.0.0.1'])), site()]);
    const d = await doctor(url, up.url);
    expect(d.line).toMatch(/^fail\s+fastcast-tls\s+TLS refused: .* -> .*NODE_EXTRA_CA_CERTS/);
    expect(d.stdout).toMatch(/^fail\s+fastcast-upgrade\s+the socket to wss:\/\/127\.0\.0\.1:\d+\S* failed/m);
    expect(d.code).toBe(1);
  });
});
