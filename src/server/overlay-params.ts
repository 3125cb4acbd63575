import { InvalidParamsError } from '../core/errors.js';

/**
 * The query parameters of the overlay pages, checked by the server before it serves a page: a
 * browser source in a broadcast shows no console, so a typo (`plays=12`, `layout=wide`) is answered
 * with a notice naming the parameter and the form it takes rather than a page that quietly ignores
 * it. The pages read the same parameters again in the browser (`overlay/params.js`).
 */
export type OverlayPage = 'scorebug' | 'ticker' | 'lower-third';

interface ParamRule {
  expected: string;
  test(value: string): boolean;
}

const oneOf = (...values: string[]): ParamRule => ({
  expected: `one of ${values.join(', ')}`,
  test: (v) => values.includes(v),
});

const intRange = (min: number, max: number): ParamRule => ({
  expected: `an integer from ${min} to ${max}`,
  test: (v) => /^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max,
});

/** Canvas names a streamer knows, as the scale of a page drawn for a 1080p canvas. */
export const SCALE_PRESETS: Readonly<Record<string, number>> = {
  '720p': 2 / 3,
  '1080p': 1,
  '1440p': 4 / 3,
  '4k': 2,
};

const SCALE: ParamRule = {
  expected: `${Object.keys(SCALE_PRESETS).join(', ')} or a number from 0.25 to 4`,
  test: (v) =>
    Object.hasOwn(SCALE_PRESETS, v) || (/^\d+(\.\d+)?$/.test(v) && Number(v) >= 0.25 && Number(v) <= 4),
};

const COMMON: Readonly<Record<string, ParamRule>> = {
  token: { expected: 'a token', test: () => true },
  transparent: oneOf('0', '1'),
  theme: oneOf('dark', 'light', 'team'),
  scale: SCALE,
};

// The spoiler delay's bounds are the stream's (docs/protocol.md, `delay`).
const DELAY = intRange(0, 300);

const PAGE_PARAMS: Readonly<Record<OverlayPage, Readonly<Record<string, ParamRule>>>> = {
  scorebug: {
    ...COMMON,
    layout: oneOf('full', 'compact', 'vertical'),
    plays: intRange(0, 10),
    chart: oneOf('0', '1'),
    delay: DELAY,
    // Seconds without a connection before the scorebug marks its data stale; under 3 s every
    // reconnect would flash the marker, over 10 minutes nobody would notice it.
    stale: intRange(3, 600),
  },
  ticker: {
    ...COMMON,
    // Pixels a second the strip scrolls; 0 stands still.
    speed: intRange(0, 400),
  },
  'lower-third': {
    ...COMMON,
    delay: DELAY,
    // Seconds a lower third stays on screen.
    hold: intRange(3, 60),
  },
};

/**
 * Throws `InvalidParamsError` for the first parameter that is unknown to the page, repeated or
 * malformed. `extra` claims further parameters (the lower third's rule settings) and checks them.
 */
export function checkOverlayQuery(
  page: OverlayPage,
  query: URLSearchParams,
  extra?: { accepts(name: string): boolean; check(query: URLSearchParams): void },
): void {
  const rules = PAGE_PARAMS[page];
  const seen = new Set<string>();
  for (const [name, value] of query) {
    if (seen.has(name)) throw new InvalidParamsError(name, value, 'the parameter once', 'overlay');
    seen.add(name);
    // Own keys only: `constructor` or `__proto__` in a query are not parameters.
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (rule) {
      if (!rule.test(value)) throw new InvalidParamsError(name, value, rule.expected, 'overlay');
    } else if (!extra?.accepts(name)) {
      const known = overlayParams(page, extra).join(', ');
      const error = new InvalidParamsError(name, value, `one of ${known}`, 'overlay');
      error.message = `overlay: unknown parameter "${name}"; this page takes ${known}`;
      throw error;
    }
  }
  extra?.check(query);
}

/** The parameter names a page takes (for messages and the docs). */
export function overlayParams(page: OverlayPage, extra?: unknown): string[] {
  const names = Object.keys(PAGE_PARAMS[page]);
  return extra ? [...names, 'rules', '<rule>.<setting>'] : names;
}
