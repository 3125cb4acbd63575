// What every overlay page reads from its URL, and the page options they share: theme, scale and
// a transparent background. The server has checked the query before serving the page
// (src/server/overlay-params.ts), so values here are known to be well formed.
import { FINAL_NAMES, PERIOD_NAMES } from './periods.js';

export const query = new URLSearchParams(location.search);
export const token = query.get('token');

/** A 1080p canvas is the reference size; the names a streamer knows map to a factor of it. */
const SCALE_PRESETS = { '720p': 2 / 3, '1080p': 1, '1440p': 4 / 3, '4k': 2 };

/** An integer parameter, or `fallback` when absent. */
export function intParam(name, fallback) {
  const value = query.get(name);
  return value === null || value === '' ? fallback : Number(value);
}

/** The path segments after `/overlay/`: `['mens', '401585607']`, `['mens', 'ticker']`, `['ticker']`. */
export const segments = location.pathname.split('/').filter(Boolean).slice(1);

/**
 * Theme, scale and transparency on `<html>`: the stylesheets key everything off
 * `data-theme`, the `transparent` class and `zoom`.
 */
export function applyPageOptions() {
  const html = document.documentElement;
  // On <html>: both it and <body> must drop their background for OBS to key the page out.
  if (query.get('transparent') === '1') html.classList.add('transparent');
  html.dataset.theme = query.get('theme') ?? 'dark';
  const scale = query.get('scale');
  const factor = scale === null ? 1 : (SCALE_PRESETS[scale] ?? Number(scale));
  // `zoom` scales layout and text alike, so a page drawn for 1080p is crisp on a 4K canvas
  // (a transform would scale a 1080p bitmap).
  if (factor !== 1) html.style.zoom = String(factor);
  html.dataset.scale = String(factor);
}

/**
 * A league's operation name, as src/espn/operations.ts names it: the league with `_` for `-`
 * (`mens-college` and `summary` make `mens_college_summary`).
 */
export function operationName(league, suffix) {
  return `${league.replace('-', '_')}_${suffix}`;
}

/** A daemon path with the page's token, when it has one. */
export function withToken(path, params = new URLSearchParams()) {
  if (token) params.set('token', token);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** The daemon's WebSocket URL, on the page's own host. */
export function streamUrl() {
  const url = new URL('/v1/stream', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * A period's short name in its league, as the engine names it: `1st`..`4th` of quarters, `1st` and
 * `2nd` of men's college halves, then `OT`, `2OT`… The names come from the daemon (periods.js).
 */
export function periodLabel(league, period) {
  if (!period) return '';
  return PERIOD_NAMES[league]?.[period] ?? '';
}

/** `Final`, `Final/OT`, `Final/2OT`, counting the overtimes after the league's regulation. */
export function finalLabel(league, period) {
  return (period && FINAL_NAMES[league]?.[period]) || 'Final';
}

export const byTestId = (id, root = document) => root.querySelector(`[data-testid="${id}"]`);
