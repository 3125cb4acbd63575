import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * The address a request comes from, as the per-viewer limits count it: the socket's peer, unless
 * that peer is a configured proxy, in which case the nearest address of `X-Forwarded-For` that is
 * not itself a configured proxy. A viewer can write anything in `X-Forwarded-For`, so only the
 * part appended by trusted proxies is believed: the list is read from the right.
 */
export function viewerAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = normalise(req.socket.remoteAddress ?? 'unknown');
  if (!trustedProxies.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => normalise(hop.trim()))
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trustedProxies.has(hop)) return hop;
  }
  return hops[0] ?? peer;
}

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is `127.0.0.1`. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

export function trustedSet(addresses: readonly string[]): ReadonlySet<string> {
  return new Set(addresses.map(normalise));
}
