import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Binds `server` and resolves with the URL a local client reaches it at: a wildcard bind
 * (0.0.0.0, ::) is reached on 127.0.0.1; an IPv6 address goes in brackets.
 */
export async function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = ['0.0.0.0', '::', ''].includes(address.address)
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${shown}:${address.port}`;
}

/**
 * Stops accepting connections and resolves once the open ones have ended, or after `timeoutMs`,
 * when those still open are cut: a stopping process must not wait on a client that never leaves.
 */
export function stopListening(server: Server, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
