import { describe, expect, it } from 'vitest';
import { assertDeliverableUrl, isForbiddenAddress } from '../../../workers/webhooks/address-guard.js';
import { deliverWebhook } from '../../../workers/webhooks/deliver.js';
import { startReceiver } from '../../support/receiver.js';

describe('SSRF guard', () => {
  it('classifies private, loopback, link-local, unique-local and unspecified addresses', () => {
    for (const bad of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '[::1]',
    ]) {
      expect(isForbiddenAddress(bad), bad).toBe(true);
    }
    for (const good of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isForbiddenAddress(good), good).toBe(false);
    }
  });

  it('refuses such URLs unless private addresses are allowed', async () => {
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/x',
      'http://[fc00::1]/x',
      'http://localhost:9/x',
      'http://[::ffff:127.0.0.1]/x',
    ]) {
      await expect(assertDeliverableUrl(url, false), url).rejects.toMatchObject({ code: 'WEBHOOK_REFUSED' });
    }
    await expect(assertDeliverableUrl('file:///etc/passwd', true)).rejects.toMatchObject({
      code: 'WEBHOOK_REFUSED',
    });
    await expect(assertDeliverableUrl('http://127.0.0.1:9/x', true)).resolves.toBeInstanceOf(URL);
  });

  it('never sends a request to a refused address, and does not follow redirects', async () => {
    const receiver = await startReceiver(() => 200);
    try {
      const delivery = { secret: 's'.repeat(16), body: '{}', idempotencyKey: 'k', timeoutMs: 5000 };
      await expect(
        deliverWebhook({ ...delivery, url: receiver.url, allowPrivateAddresses: false }),
      ).rejects.toMatchObject({
        code: 'WEBHOOK_REFUSED',
      });
      expect(receiver.received).toHaveLength(0);
      await expect(
        deliverWebhook({ ...delivery, url: receiver.url, allowPrivateAddresses: true }),
      ).resolves.toMatchObject({
        status: 200,
      });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
    const redirecting = await startReceiver(() => 302);
    try {
      await expect(
        deliverWebhook({
          url: redirecting.url,
          secret: 's'.repeat(16),
          body: '{}',
          idempotencyKey: 'k',
          timeoutMs: 5000,
          allowPrivateAddresses: true,
        }),
      ).rejects.toMatchObject({ code: 'WEBHOOK_FAILED', status: 302 });
      expect(redirecting.received).toHaveLength(1);
    } finally {
      await redirecting.close();
    }
  });
});
