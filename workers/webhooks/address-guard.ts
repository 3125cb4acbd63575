import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WebhookRefusedError } from '../../src/core/errors.js';

/**
 * Addresses a webhook may not reach unless `allowPrivateAddresses` is set: a rules file must not
 * turn the worker into a probe of its own network (cloud metadata at 169.254.169.254, Redis on
 * loopback, the LAN). Special-use ranges from RFC 6890 and its IPv6 counterparts.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::/96`) IPv6 address. */
function embeddedIPv4(address: string): string | null {
  const lower = address.toLowerCase();
  const match = /^(?:::ffff:|64:ff9b::)(?:0:)?(.+)$/.exec(lower);
  if (!match?.[1]) return null;
  const tail = match[1];
  if (isIP(tail) === 4) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(tail);
  if (!hex?.[1] || !hex[2]) return null;
  const hi = parseInt(hex[1], 16);
  const lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for private, loopback, link-local, unique-local, unspecified and other special addresses. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIPv4(bare);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  // Not an IP address at all: refuse rather than guess.
  return true;
}

/**
 * Checks a webhook URL before a delivery: http or https only, and (unless private addresses are
 * allowed) every address its host resolves to must be public. The connection itself is guarded
 * again by `guardedLookup`, so a DNS answer that changes between the check and the connect
 * (rebinding) is refused too.
 */
export async function assertDeliverableUrl(
  url: string,
  allowPrivateAddresses: boolean,
  options: { allowUnresolved?: boolean } = {},
): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookRefusedError(url, 'not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new WebhookRefusedError(url, `scheme ${parsed.protocol} is not http or https`);
  }
  if (parsed.username || parsed.password) throw new WebhookRefusedError(url, 'credentials in the URL');
  if (allowPrivateAddresses) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolveAll(url, host);
  } catch (err) {
    // A check ahead of time may let a name that does not resolve now pass: each delivery checks again.
    if (options.allowUnresolved) return parsed;
    throw err;
  }
  const bad = addresses.find(isForbiddenAddress);
  if (bad !== undefined) {
    throw new WebhookRefusedError(url, `${host} resolves to ${bad}, a private or special-use address`);
  }
  return parsed;
}

async function resolveAll(url: string, host: string): Promise<string[]> {
  try {
    const found = await dns.lookup(host, { all: true, verbatim: true });
    if (found.length === 0) throw new Error('no addresses');
    return found.map((entry) => entry.address);
  } catch (err) {
    throw new WebhookRefusedError(url, `cannot resolve ${host}: ${(err as Error).message}`);
  }
}

/** A `net.connect` lookup that fails on forbidden addresses (used by the delivery agent). */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) {
      callback(err, '', 0);
      return;
    }
    const bad = addresses.find((entry) => isForbiddenAddress(entry.address));
    if (bad) {
      callback(new WebhookRefusedError(hostname, `${hostname} resolves to ${bad.address}`), '', 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return;
    }
    const first = addresses[0];
    if (!first) callback(new Error(`no address for ${hostname}`), '', 0);
    else callback(null, first.address, first.family);
  });
};
