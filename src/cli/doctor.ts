import type { Command } from 'commander';
import { createEspnClient } from '../espn-client/client.js';
import { InvalidOptionsError } from '../core/errors.js';
import type { League } from '../core/leagues.js';
import { silentLogger } from '../core/log.js';
import { loadConfig, redactUrl, type ConfigFlags } from '../daemon/config.js';
import { loadPushConfig, type PushFlags } from '../daemon/push-config.js';
import { probeFastcast } from './doctor-fastcast.js';
import {
  CHECK_NAMES,
  doctorExitCode,
  formatResult,
  reportObject,
  result,
  summaryLine,
  type CheckResult,
} from './doctor-report.js';
import { checkSiteApi, type BoardGame } from './doctor-site.js';
import { fail } from './fail.js';
import { probeRedis } from './redis-check.js';

/**
 * `courtside doctor`: whether courtside works where it runs, in about ten seconds. Reads the
 * configuration as `serve` does (flags, then the environment), then checks the site API, each
 * step of FastCast, a live game's topic for a few seconds, and Redis when one is configured.
 */
const EXAMPLES = `
Examples:
  $ courtside doctor                                   # ESPN, as courtside serve would reach it
  $ courtside doctor --game 401585607 --seconds 20     # that game's topic, watched longer
  $ courtside doctor --upstream http://127.0.0.1:9100 --fastcast-url http://127.0.0.1:9100/public/websockethost
  $ courtside doctor --json | jq '.checks[] | select(.verdict == "fail")'
Exit code 0 when every needed check passed, 1 when one failed, 2 for a wrong flag (docs/upstream.md, "courtside doctor").`;

// Each step's wait: long enough for a distant FastCast, short enough for ten seconds in all.
const STEP_MS = 4_000;
const DEFAULT_WATCH_SECONDS = 5;

export type DoctorFlags = Pick<
  ConfigFlags,
  'upstream' | 'redis' | 'leagues' | 'userAgent' | 'forceUserAgent' | 'logLevel'
> &
  Pick<PushFlags, 'push' | 'fastcastUrl'> & { game?: string; seconds?: string; json?: boolean };

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check, in about ten seconds, that the site API, FastCast push and Redis work from here')
    .option(
      '--upstream <url>',
      'ESPN-compatible base URL (COURTSIDE_UPSTREAM, default https://site.api.espn.com)',
    )
    .option('--fastcast-url <url>', "FastCast's discovery URL (COURTSIDE_FASTCAST_URL, default ESPN's)")
    .option('--push <on|off>', 'check FastCast (COURTSIDE_PUSH, default on)')
    .option('--redis <url>', 'Redis URL to check (REDIS_URL; unset: no Redis check)')
    .option('--leagues <list>', 'scoreboards read for a live game (COURTSIDE_LEAGUES, default mens,womens)')
    .option('--user-agent <agent>', 'User-Agent sent to the site API (COURTSIDE_USER_AGENT)')
    .option('--force-user-agent', 'send --user-agent even in a form ESPN blocks (COURTSIDE_FORCE_USER_AGENT)')
    .option('--game <id>', 'the game whose topic is checked (default: the first live game on the boards)')
    .option('--seconds <n>', `how long the topic's frames are watched, 1-120`, String(DEFAULT_WATCH_SECONDS))
    .option('--json', 'one JSON object with every check, for scripts')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: DoctorFlags) => {
      const report = await runDoctor(flags);
      if (report) process.exitCode = report.exitCode;
    });
}

export interface DoctorReport {
  readonly results: readonly CheckResult[];
  readonly exitCode: number;
}

/**
 * Runs the checks and prints them. Undefined when the flags or the environment are wrong (said on
 * stderr, exit code 2 set); else the results and the exit code they make.
 */
