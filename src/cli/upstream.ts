import type { Command } from 'commander';
import { LEAGUES, isLeague } from '../core/leagues.js';
import { CourtsideError } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { parseSimulateSpec, startUpstream } from '../simulator/index.js';
import { FASTCAST_FAULTS, parseFastcastFaults } from '../simulator/fastcast-faults.js';
import { fixturesProblem } from '../simulator/fixture-store.js';
import { ESPN_RULES, type EspnRules, type UpstreamOptions } from '../simulator/types.js';
import { fail } from './fail.js';
import { exitOnSignals } from './shutdown.js';

/** `courtside upstream`: the simulator upstream as a process; prints its URL and runs until a signal. */

interface UpstreamFlags {
  port: string;
  host: string;
  fixtures?: string;
  replay: string[];
  pushReplay?: string[];
  simulate?: string;
  seed: string;
  speed: string;
  faults?: string;
  fastcastFaults?: string;
  leagues?: string;
  espnRules?: string;
  push?: string;
}

const EXAMPLES = `
Examples:
  $ courtside upstream --simulate 8 --seed 42 --speed 10 --port 9000
  $ courtside upstream --simulate mens-college=150,womens-college=100,mens=10 --speed 10   # a Saturday
  $ courtside upstream --simulate 4 --faults "error=0.2,timeout=0.05,malformed=0.02,correct=0.05,remove=0.01,insert=0.05,rescore=0.05,latency=200"
  $ courtside upstream --simulate 2 --fastcast-faults "no-h@900001000,absent-keys=10"   # FastCast as ESPN misbehaves
  $ courtside record --out recordings       # ESPN's payloads (add --upstream <url> to record a simulator's)
  $ courtside upstream --fixtures recordings
  $ courtside op mens_summary --event-id 401585607 --format raw --out game.json   # a finished game, from ESPN
  $ courtside upstream --replay game.json --speed 60
  $ courtside upstream --push-replay game.fastcast.jsonl   # a capture from courtside record --push
Then point the client at it: COURTSIDE_UPSTREAM=<printed URL> courtside op mens_scoreboard --format raw`;

// Same bound as `serve`: a stuck close must not keep a supervisor's stop waiting.
const HARD_EXIT_MS = 5_000;

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function number(flag: string, value: string, integer = false): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new CourtsideError(
      'INVALID_OPTIONS',
      `--${flag}: "${value}" is not ${integer ? 'an integer' : 'a number'}`,
    );
  }
  return n;
}

export function upstreamOptionsFromFlags(flags: UpstreamFlags): UpstreamOptions {
  const seed = number('seed', flags.seed, true);
  const options: UpstreamOptions = {
    port: number('port', flags.port, true),
    host: flags.host,
    speed: number('speed', flags.speed),
    seed,
    replay: flags.replay,
  };
  if (flags.pushReplay?.length) options.pushReplay = flags.pushReplay;
  if (flags.fixtures !== undefined) {
    // A mistyped or empty folder would otherwise start a simulator that serves none of its recordings.
    const problem = fixturesProblem(flags.fixtures);
    if (problem) throw new CourtsideError('INVALID_OPTIONS', `--fixtures: ${problem}`);
    options.fixturesDir = flags.fixtures;
  }
  if (flags.faults) options.faults = flags.faults;
  if (flags.fastcastFaults !== undefined) {
    try {
      options.fastcastFaults = parseFastcastFaults(flags.fastcastFaults);
    } catch (error) {
      throw new CourtsideError(
        'INVALID_OPTIONS',
        `--fastcast-faults: ${(error as Error).message.replace(/^fastcastFaults: /, '')}`,
      );
    }
  }
  if (flags.push !== undefined && flags.push !== 'on' && flags.push !== 'off') {
    throw new CourtsideError('INVALID_OPTIONS', `--push: "${flags.push}" is invalid; expected on or off`);
  }
  if (flags.push === 'off') options.push = false;
  if (flags.espnRules !== undefined) {
    if (!ESPN_RULES.includes(flags.espnRules as EspnRules)) {
      throw new CourtsideError(
        'INVALID_OPTIONS',
        `--espn-rules: "${flags.espnRules}" is invalid; expected ${ESPN_RULES.join(' or ')}`,
      );
    }
    options.espnRules = flags.espnRules as EspnRules;
  }
  if (flags.simulate !== undefined) {
    const leagues = flags.leagues?.split(',').map((l) => l.trim());
    if (leagues && !leagues.every(isLeague)) {
      throw new CourtsideError(
        'INVALID_OPTIONS',
        `--leagues: "${flags.leagues}" is invalid; expected a comma-separated list of ${LEAGUES.join(', ')}`,
      );
    }
    const spec = parseSimulateSpec(flags.simulate);
    if (typeof spec !== 'number' && leagues) {
      throw new CourtsideError(
        'INVALID_OPTIONS',
        '--leagues: not with --simulate league=count pairs, which name their leagues; give one or the other',
      );
    }
    options.simulate =
      typeof spec === 'number'
        ? { games: spec, seed, ...(leagues ? { leagues: leagues.filter(isLeague) } : {}) }
        : { games: 0, seed, perLeague: spec };
  }
  return options;
}

