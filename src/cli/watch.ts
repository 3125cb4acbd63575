import type { Command } from 'commander';
import { EVENT_TYPES, isEventType, type EventType } from '../model/events.js';
import { InvalidOptionsError } from '../core/errors.js';
import { LEAGUES, isLeague, type League } from '../core/leagues.js';
import { connect } from '../live-client/courtside.js';
import { EXIT_FAILURE, say } from './fail.js';
import { gameNotices } from './watch-games.js';
import { ANSI, PLAIN, eventLine, snapshotLine } from './watch-format.js';

interface WatchOptions {
  url: string;
  league?: string[];
  game?: string[];
  team?: string[];
  conference?: string[];
  ranked?: boolean;
  types?: string[];
  delay?: string;
  token?: string;
  color: boolean;
  exitOnEnd?: boolean;
}

const list = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('a live terminal feed from a running daemon: the score line and the plays as they come')
    .option('--url <url>', 'the daemon', process.env.COURTSIDE_URL ?? 'http://127.0.0.1:8080')
    .option('--league <league>', `${LEAGUES.join(', ')} (repeatable, or comma-separated)`, list)
    .option('--game <id>', 'a game id (repeatable)', list)
    .option('--team <team>', 'a team id or abbreviation (repeatable)', list)
    .option('--conference <id>', "college conference ids, ESPN's group ids: 2 ACC, 23 SEC (repeatable)", list)
    .option('--ranked', 'only games with a team in the poll (college)')
    .option('--types <types>', 'event types, comma-separated (e.g. play.added,score.changed)', list)
    .option('--delay <seconds>', 'spoiler delay: hold events back this long (0-300)')
    .option(
      '--token <token>',
      'bearer token, when the daemon requires one (env COURTSIDE_TOKEN)',
      process.env.COURTSIDE_TOKEN,
    )
    .option('--no-color', 'plain text even on a terminal')
    .option('--exit-on-end', 'exit once every watched game has ended (always so with --game)')
    .addHelpText(
      'after',
      `
Examples:
  $ courtside watch --league mens                       # every NBA game on the daemon at :8080
  $ courtside watch --league womens --game 401736158 --delay 30
  $ courtside watch --team LAL --types play.added,score.changed --url http://localhost:8080
  $ courtside watch --game 401585607 | tee game.log   # plain text when piped
  $ courtside watch --league mens-college --conference 2 --ranked  # ranked ACC games
Colours on a terminal only; reconnects by itself and resumes where it left off. With --game it
exits (code 0) once those games have ended, a finished game at once after its final line.`,
    )
    .action((options: WatchOptions) => watch(options));
}

/** Checks the flags before connecting; a message naming the flag, or undefined. */
function invalid(options: WatchOptions): string | undefined {
  const bad = options.league?.find((l) => !isLeague(l));
  if (bad !== undefined) return `--league: unknown league "${bad}"; expected one of ${LEAGUES.join(', ')}`;
  const conference = options.conference?.find((c) => !/^\d{1,6}$/.test(c));
  if (conference !== undefined)
    return `--conference: "${conference}" is not a conference id; expected ESPN's group id, digits (2 for the ACC)`;
  const unknownType = options.types?.find((t) => !isEventType(t));
  if (unknownType !== undefined)
    return `--types: unknown event type "${unknownType}"; expected ${EVENT_TYPES.join(', ')}`;
  if (options.delay !== undefined) {
    const delay = Number(options.delay);
    if (!Number.isInteger(delay) || delay < 0 || delay > 300)
      return '--delay: expected whole seconds from 0 to 300';
  }
  try {
    const url = new URL(options.url);
    if (!/^https?:$/.test(url.protocol)) return `--url: expected an http(s) URL, got ${options.url}`;
  } catch {
    return `--url: not a URL: ${options.url}`;
  }
  return undefined;
}

async function watch(options: WatchOptions): Promise<void> {
  const problem = invalid(options);
  if (problem) throw new InvalidOptionsError(problem);
  // `watch | head` closes the pipe early: that is the reader being done, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  await follow(options);
  // A socket being torn down or a pending retry must not keep the process alive after a stop.
  process.exit(process.exitCode ?? 0);
}

