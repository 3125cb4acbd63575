import type { Command } from 'commander';
import WebSocket from 'ws';
import type { GameEvent, GameSnapshot } from '../../streams/events.js';
import { ANSI, PLAIN, eventLine, snapshotLine } from './watch-format.js';

// Reconnect backoff: quick first retry for a daemon restart, capped for a long outage.
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;

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
    .option('--token <token>', 'bearer token, when the daemon requires one (env COURTSIDE_TOKEN)', process.env.COURTSIDE_TOKEN)
    .option('--no-color', 'plain text even on a terminal')
    .option('--exit-on-end', 'exit once every watched game has ended')
    .addHelpText(
      'after',
      `
Examples:
  courtside watch --league mens
  courtside watch --league womens --game 401736158 --delay 30
  courtside watch --team LAL --types play.added,score.changed --url http://localhost:8080`,
    )
    .action((options: WatchOptions) => watch(options));
}

function watch(options: WatchOptions): Promise<void> {
  const style = options.color && process.stdout.isTTY ? ANSI : PLAIN;
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const url = new URL('/v1/stream', options.url);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  let lastOffset: string | undefined;
  let retryMs = RETRY_MIN_MS;
  let stopping = false;
  const ended = new Set<string>();
  let socket: WebSocket | undefined;

  return new Promise((resolve) => {
    const stop = (): void => {
      stopping = true;
      socket?.close(1000);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);

    const connect = (): void => {
      const ws = new WebSocket(url, { headers });
      socket = ws;
      ws.on('open', () => {
        retryMs = RETRY_MIN_MS;
        const sub: Record<string, unknown> = { op: 'subscribe', id: 'watch', snapshot: lastOffset === undefined };
        if (options.league) sub.leagues = options.league;
        if (options.game) sub.games = options.game;
        if (options.team) sub.teams = options.team;
        if (options.types) sub.types = options.types;
        if (options.delay !== undefined) sub.delay = Number(options.delay);
        if (lastOffset) sub.since = lastOffset;
        ws.send(JSON.stringify(sub));
      });
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as {
          type: string;
          game?: GameSnapshot;
          event?: GameEvent;
          code?: string;
          message?: string;
        };
        if (frame.type === 'snapshot' && frame.game) {
          out(snapshotLine(frame.game, style));
          if (frame.game.state === 'post') ended.add(frame.game.gameId);
        } else if (frame.type === 'event' && frame.event) {
          const event = frame.event;
          if (event.offset) lastOffset = event.offset;
          const line = eventLine(event, style);
          if (line) out(line);
          if (event.type === 'game.ended') ended.add(event.gameId);
        } else if (frame.type === 'error') {
          process.stderr.write(`courtside: ${frame.code}: ${frame.message}\n`);
        }
        if (options.exitOnEnd && options.game && options.game.every((g) => ended.has(g))) stop();
      });
      ws.on('error', (err) => process.stderr.write(`courtside: ${err.message}\n`));
      ws.on('close', () => {
        if (stopping) return;
        process.stderr.write(`courtside: disconnected, reconnecting in ${retryMs} ms\n`);
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      });
    };
    connect();
  });
}
