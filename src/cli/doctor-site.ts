import type { EspnClient } from '../espn-client/client.js';
import { CourtsideError } from '../core/errors.js';
import type { League } from '../core/leagues.js';
import { result, type CheckResult } from './doctor-report.js';

/** A game of today's boards. */
export interface BoardGame {
  readonly league: League;
  readonly id: string;
  readonly live: boolean;
}

export interface SiteCheck {
  readonly result: CheckResult;
  /** The games the boards listed (empty when they could not be read). */
  readonly games: readonly BoardGame[];
}

/**
 * The site API as the pollers use it: each league's scoreboard, through the client courtside
 * polls with (its User-Agent, timeouts, decoding). A 403 with an HTML page is the edge's block
 * (`UPSTREAM_BLOCKED`), told apart from ESPN's own errors by the HTTP layer.
 */
export async function checkSiteApi(
  client: EspnClient,
  leagues: readonly League[],
  now: () => number = Date.now,
): Promise<SiteCheck> {
  const started = now();
  const games: BoardGame[] = [];
  try {
    for (const league of leagues) {
      const board = (await client.call(`${league}_scoreboard`, {}, { returnParsed: false })) as {
        events?: unknown;
      };
      for (const event of Array.isArray(board?.events) ? (board.events as unknown[]) : []) {
        const e = event as { id?: unknown; status?: { type?: { state?: unknown } } };
        if (typeof e.id !== 'string') continue;
        games.push({ league, id: e.id, live: e.status?.type?.state === 'in' });
      }
    }
  } catch (error) {
    return { result: siteFailure(client.upstream, error), games: [] };
  }
  const live = games.filter((g) => g.live).length;
  return {
    result: result(
      'site-api',
      'ok',
      `${client.upstream} answered the ${leagues.join(' and ')} scoreboards in ${now() - started} ms: ` +
        `${games.length} game(s), ${live} live`,
      { data: { ms: now() - started, games: games.length, live } },
    ),
    games,
  };
}

function siteFailure(upstream: string, error: unknown): CheckResult {
  const code = error instanceof CourtsideError ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UPSTREAM_BLOCKED')
    return result(
      'site-api',
      'fail',
      `blocked by the edge in front of ${upstream} (403, an HTML page): ${message}`,
      {
        fix:
          'the edge refuses this User-Agent or this network: leave COURTSIDE_USER_AGENT unset (courtside sends ' +
          'an accepted form), or run from another network (docs/upstream.md, "Blocked User-Agents")',
        data: { code },
      },
    );
  const fix =
    code === 'UPSTREAM_NETWORK' || code === 'UPSTREAM_TIMEOUT'
      ? `check that this machine reaches ${upstream} (DNS, proxy, firewall), or give --upstream`
      : `the upstream answered otherwise than ESPN does; check --upstream (${upstream}) and docs/upstream.md`;
  return result('site-api', 'fail', `cannot read the scoreboards: ${message}`, {
    fix,
    ...(code !== undefined ? { data: { code } } : {}),
  });
}