function follow(options: WatchOptions): Promise<void> {
  const style = options.color && process.stdout.isTTY ? ANSI : PLAIN;
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const ended = new Set<string>();
  const seen = new Set<string>();
  // Named games end; a league or team feed goes on to the next evening's games unless told not to.
  const exitOnEnd = options.exitOnEnd === true || options.game !== undefined;
  // The library reconnects and resumes by itself; the command only prints what it delivers.
  const client = connect(options.url, options.token ? { token: options.token } : {});
  // The first snapshot can take seconds (a slow daemon, a game not live yet): say what is going on.
  say('watch', `connecting to ${client.url.href} (the daemon at ${new URL(options.url).origin})`);
  const sub = client.subscribe({
    id: 'watch',
    snapshot: true,
    ...(options.league ? { leagues: options.league as League[] } : {}),
    ...(options.game ? { games: options.game } : {}),
    ...(options.team ? { teams: options.team } : {}),
    ...(options.conference ? { conferences: options.conference } : {}),
    ...(options.ranked ? { ranked: true } : {}),
    ...(options.types ? { types: options.types as EventType[] } : {}),
    ...(options.delay !== undefined ? { delay: Number(options.delay) } : {}),
  });

  return new Promise((resolve) => {
    let stopping = false;
    const stop = (): void => {
      stopping = true;
      void client.close().then(resolve);
    };
    const endIfAllEnded = (): void => {
      if (stopping || !exitOnEnd || !allEnded()) return;
      const games = options.game ?? [...seen];
      say(
        'watch',
        `${games.length === 1 ? `game ${games[0]} has` : `games ${games.join(', ')} have`} ended: exiting`,
      );
      stop();
    };
    const allEnded = (): boolean => {
      const watched = options.game ?? [...seen];
      return watched.length > 0 && watched.every((g) => ended.has(g));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);

    sub.on('snapshot', (game) => {
      seen.add(game.gameId);
      out(snapshotLine(game, style));
      if (game.state === 'post') ended.add(game.gameId);
      endIfAllEnded();
    });
    sub.on('event', (event) => {
      seen.add(event.gameId);
      const line = eventLine(event, style);
      if (line) out(line);
      if (event.type === 'game.ended') ended.add(event.gameId);
      endIfAllEnded();
    });
    sub.on('gap', (gap) => say('watch', `resume_gap: ${gap.message}`));
    client.on('state', (change) => {
      if (change.state === 'reconnecting')
        say('watch', `disconnected, reconnecting in ${change.retryInMs ?? 0} ms (${change.reason})`);
      else if (change.state === 'open' && change.previous === 'reconnecting') say('watch', 'reconnected');
      else if (change.state === 'open') say('watch', `connected: ${following(options)}`);
    });
    // A refused subscription (a bad filter, a wrong token) would be refused again on every retry.
    let failed = false;
    const fatal = (err: Error): void => {
      // A client closing on an error ends its subscription with the same error: say it once.
      if (failed) return;
      failed = true;
      say('watch', (err as { code?: string }).code === 'unauthorized' ? unauthorized(options) : err.message);
      process.exitCode = EXIT_FAILURE;
      stop();
    };
    sub.on('error', fatal);
    client.on('error', fatal);
    if (options.game) {
      const leagues = options.league as League[] | undefined;
      void gameNotices(options.game, { url: options.url, token: options.token, leagues }).then((lines) => {
        for (const line of lines) if (!failed) say('watch', line);
      });
    }
  });
}

/** What the subscription follows and what will print, said once connected. */
function following(options: WatchOptions): string {
  const what = [
    options.game ? `game ${options.game.join(', ')}` : undefined,
    options.league ? `league ${options.league.join(', ')}` : undefined,
    options.team ? `team ${options.team.join(', ')}` : undefined,
  ].filter((part): part is string => part !== undefined);
  return `following ${what.length ? what.join(', ') : 'every game'}: a score line for each game in progress, then its plays as they come`;
}

/** The library's 401 names its own option; a command-line user needs the flag. */
function unauthorized(options: WatchOptions): string {
  const origin = new URL(options.url).origin;
  return options.token
    ? `the daemon at ${origin} refused the connection (401): the token given (--token or COURTSIDE_TOKEN) is not one of its tokens (its COURTSIDE_TOKENS)`
    : `the daemon at ${origin} refused the connection (401): it needs a token: --token <token>, or COURTSIDE_TOKEN in the environment`;
}
