import { Agent, request } from 'undici';
import { WebhookFailedError } from '../../src/core/errors.js';
import { assertDeliverableUrl, guardedLookup } from '../webhooks/address-guard.js';
import { USER_AGENT } from '../webhooks/deliver.js';
import type { Answer, ChatRequest } from './types.js';

// As for signed webhooks: connections resolve names through the SSRF guard, so a name that
// re-resolves to a private address between the check and the connect is still refused.
const guardedAgent = new Agent({ connect: { lookup: guardedLookup } });
const openAgent = new Agent();
// Chat platforms answer with an id or an error: a few KB is plenty, more is not read.
const ANSWER_BYTES = 16 * 1024;

/**
 * Sends one chat request and reads the answer, whatever its status. The URL passes the SSRF guard
 * first (the platforms' public hosts pass; a self-hosted ntfy on the LAN needs
 * `allowPrivateAddresses`); redirects are not followed. A timeout or a connection error throws
 * `WebhookFailedError` (a failed attempt), a refused address `WebhookRefusedError`. Messages may
 * hold the URL: the caller redacts them.
 */
export async function sendChat(
  req: ChatRequest,
  options: { timeoutMs: number; allowPrivateAddresses: boolean },
): Promise<Answer> {
  const url = await assertDeliverableUrl(req.url, options.allowPrivateAddresses);
  try {
    const response = await request(url, {
      method: 'POST',
      body: req.body,
      headers: { 'user-agent': USER_AGENT, ...req.headers },
      dispatcher: options.allowPrivateAddresses ? openAgent : guardedAgent,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    let text = '';
    for await (const chunk of response.body) {
      if (text.length < ANSWER_BYTES) text += (chunk as Buffer).toString('utf8');
    }
    return { status: response.statusCode, headers: response.headers, text: text.slice(0, ANSWER_BYTES) };
  } catch (err) {
    if ((err as { code?: string }).code === 'WEBHOOK_REFUSED') throw err;
    const reason =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : (err as Error).message;
    throw new WebhookFailedError(req.url, null, reason, { cause: err });
  }
}
