import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core: never a browser a tool downloads by itself. Tests
 * that need it skip, saying why, where it is absent; their screenshots go to `artifacts/`.
 * `COURTSIDE_CHROMIUM` names another binary (a system that installs it elsewhere).
 */
export const CHROMIUM = process.env.COURTSIDE_CHROMIUM || '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const NO_CHROMIUM_REASON = `${CHROMIUM} is absent (apt-get install chromium, or set COURTSIDE_CHROMIUM)`;
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'artifacts');

if (!HAVE_CHROMIUM) console.warn(`[skip] ${NO_CHROMIUM_REASON}`);

/** A headless browser with no network of its own, and the artifacts folder ready for screenshots. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
