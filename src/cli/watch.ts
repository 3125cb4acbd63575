import type { Command } from 'commander';
import WebSocket from 'ws';
import { EVENT_TYPES, isEventType, type GameEvent, type GameSnapshot } from '../model/events.js';
import { InvalidOptionsError } from '../core/errors.js';
import { isLeague } from '../core/leagues.js';
import { EXIT_FAILURE, say } from './fail.js';
import { ANSI, PLAIN, eventLine, snapshotLine } from './watch-format.js';

// Reconnect backoff: quick first retry for a daemon restart, capped for a long outage.
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;

interface Frame {
  type: string;
  game?: GameSnapshot;
  event?: GameEvent;
  code?: string;
  message?: string;
}

interface WatchOptions {
  url: string;
  league?: string[];
  game?: string[];
  team?: string[];
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
    .option('--league <league>', 'mens or womens (repeatable, or comma-separated)', list)
    .option('--game <id>', 'a game id (repeatable)', list)
    .option('--team <team>', 'a team id or abbreviation (repeatable)', list)
    .option('--types <types>', 'event types, comma-separated (e.g. play.added,score.changed)', list)
    .option('--delay <seconds>', 'spoiler delay: hold events back this long (0-300)')
    .option(
      '--token <token>',
      'bearer token, when the daemon requires one (env COURTSIDE_TOKEN)',
      process.env.COURTSIDE_TOKEN,
    )
    .option('--no-color', 'plain text even on a terminal')
    .option('--exit-on-end', 'exit once every watched game has ended')
    .addHelpText(
      'after',
      `
Examples:
  $ courtside watch --league mens                       # every NBA game on the daemon at :8080
  $ courtside watch --league womens --game 401736158 --delay 30
  $ courtside watch --team LAL --types play.added,score.changed --url http://localhost:8080
  $ courtside watch --game 401585607 --exit-on-end | tee game.log   # plain text when piped
Colours on a terminal only; reconnects by itself and resumes where it left off.`,
    )
    .action((options: WatchOptions) => watch(options));
}

/** Checks the flags before connecting; a message naming the flag, or undefined. */
function invalid(options: WatchOptions): string | undefined {
  const bad = options.league?.find((l) => !isLeague(l));
  if (bad !== undefined) return `--league: unknown league "${bad}"; expected mens or womens`;
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
  const url = new URL('/v1/stream', options.url);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  let lastOffset: string | undefined;
  let retryMs = RETRY_MIN_MS;
  let stopping = false;
  const ended = new Set<string>();
  const seen = new Set<string>();
  let socket: WebSocket | undefined;
  let retry: NodeJS.Timeout | undefined;

  return new Promise((resolve) => {
    const stop = (): void => {
      stopping = true;
      clearTimeout(retry);
      socket?.close(1000);
      resolve();
    };
    const allEnded = (): boolean => {
      const watched = options.game ?? [...seen];
      return watched.length > 0 && watched.every((g) => ended.has(g));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);

    const connect = (): void => {
      const ws = new WebSocket(url, { headers });
      socket = ws;
      ws.on('open', () => {
        retryMs = RETRY_MIN_MS;
        const sub: Record<string, unknown> = {
          op: 'subscribe',
          id: 'watch',
          snapshot: lastOffset === undefined,
        };
        if (options.league) sub.leagues = options.league;
        if (options.game) sub.games = options.game;
        if (options.team) sub.teams = options.team;
        if (options.types) sub.types = options.types;
        if (options.delay !== undefined) sub.delay = Number(options.delay);
        if (lastOffset) sub.since = lastOffset;
        ws.send(JSON.stringify(sub));
      });
      ws.on('message', (data) => {
        let frame: Frame;
        try {
          frame = JSON.parse(String(data)) as Frame;
        } catch {
          return;
        }
        if (frame.type === 'snapshot' && frame.game) {
          seen.add(frame.game.gameId);
          out(snapshotLine(frame.game, style));
          if (frame.game.state === 'post') ended.add(frame.game.gameId);
        } else if (frame.type === 'event') {
          // The gateway nests the event (`{type, sub, event}`); a flat frame is accepted too.
          const event = frame.event ?? (frame as unknown as GameEvent);
          if (event.offset) lastOffset = event.offset;
          seen.add(event.gameId);
          const line = eventLine(event, style);
          if (line) out(line);
          if (event.type === 'game.ended') ended.add(event.gameId);
        } else if (frame.type === 'error') {
          say('watch', `${frame.code ?? 'error'}: ${frame.message ?? ''}`);
          // A refused subscription will be refused again on every reconnect: give up now.
          if (frame.code !== 'slow_consumer' && frame.code !== 'resume_gap') {
            process.exitCode = EXIT_FAILURE;
            stop();
          }
        }
        if (options.exitOnEnd && allEnded()) stop();
      });
      ws.on('unexpected-response', (_req, res) => {
        // 401/403/503 at the upgrade: say what the daemon said rather than a bare socket error.
        say('watch', `${url.origin} answered ${res.statusCode} to the WebSocket upgrade`);
        if (res.statusCode === 401 || res.statusCode === 403) {
          process.exitCode = EXIT_FAILURE;
          stop();
        } else ws.terminate();
      });
      ws.on('error', (err) => say('watch', err.message));
      ws.on('close', () => {
        if (stopping) return;
        say('watch', `disconnected, reconnecting in ${retryMs} ms`);
        retry = setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      });
    };
    connect();
  });
}
