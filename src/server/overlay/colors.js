// Team colours on the scorebug: which colour each side shows, and which text reads on it.
// A plain module with no DOM access, so the page and the Node tests run the same file.

/**
 * Two colours closer than this (CIE76 ΔE, the Euclidean distance in CIE L*a*b*) read as one
 * colour on a small scorebug. 2.3 is the just-noticeable difference; pairs around 15 (the Knicks'
 * 1d428a and the Mavericks' 0064b1: ΔE 15.5) are "the same blue" at a glance, and the pairs that
 * are told apart easily start around 25 (Lakers purple against Knicks blue: 26.6). 20 sits between.
 */
export const CLOSE_DELTA_E = 20;

/** What the stylesheet shows when a team has no usable colour. */
export const DEFAULT_COLORS = Object.freeze({ home: '3355aa', away: 'aa3333' });

/**
 * The overlay's panel (overlay.css `--bg`, without its alpha). A replacement colour must stand out
 * from it too: a black alternate would make that side's cell and chart area vanish into the panel.
 */
export const PANEL_COLOR = '0c0e14';

// Lightening or darkening steps tried, in order, when neither alternate colour will do.
const VARIANT_STEPS = [0.25, 0.4, 0.55, 0.7];

/** `rrggbb` in lower case from `rrggbb` or `#rrggbb`; null for anything else. */
export function parseHex(value) {
  if (typeof value !== 'string') return null;
  const m = /^#?([0-9a-fA-F]{6})$/.exec(value.trim());
  return m ? m[1].toLowerCase() : null;
}

function channels(hex) {
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

function linear(channel) {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** CIE L*a*b* of an sRGB colour (D65 white point). */
export function hexToLab(hex) {
  const [r, g, b] = channels(hex).map(linear);
  // sRGB → XYZ (D65), each divided by the white point's component.
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIE76 colour difference between two `rrggbb` colours. */
export function deltaE76(a, b) {
  const [l1, a1, b1] = hexToLab(a);
  const [l2, a2, b2] = hexToLab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
export function textOn(hex) {
  const [r, g, b] = channels(hex).map(linear);
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // 0.179 is where black and white text have equal contrast against the background.
  return luminance > 0.179 ? '#111111' : '#ffffff';
}

/** `hex` moved a fraction `t` (0-1) of the way towards `target`, in sRGB. */
export function mix(hex, target, t) {
  const from = channels(hex);
  const to = channels(target);
  return from
    .map((c, i) => Math.round(c + (to[i] - c) * t))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('');
}

const standsOut = (candidate, other) =>
  deltaE76(candidate, other) >= CLOSE_DELTA_E && deltaE76(candidate, PANEL_COLOR) >= CLOSE_DELTA_E;

/**
 * The colours the two sides show. Each team's own colour when the two are told apart easily.
 * When they are close, the away side changes, as the away team changes its kit: to its alternate
 * colour, else the home side to its alternate, else the away colour lightened or darkened until
 * it stands out. A replacement must stand out from the other side's colour and from the panel.
 * `changed` names what was done: null, 'away-alternate', 'home-alternate' or 'away-variant'.
 */
export function scorebugColors(home, away) {
  const h = parseHex(home?.color) ?? DEFAULT_COLORS.home;
  const a = parseHex(away?.color) ?? DEFAULT_COLORS.away;
  const result = (homeColor, awayColor, changed) => ({
    home: { background: homeColor, text: textOn(homeColor) },
    away: { background: awayColor, text: textOn(awayColor) },
    changed,
  });
  if (deltaE76(h, a) >= CLOSE_DELTA_E) return result(h, a, null);
  const awayAlternate = parseHex(away?.alternateColor);
  if (awayAlternate && standsOut(awayAlternate, h)) return result(h, awayAlternate, 'away-alternate');
  const homeAlternate = parseHex(home?.alternateColor);
  if (homeAlternate && standsOut(homeAlternate, a)) return result(homeAlternate, a, 'home-alternate');
  let best = a;
  for (const t of VARIANT_STEPS) {
    for (const target of ['ffffff', '000000']) {
      const candidate = mix(a, target, t);
      if (standsOut(candidate, h)) return result(h, candidate, 'away-variant');
      if (deltaE76(candidate, h) > deltaE76(best, h)) best = candidate;
    }
  }
  return result(h, best, 'away-variant');
}
