import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../../workers/webhooks/deliver.js';
import { signPayload, verifySignature } from '../../../workers/webhooks/signature.js';
import { startReceiver, type Received } from '../../support/receiver.js';

const DOC = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'alerts.md');
const SECRET = 'whsec-0123456789abcdef';
const dir = await mkdtemp(join(tmpdir(), 'courtside-sig-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The first fenced block of `lang` under the "Verifying a delivery" heading of docs/alerts.md. */
async function docSnippet(lang: string): Promise<string> {
  const doc = await readFile(DOC, 'utf8');
  const section = doc.slice(doc.indexOf('### Verifying a delivery'));
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  if (!match?.[1]) throw new Error(`no ${lang} block in the verification section of docs/alerts.md`);
  return match[1];
}

/** One real delivery, as a receiver on loopback got it. */
async function realDelivery(): Promise<Received> {
  const receiver = await startReceiver();
  try {
    await deliverWebhook({
      url: receiver.url,
      secret: SECRET,
      body: JSON.stringify({
        kind: 'alert',
        id: 'final_score:mens:1:final',
        text: 'Final: BOS 101 - LAL 102 ✓',
      }),
      idempotencyKey: 'final_score:mens:1:final@bot',
      timeoutMs: 5_000,
      allowPrivateAddresses: true,
    });
    const got = receiver.received[0];
    if (!got) throw new Error('no delivery received');
    return got;
  } finally {
    await receiver.close();
  }
}

const python = spawnSync('python3', ['--version']).status === 0;

describe('webhook signatures', () => {
  it('signs "<timestamp>.<body>" with HMAC-SHA256 and verifies only the untouched delivery', async () => {
    const r = await realDelivery();
    const timestamp = r.headers['x-courtside-timestamp'] as string;
    const signature = r.headers['x-courtside-signature'] as string;
    expect(signature).toBe(signPayload(SECRET, timestamp, r.body));
    expect(r.headers['idempotency-key']).toBe('final_score:mens:1:final@bot');
    expect(verifySignature({ secret: SECRET, timestamp, signature, body: r.body })).toBe(true);
    expect(
      verifySignature({ secret: SECRET, timestamp, signature, body: r.body.replace('102', '103') }),
    ).toBe(false);
    expect(verifySignature({ secret: 'another-secret-0000', timestamp, signature, body: r.body })).toBe(
      false,
    );
    expect(
      verifySignature({
        secret: SECRET,
        timestamp,
        signature,
        body: r.body,
        nowSeconds: Number(timestamp) + 3600,
      }),
    ).toBe(false);
  });

  it('the documented JavaScript receiver code verifies a real delivery', async () => {
    const file = join(dir, 'verify.mjs');
    await writeFile(file, await docSnippet('js'));
    const { verifyCourtsideWebhook } = (await import(pathToFileURL(file).href)) as {
      verifyCourtsideWebhook: (secret: string, headers: Received['headers'], raw: string) => boolean;
    };
    const r = await realDelivery();
    expect(verifyCourtsideWebhook(SECRET, r.headers, r.body)).toBe(true);
    expect(verifyCourtsideWebhook(SECRET, r.headers, `${r.body} `)).toBe(false);
    expect(verifyCourtsideWebhook('wrong-secret-000000', r.headers, r.body)).toBe(false);
  });

  it.skipIf(!python)(
    'the documented Python receiver code verifies a real delivery (python3 on PATH)',
    async () => {
      const r = await realDelivery();
      const driver = `${await docSnippet('python')}
import json, sys
case = json.load(sys.stdin)
body = case["body"].encode("utf-8")
print(json.dumps([
    verify_courtside_webhook(case["secret"], case["headers"], body),
    verify_courtside_webhook(case["secret"], case["headers"], body + b" "),
    verify_courtside_webhook("wrong-secret-000000", case["headers"], body),
]))
`;
      const file = join(dir, 'verify.py');
      await writeFile(file, driver);
      const run = spawnSync('python3', [file], {
        input: JSON.stringify({ secret: SECRET, headers: r.headers, body: r.body }),
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual([true, false, false]);
    },
  );
});
