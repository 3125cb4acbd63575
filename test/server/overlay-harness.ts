import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SimulatedGame } from '../../src/simulator/index.js';
import { ARTIFACTS } from '../support/chromium.js';

/**
 * What the overlay tests in Chromium share: a page that records every console error, uncaught
 * exception and request, the screenshots folder CI keeps, and the simulated game's timeline
 * (when a play is revealed upstream).
 */
export const SCREENSHOTS = join(ARTIFACTS, 'screenshots');

export interface OpenPage {
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Every URL the page requested (WebSocket included). */
  requests: string[];
}

export async function openPage(
  browser: Browser,
  url: string,
  viewport = { width: 640, height: 480 },
): Promise<OpenPage> {
  const page = await browser.newPage({ viewport });
  const opened: OpenPage = { page, errors: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') opened.errors.push(m.text());
  });
  page.on('pageerror', (e) => opened.errors.push(e.message));
  page.on('request', (r) => opened.requests.push(r.url()));
  page.on('websocket', (ws) => opened.requests.push(ws.url()));
  await page.goto(url);
  return opened;
}

/** No console error, no exception, and no request to anything but the daemon. */
export function expectClean(opened: OpenPage, daemonUrl: string): void {
  const { host } = new URL(daemonUrl);
  expect(opened.errors).toEqual([]);
  expect(opened.requests.filter((r) => new URL(r).host !== host)).toEqual([]);
}

export async function screenshot(opened: OpenPage, name: string, selector?: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, name);
  if (selector) await opened.page.locator(selector).screenshot({ path });
  else await opened.page.screenshot({ path });
  return path;
}

/** The text of `[data-testid=id]`, trimmed. */
export async function text(page: Page, id: string): Promise<string> {
  return page.evaluate(
    (testId) => document.querySelector(`[data-testid="${testId}"]`)?.textContent?.trim() ?? '',
    id,
  );
}

/** A play of the upstream's summary, as the simulator serves it (ESPN's JSON). */
export interface RawPlay {
  id: string;
  type?: { text?: string };
  homeScore?: number;
  awayScore?: number;
  period?: { number?: number };
  team?: { id?: string };
}

export function playsAt(game: SimulatedGame, now: number): RawPlay[] {
  return (game.summary(now).plays as unknown as RawPlay[] | undefined) ?? [];
}

/** The first clock time at which the upstream serves play `id` (a play stays once revealed). */
export function revealTime(game: SimulatedGame, id: string): number {
  let lo = game.startAt - 1;
  let hi = game.endAt + 60_000;
  const shown = (t: number): boolean => playsAt(game, t).some((p) => p.id === id);
  if (!shown(hi)) throw new Error(`play ${id} is never revealed`);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (shown(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
