import type { Command } from 'commander';
import { loadConfig } from '../daemon/config.js';
import { createDaemon } from '../daemon/daemon.js';
import { loadPushConfig } from '../daemon/push-config.js';
import { InvalidOptionsError } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { startUpstream, type SimulatedGame } from '../simulator/index.js';
import { ESPN_RULES, type EspnRules } from '../simulator/types.js';
import { cycleSlates } from './demo-slates.js';
import { fail } from './fail.js';
import { exitOnSignals } from './shutdown.js';

/**
 * `courtside demo`: the whole thing on one machine with no network and no Redis — the simulator
 * (a recorded game, or a synthetic slate), the daemon against it, and the URLs to look at.
 */
interface DemoOptions {
  replay?: string[];
  games: string;
  seed: string;
  speed: string;
  port: string;
  logLevel: string;
  logFormat?: string;
  espnRules: string;
}

// Fast enough that a whole game plays out in under ten minutes, slow enough to follow the plays.
const DEFAULT_SPEED = 20;
// At 20x one real second is 20 game seconds: polling every second shows plays as they happen.
const DEMO_SUMMARY_INTERVAL_MS = 1000;
// Tip-offs one game-minute apart so every game is live within seconds of starting.
const DEMO_STAGGER_MS = 60_000;
// Same bound as `serve`: a stuck close must not keep Ctrl-C from ending the demo.
const HARD_EXIT_MS = 5_000;

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('run the simulator and the daemon together, no network or Redis needed')
    .option(
      '--replay <file>',
      'replay a recorded finished summary (repeatable)',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--games <n>', 'synthetic games when no --replay is given', '4')
    .option('--seed <n>', 'seed of the synthetic games', '7')
    .option('--speed <x>', 'game-time multiplier', String(DEFAULT_SPEED))
    .option('--port <port>', 'daemon port', process.env.PORT ?? '8080')
    .option('--log-level <level>', 'log level', process.env.LOG_LEVEL ?? 'warn')
    .option(
      '--log-format <format>',
      'pretty|json|auto: auto is pretty on a terminal (LOG_FORMAT, default auto)',
    )
    .option('--espn-rules <rules>', 'which ESPN the simulator plays: 2026 or legacy', '2026')
    .addHelpText(
      'after',
      `
Examples:
  $ courtside demo                                   # 4 synthetic games at 20x, port 8080
  $ courtside op mens_summary --event-id 401585607 --format raw --out game.json
  $ courtside demo --replay game.json                # replay that finished game as if live
  $ courtside demo --games 8 --speed 60 --port 9090
Then open the printed overlay URL in a browser, or run the printed watch command.
The demo runs until stopped: when a synthetic slate's last game ends, the next slate starts (new
games, new ids) and its URLs are printed; finished games stay listed on the daemon's home page.`,
    )
    .action((options: DemoOptions) => runDemo(options));
}

async function runDemo(options: DemoOptions): Promise<void> {
  const games = Number(options.games);
  const seed = Number(options.seed) || 7;
  const speed = Number(options.speed);
  if (!Number.isInteger(games) || games < 1 || games > 30)
    throw new InvalidOptionsError('--games: expected an integer from 1 to 30');
  if (!(speed > 0 && speed <= 10_000))
    throw new InvalidOptionsError('--speed: expected a number above 0 and up to 10000');
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidOptionsError('--port: expected a port from 0 to 65535');
  if (!ESPN_RULES.includes(options.espnRules as EspnRules))
    throw new InvalidOptionsError(`--espn-rules: expected ${ESPN_RULES.join(' or ')}`);
  const logger = createLogger({ level: options.logLevel, format: options.logFormat });
  const upstream = await startUpstream({
    ...(options.replay?.length
      ? { replay: options.replay }
      : { simulate: { games, seed, staggerMs: DEMO_STAGGER_MS } }),
    speed,
    espnRules: options.espnRules as EspnRules,
    logger: logger.child({ component: 'simulator' }),
  });
  const config = loadConfig({
    env: { ...process.env, REDIS_URL: '' },
    flags: {
      upstream: upstream.url,
      port: options.port,
      summaryInterval: DEMO_SUMMARY_INTERVAL_MS,
      logLevel: options.logLevel,
    },
  });
  // The simulator plays FastCast too: the demo's games are pushed, as ESPN's are (COURTSIDE_PUSH=off polls).
  const push =
    upstream.fastcastUrl === null
      ? null
      : loadPushConfig({ env: { ...process.env, COURTSIDE_FASTCAST_URL: upstream.fastcastUrl } });
  const daemon = createDaemon(config, { logger, push });
  try {
    await daemon.start();
  } catch (err) {
    await daemon.close();
    await upstream.close();
    fail('demo', err, { logLevel: options.logLevel, logger });
    return;
  }
  const base = daemon.url;
  out(`courtside demo: simulator at ${upstream.url}, ${upstream.games.length} game(s) at ${speed}x`);
  out(`daemon at ${base}`);
  printSlate(base, upstream.games);
  // The slate ticker (docs/overlay.md) shows every game of the day, whichever slate.
  out(`ticker:  ${base}/overlay/ticker`);
  out('Ctrl-C to stop.');

  // A recorded game is replayed once; synthetic slates follow one another until the demo stops.
  const stopSlates = options.replay?.length
    ? () => undefined
    : cycleSlates({
        upstream,
        games,
        seed,
        staggerMs: DEMO_STAGGER_MS,
        onSlate: (slate, added, startAt) => {
          const inSeconds = Math.round((startAt - Date.now()) / 1000);
          out(
            `slate ${slate}: the previous slate has ended; ${added.length} new game(s) at ${speed}x, the first tipping off in ${inSeconds} s (finished games stay listed at ${base}/)`,
          );
          printSlate(base, added);
        },
      });

  exitOnSignals({
    logger,
    close: async () => {
      stopSlates();
      await daemon.close();
      await upstream.close();
    },
    hardExitMs: HARD_EXIT_MS,
  });
}

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/** The pages of a slate's games, and a watch command for its first. */
function printSlate(base: string, games: readonly SimulatedGame[]): void {
  for (const game of games) out(`overlay: ${base}/overlay/${game.league}/${game.id}`);
  const first = games[0];
  // Lower thirds (docs/overlay.md) on the first game from its first lead change on (the alert
  // rule's default waits for the 4th quarter).
  if (first)
    out(`lower third: ${base}/overlay/${first.league}/${first.id}/lower-third?lead_change.fromPeriod=1`);
  if (first) out(`watch:   npx courtside watch --url ${base} --league ${first.league} --game ${first.id}`);
}
