import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { DEFAULT_UPSTREAM } from '../../src/daemon/config.js';
import { DEFAULT_FASTCAST_URL, loadPushConfig } from '../../src/daemon/push-config.js';
import { planPush } from '../../src/daemon/push-plan.js';
import { startUpstream, type RunningUpstream } from '../../src/simulator/index.js';
import { freePort } from '../support/free-port.js';

describe('where FastCast is looked for', () => {
  it('on another upstream, at its own discovery path, when no FastCast URL is set', () => {
    const push = loadPushConfig({ env: {}, upstream: 'http://localhost:9100' });
    expect(push?.fastcastUrl).toBe('http://localhost:9100/public/websockethost');
    expect(push?.discovery).toEqual({ from: 'upstream', upstream: 'http://localhost:9100' });
    // An upstream with a path keeps it: discovery sits beside the site API it proxies.
    expect(loadPushConfig({ env: {}, upstream: 'http://proxy.local/espn/' })?.fastcastUrl).toBe(
      'http://proxy.local/espn/public/websockethost',
    );
  });

  it("at ESPN's FastCast for ESPN's site API, and wherever a flag or variable says, whatever the upstream", () => {
    expect(loadPushConfig({ env: {}, upstream: DEFAULT_UPSTREAM })).toMatchObject({
      fastcastUrl: DEFAULT_FASTCAST_URL,
      discovery: { from: 'espn' },
    });
    const set = 'http://127.0.0.1:9/public/websockethost';
    expect(
      loadPushConfig({ env: { COURTSIDE_FASTCAST_URL: set }, upstream: 'http://localhost:9100' }),
    ).toMatchObject({ fastcastUrl: set, discovery: { from: 'setting', name: 'COURTSIDE_FASTCAST_URL' } });
    expect(
      loadPushConfig({ env: {}, flags: { fastcastUrl: set }, upstream: 'http://localhost:9100' }),
    ).toMatchObject({ fastcastUrl: set, discovery: { from: 'setting', name: '--fastcast-url' } });
    expect(loadPushConfig({ env: {}, flags: { push: 'off' }, upstream: 'http://localhost:9100' })).toBeNull();
  });
});

describe('the start-up plan for push', () => {
  let upstream: RunningUpstream | undefined;
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    await upstream?.close();
    upstream = undefined;
    for (const s of sockets.splice(0)) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  const pushOn = (url: string) => loadPushConfig({ env: {}, upstream: url });

  it('keeps push on when the upstream serves FastCast discovery (the simulator), and says so', async () => {
    upstream = await startUpstream({ simulate: { games: 1, seed: 3 }, logger: silentLogger });
    const plan = await planPush(pushOn(upstream.url), { role: 'all' });
    expect(plan.push?.fastcastUrl).toBe(upstream.fastcastUrl);
    expect(plan.notice).toBe(
      `push on: FastCast at ${upstream.fastcastUrl}, discovered on the upstream ${upstream.url}; a game is polled until push delivers it`,
    );
  });

  it('turns push off for the run when the upstream serves no discovery, naming the answer and the flag', async () => {
    upstream = await startUpstream({ simulate: { games: 1, seed: 3 }, push: false, logger: silentLogger });
    const plan = await planPush(pushOn(upstream.url), { role: 'all' });
    expect(plan.push).toBeNull();
    // The simulator's site API refuses a browser's agent, as ESPN's edge does: FastCast is not there.
    expect(plan.notice).toBe(
      `push off: the upstream ${upstream.url} serves no FastCast (HTTP 403 at ${upstream.url}/public/websockethost); every live game is polled. --fastcast-url <discovery URL> names a FastCast (ESPN's: ${DEFAULT_FASTCAST_URL})`,
    );
  });

  it('turns push off when the discovery path answers something that is not a discovery', async () => {
    server = createHttpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
    );
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const plan = await planPush(pushOn(url), { role: 'all' });
    expect(plan.push).toBeNull();
    expect(plan.notice).toMatch(/^push off: .*serves no FastCast \(an answer that is not JSON at /);
  });

  it('keeps push on when the upstream does not answer yet (started beside the daemon)', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const plan = await planPush(pushOn(url), { role: 'all' });
    expect(plan.push?.fastcastUrl).toBe(`${url}/public/websockethost`);
    expect(plan.notice).toMatch(
      new RegExp(
        `^push on: FastCast at ${url}/public/websockethost, on the upstream ${url}, which does not answer yet \\(connect ECONNREFUSED [^)]+\\); games are polled until it does$`,
      ),
    );
  });

  it('keeps push on when the discovery does not answer in time, and waits no longer than the probe allows', async () => {
    // Takes the connection and never answers.
    server = createTcpServer((socket) => sockets.push(socket)) as unknown as Server;
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const started = Date.now();
    const plan = await planPush(pushOn(url), { role: 'all', probeTimeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(plan.push).not.toBeNull();
    expect(plan.notice).toMatch(/which does not answer yet \(no answer within 300 ms\)/);
  });

  it('says what push does without asking anything when push is off, set, ESPN’s, or of no use to a gateway', async () => {
    expect((await planPush(null, { role: 'all' })).notice).toBe(
      'push off (--push off or COURTSIDE_PUSH=off): every live game is polled',
    );
    expect((await planPush(loadPushConfig({ env: {} }), { role: 'all' })).notice).toBe(
      `push on: FastCast at ${DEFAULT_FASTCAST_URL} (ESPN's); a game is polled until push delivers it`,
    );
    // Port 9 on loopback answers nothing: a probe would say "does not answer yet".
    const set = loadPushConfig({
      env: { COURTSIDE_FASTCAST_URL: 'http://127.0.0.1:9/public/websockethost' },
    });
    expect((await planPush(set, { role: 'poller' })).notice).toBe(
      'push on: FastCast at http://127.0.0.1:9/public/websockethost (COURTSIDE_FASTCAST_URL); a game is polled until push delivers it',
    );
    const gateway = await planPush(pushOn('http://127.0.0.1:9'), { role: 'gateway' });
    expect(gateway.notice).toBe('push not used: a gateway instance follows no game (--role)');
  });
});
