import { InvalidConfigError } from '../src/core/errors.js';
import type { AlertsConfig, SubscriberConfig } from './rules-file.js';
import { assertDeliverableUrl } from './webhooks/address-guard.js';

/** The address a subscriber posts to, by the field of the rules file that gives it. */
function addressOf(sub: Exclude<SubscriberConfig, { kind: 'mqtt' }>): {
  field: 'url' | 'apiUrl';
  url: string;
} {
  return sub.kind === 'telegram' ? { field: 'apiUrl', url: sub.apiUrl } : { field: 'url', url: sub.url };
}

/**
 * Checks every subscriber's address against the SSRF guard, as each delivery will: a rules file
 * whose receiver the guard refuses would otherwise start, then fail every delivery into the failed
 * set. Throws `InvalidConfigError` naming the subscriber's field, its id and the refused address.
 * A name that does not resolve now passes (DNS may be down for a moment); deliveries check again.
 */
export async function assertSubscribersDeliverable(
  config: Pick<AlertsConfig, 'subscribers' | 'allowPrivateAddresses'>,
): Promise<void> {
  for (const [i, sub] of config.subscribers.entries()) {
    // A broker is the operator's own service, most often on the same host or network: the guard
    // against webhook receivers reaching inside the network does not apply to it.
    if (sub.kind === 'mqtt') continue;
    const { field, url } = addressOf(sub);
    try {
      await assertDeliverableUrl(url, config.allowPrivateAddresses, { allowUnresolved: true });
    } catch (err) {
      const reason = (err as { reason?: string }).reason ?? (err as Error).message;
      const hint = /private or special-use/.test(reason)
        ? ' (for a receiver on your own network, set allowPrivateAddresses: true)'
        : '';
      throw new InvalidConfigError(`subscribers.${i}.${field}`, `subscriber ${sub.id}: ${reason}${hint}`);
    }
  }
}