export function registerUpstream(program: Command): void {
  program
    .command('upstream')
    .description("run the simulator upstream: ESPN's paths from recordings, replays and synthetic live games")
    .option('--port <n>', 'port to listen on (0 = any free port)', '0')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--fixtures <dir>', 'directory of recorded payloads laid out <league>/<suffix>[__qualifier].json')
    .option('--replay <file>', 'a finished summary to replay as a live game (repeatable)', collect, [])
    .option(
      '--push-replay <file>',
      'a FastCast capture (courtside record --push) to replay as recorded, paced by --speed (repeatable)',
      collect,
      [],
    )
    .option(
      '--simulate <n|league=n,...>',
      'synthetic games: a number (alternating --leagues), or a Saturday slate by league, e.g. mens-college=150,womens-college=100,mens=10',
    )
    .option('--leagues <list>', 'leagues of the synthetic games, comma-separated (default mens,womens)')
    .option('--seed <s>', 'seed of synthetic games and fault draws', '1')
    .option('--speed <x>', 'game-time multiplier (60 = a minute of play per second)', '1')
    .option(
      '--faults <spec>',
      'fault probabilities, e.g. "error=0.2,timeout=0.05,malformed=0.02,correct=0.05,remove=0.01,insert=0.05,rescore=0.05,latency=200"',
    )
    .option(
      '--fastcast-faults <spec>',
      `FastCast behaviours, name[=value][@game] comma-separated: ${FASTCAST_FAULTS.join(', ')} (docs/upstream.md)`,
    )
    .option(
      '--espn-rules <rules>',
      'which ESPN to play: 2026 (ranges refused, limit > 500 cut to 25, blocked agents) or legacy',
      '2026',
    )
    .option(
      '--push <on|off>',
      "play FastCast, ESPN's push service, beside the site API (off: polling only)",
      'on',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (flags: UpstreamFlags) => {
      const logger = createLogger({ name: 'courtside-upstream' });
      let options: UpstreamOptions;
      try {
        options = upstreamOptionsFromFlags(flags);
      } catch (error) {
        fail('upstream', error);
        return;
      }
      const upstream = await startUpstream({ ...options, logger }).catch((error: unknown) => {
        fail('upstream', error);
        return undefined;
      });
      if (!upstream) return;
      process.stdout.write(`upstream listening on ${upstream.url}\n`);
      if (upstream.fastcastUrl !== null)
        logger.info({ discovery: upstream.fastcastUrl }, 'FastCast discovery (COURTSIDE_FASTCAST_URL)');
      const synthetic = upstream.games.filter((game) => game.synthetic).length;
      if (synthetic > 0) {
        process.stdout.write(
          `note: ${synthetic} synthetic game(s): made up by the simulator, not real ESPN games; ` +
            "their event ids start with 9, which ESPN's never do\n",
        );
      }
      for (const game of upstream.games) {
        logger.info(
          {
            league: game.league,
            id: game.id,
            startsAt: new Date(game.startAt).toISOString(),
            endsAt: new Date(game.endAt).toISOString(),
          },
          'simulated game',
        );
      }
      exitOnSignals({ logger, close: () => upstream.close(), hardExitMs: HARD_EXIT_MS });
    });
}