export async function runDoctor(
  flags: DoctorFlags,
  env: NodeJS.ProcessEnv = process.env,
  out: (text: string) => void = (text) => process.stdout.write(text),
): Promise<DoctorReport | undefined> {
  let config;
  let push;
  let watchSeconds: number;
  try {
    config = loadConfig({ env, flags });
    push = loadPushConfig({ env, flags, upstream: config.upstream });
    watchSeconds = secondsOf(flags.seconds);
    if (flags.game !== undefined && !/^[0-9]+$/.test(flags.game))
      throw new InvalidOptionsError(`--game: "${flags.game}" is invalid; expected a numeric ESPN event id`);
  } catch (error) {
    fail('doctor', error, { logLevel: flags.logLevel ?? env.LOG_LEVEL });
    return undefined;
  }
  const client = createEspnClient({
    upstream: config.upstream,
    ...(config.userAgent !== undefined ? { userAgent: config.userAgent } : {}),
    forceUserAgent: config.forceUserAgent,
    retries: 0,
    timeoutMs: STEP_MS,
    cache: false,
    logger: silentLogger,
  });
  const redisUrl = config.redisUrl;
  const redis = redisCheck(redisUrl);
  try {
    const site = await checkSiteApi(client, config.leagues);
    // The game is only FastCast's business: with push off none is chosen.
    const game = push === null ? undefined : chooseGame(site.games, flags.game, config.leagues);
    const fastcast =
      push === null
        ? CHECK_NAMES.filter((n) => n.startsWith('fastcast-') || n === 'push-lag').map((n) =>
            result(n, 'skip', 'push is off (--push off or COURTSIDE_PUSH=off): live games are polled', {
              needed: false,
            }),
          )
        : await probeFastcast({
            push,
            game,
            boardsRead: site.result.verdict !== 'fail',
            stepMs: STEP_MS,
            watchMs: watchSeconds * 1000,
            fetchDocument: (request) => client.fetchDocument(request),
          });
    const results = [site.result, ...fastcast, await redis];
    const context = {
      upstream: config.upstream,
      fastcastUrl: push?.fastcastUrl ?? null,
      game: game ?? null,
      redis: redisUrl === undefined ? null : redactUrl(redisUrl),
    };
    if (flags.json) out(`${JSON.stringify(reportObject(results, context))}\n`);
    else {
      const where = `upstream ${config.upstream}, FastCast ${push ? push.fastcastUrl : 'off'}`;
      out(`courtside doctor: ${where}${game ? `, game ${game.league}/${game.id}` : ''}\n`);
      for (const r of results) out(`${formatResult(r)}\n`);
      out(`${summaryLine(results)}\n`);
    }
    return { results, exitCode: doctorExitCode(results) };
  } finally {
    await client.close();
  }
}

function secondsOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_WATCH_SECONDS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 120)
    throw new InvalidOptionsError(`--seconds: "${value}" is invalid; expected an integer from 1 to 120`);
  return n;
}

/** `--game` (its league from the boards, else the first league polled), else the first live game. */
function chooseGame(
  games: readonly BoardGame[],
  id: string | undefined,
  leagues: readonly League[],
): { league: League; id: string } | undefined {
  if (id !== undefined) return { league: games.find((g) => g.id === id)?.league ?? leagues[0] ?? 'mens', id };
  const live = games.find((g) => g.live);
  return live && { league: live.league, id: live.id };
}

async function redisCheck(url: string | undefined): Promise<CheckResult> {
  if (url === undefined)
    return result(
      'redis',
      'skip',
      'not configured (--redis or REDIS_URL): the daemon keeps its log in memory',
      {
        needed: false,
      },
    );
  try {
    const probe = await probeRedis(url);
    return result(
      'redis',
      'ok',
      `${redactUrl(url)}: ${probe.topology}${probe.mode && probe.mode !== probe.topology ? ` (the node says ${probe.mode})` : ''}, Redis ${probe.version ?? 'of an unknown version'}`,
      { data: { topology: probe.topology, version: probe.version ?? null, mode: probe.mode ?? null } },
    );
  } catch (error) {
    return result('redis', 'fail', (error as Error).message, {
      fix: 'start Redis or correct --redis / REDIS_URL: courtside serve refuses to start without the Redis it is given',
    });
  }
}
