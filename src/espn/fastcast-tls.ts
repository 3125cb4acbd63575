import { checkServerIdentity, rootCertificates, type PeerCertificate } from 'node:tls';
import type { ClientOptions } from 'ws';
import type { Logger } from '../core/log.js';

/**
 * FastCast's TLS. Discovery hands out a bare IP to connect to, and the certificate served there
 * may name ESPN's service host instead. The chain is always verified as for any host; only the
 * name check is widened, for the FastCast socket alone, to one more name: the discovery URL's
 * host, which the operator chose to trust by configuring it.
 */

/** Node's `checkServerIdentity` signature: undefined accepts, an error refuses. */
export type ServerIdentityCheck = (hostname: string, cert: PeerCertificate) => Error | undefined;

/**
 * Accepts a certificate valid for `address` (the host the socket connects to, checked as Node
 * checks any host) or for `serviceHost` (the discovery URL's host); `onServiceHost` is called
 * when only the second matched. The name Node passes in is ignored: both names to accept are
 * known here, whatever was sent as SNI.
 */
export function fastcastServerIdentity(
  address: string,
  serviceHost: string,
  onServiceHost: () => void,
): ServerIdentityCheck {
  return (_hostname, cert) => {
    const byAddress = checkServerIdentity(address, cert);
    if (byAddress === undefined) return undefined;
    const byService = checkServerIdentity(serviceHost, cert);
    if (byService === undefined) {
      onServiceHost();
      return undefined;
    }
    // Node's own error (code ERR_TLS_CERT_ALTNAME_INVALID), reworded to name both names tried.
    const reason = (byService as Error & { reason?: string }).reason ?? byService.message;
    byService.message = `FastCast's certificate is valid for neither ${address} nor ${serviceHost} (${reason})`;
    return byService;
  };
}

/**
 * The CA certificates FastCast's TLS trusts: Node's bundled roots plus `extra`. Node's `ca`
 * option replaces the roots rather than adding to them, hence the copy; certificates added by
 * NODE_EXTRA_CA_CERTS are not among `rootCertificates`, so with `extra` given they must be in it.
 */
export function fastcastTrust(extra: string | Buffer): Array<string | Buffer> {
  return [...rootCertificates, extra];
}

/**
 * The socket's TLS options: the chain verified as always (rejectUnauthorized stays on), the name
 * check widened to the discovery host. No SNI is sent for an IP, as `ws` and browsers do (SNI
 * carries host names only): clients sending none are the ones that were seen served a certificate
 * naming ESPN's service host, and asking that IP for the discovery host by name could select
 * another certificate or draw an `unrecognized_name` refusal.
 */
export function fastcastSocketTls(
  address: string,
  serviceHost: string,
  trust: Array<string | Buffer> | undefined,
  onServiceHost: () => void,
): ClientOptions {
  return {
    rejectUnauthorized: true,
    ...(trust ? { ca: trust } : {}),
    // `ws` hands this to tls.connect as is; its typings describe an older, boolean form.
    checkServerIdentity: fastcastServerIdentity(
      address,
      serviceHost,
      onServiceHost,
    ) as unknown as ClientOptions['checkServerIdentity'],
  };
}

/**
 * The client's socket TLS for each address discovery hands out (`fastcastSocketTls`, trusting
 * `ca` besides Node's roots); the first certificate naming the discovery host instead of the
 * address is logged, once, so an operator sees the widened check was used.
 */
export function createSocketTls(
  discoveryUrl: string,
  trust: Array<string | Buffer> | undefined,
  logger: Logger,
): (address: string) => ClientOptions {
  // URL keeps an IPv6 host in brackets; the name check wants the bare address.
  const serviceHost = new URL(discoveryUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  let serviceHostLogged = false;
  return (address) =>
    fastcastSocketTls(address, serviceHost, trust, () => {
      if (serviceHostLogged) return;
      serviceHostLogged = true;
      logger.info(
        { address, serviceHost },
        "FastCast's certificate names the discovery host, not the address connected to; accepted for that name",
      );
    });
}
