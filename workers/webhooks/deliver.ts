import { Agent, request } from 'undici';
import { VERSION } from '../../src/core/version.js';
import { WebhookFailedError } from '../../src/core/errors.js';
import { assertDeliverableUrl, guardedLookup } from './address-guard.js';
import { signPayload } from './signature.js';

export const USER_AGENT = `courtside-webhooks/${VERSION} (+https://github.com/courtside-dev/courtside)`;

export interface Delivery {
  url: string;
  secret: string;
  /** The JSON body exactly as sent (and signed). */
  body: string;
  idempotencyKey: string;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  /** Injectable for tests; seconds since the epoch. */
  nowSeconds?: () => number;
}

export interface DeliveryResult {
  status: number;
  timestamp: string;
}

// Connections to receivers resolve names through the guard, so a name that re-resolves to a
// private address between the check and the connect is still refused.
const guardedAgent = new Agent({ connect: { lookup: guardedLookup } });
const openAgent = new Agent();
// Enough of an error body to say why in the failed list, not enough to bloat Redis.
const ERROR_BODY_CHARS = 200;

/**
 * POSTs one signed webhook. Redirects are not followed (a 3xx is a failure), so a receiver cannot
 * bounce the worker to an internal address. Throws `WebhookRefusedError` (never retried usefully)
 * or `WebhookFailedError` (retried by the queue).
 */
export async function deliverWebhook(delivery: Delivery): Promise<DeliveryResult> {
  const url = await assertDeliverableUrl(delivery.url, delivery.allowPrivateAddresses);
  const timestamp = String(delivery.nowSeconds?.() ?? Math.floor(Date.now() / 1000));
  let response;
  try {
    response = await request(url, {
      method: 'POST',
      body: delivery.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-courtside-timestamp': timestamp,
        'x-courtside-signature': signPayload(delivery.secret, timestamp, delivery.body),
        'idempotency-key': delivery.idempotencyKey,
      },
      dispatcher: delivery.allowPrivateAddresses ? openAgent : guardedAgent,
      headersTimeout: delivery.timeoutMs,
      bodyTimeout: delivery.timeoutMs,
      signal: AbortSignal.timeout(delivery.timeoutMs),
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'WEBHOOK_REFUSED') throw err;
    throw new WebhookFailedError(delivery.url, null, (err as Error).message, { cause: err });
  }
  const status = response.statusCode;
  if (status >= 200 && status < 300) {
    await response.body.dump();
    return { status, timestamp };
  }
  let text = '';
  try {
    text = (await response.body.text()).slice(0, ERROR_BODY_CHARS);
  } catch {
    // The status says enough.
  }
  const reason =
    status >= 300 && status < 400
      ? `answered ${status} (redirects are not followed)`
      : `answered ${status}${text ? `: ${text}` : ''}`;
  throw new WebhookFailedError(delivery.url, status, reason);
}
