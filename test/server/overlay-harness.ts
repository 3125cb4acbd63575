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

/** The smallest font sizes a graphic keeps at the 1080p scale (docs/overlay.md, "Sizes"). */
export interface Minimums {
  /** Every visible text. */
  text: number;
  /** Selectors whose text must be at least this large, e.g. `{ '.score': 32 }`. */
  at?: Record<string, number>;
}

export const SCOREBUG_MINIMUMS: Minimums = {
  text: 16,
  at: { '.team .score': 32, '.team .abbr': 24, '.clock .time': 24 },
};

export const TICKER_MINIMUMS: Minimums = {
  text: 16,
  at: { '.game .score': 32, '.game .abbr': 24, '.game .detail': 24 },
};

export const LOWER_THIRD_MINIMUMS: Minimums = { text: 16, at: { '.card-line span': 24 } };

/**
 * What is wrong with the layout inside each element `root` matches: each visible element that leaves its parent's box
 * (by more than half a pixel), each text cut off without an ellipsis, and each visible text below
 * its minimum size in CSS pixels (a page at the default scale: 1 CSS pixel is 1 pixel of a 1080p
 * canvas). Empty when none.
 */
export async function layoutProblems(page: Page, root: string, minimums: Minimums): Promise<string[]> {
  return page.evaluate(
    ({ root, minimums }) => {
      const problems: string[] = [];
      const tops = Array.from(document.querySelectorAll(root));
      if (tops.length === 0) return [`${root} is not on the page`];
      const name = (el: Element): string =>
        `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}${
          el.classList.length ? `.${Array.from(el.classList).join('.')}` : ''
        }`;
      const visible = (el: Element): boolean =>
        el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      const ownText = (el: Element): string =>
        Array.from(el.childNodes)
          .filter((n) => n.nodeType === Node.TEXT_NODE)
          .map((n) => n.textContent ?? '')
          .join('')
          .trim();
      for (const el of tops.flatMap((top) => [top, ...Array.from(top.querySelectorAll('*'))])) {
        if (!visible(el) || el.closest('svg')) continue;
        const box = el.getBoundingClientRect();
        const parent = tops.includes(el) ? null : el.parentElement;
        if (parent) {
          const p = parent.getBoundingClientRect();
          const out = Math.max(
            p.left - box.left,
            box.right - p.right,
            p.top - box.top,
            box.bottom - p.bottom,
          );
          if (out > 0.5) problems.push(`${name(el)} leaves ${name(parent)} by ${out.toFixed(1)} px`);
        }
        const text = ownText(el);
        if (text === '') continue;
        const style = getComputedStyle(el);
        if (
          el.scrollWidth > el.clientWidth + 1 &&
          el.clientWidth > 0 &&
          style.textOverflow !== 'ellipsis' &&
          style.display !== 'inline'
        )
          problems.push(`${name(el)} cuts its text "${text}" (${el.scrollWidth} > ${el.clientWidth} px)`);
        const size = parseFloat(style.fontSize);
        let min = minimums.text;
        for (const [selector, least] of Object.entries(minimums.at ?? {}))
          if (el.matches(selector)) min = Math.max(min, least);
        if (size < min - 0.01) problems.push(`${name(el)} "${text}" is ${size} px, under ${min} px`);
      }
      return problems;
    },
    { root, minimums },
  );
}
