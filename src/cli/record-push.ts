import { isFinal, readSummaryHeader } from '../../streams/summary-header.js';
import { createEspnClient, DEFAULT_UPSTREAM, type EspnClient } from '../espn-client/client.js';
import { CourtsideError, InvalidOptionsError } from '../core/errors.js';
import type { League } from '../core/leagues.js';
import { createLogger, type Logger } from '../core/log.js';
import { VERSION } from '../core/version.js';
import { fastcastClientOptions } from '../daemon/fastcast-options.js';
import { loadPushConfig, type PushConfig } from '../daemon/push-config.js';
import {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  createCaptureWriter,
  type CaptureWriter,
} from '../espn/fastcast-capture.js';
import { createFastcastClient } from '../espn/fastcast-client.js';
import { gameTopic } from '../espn/fastcast-wire.js';
import { EXIT_FAILURE, say } from './fail.js';
import type { DocumentRequest } from '../espn/http.js';

/**
 * `courtside record --push`: one game's FastCast topic saved as received, for a bug report. The
 * FastCast client is the daemon's own, with the daemon's options; a tap writes every frame (the
 * raw text, envelope and all) and every checkpoint it downloads to a capture file
 * (src/espn/fastcast-capture.ts), line by line as they come.
 */

export type RecordPushEnd = 'game over' | 'time limit' | 'interrupted';

export interface RecordPushOptions {
  readonly gameId: string;
  readonly out: string;
  /** The leagues the game is looked for in, in order; with one, no lookup is needed. */
  readonly leagues: readonly League[];
  /** The site API (summary and checkpoints); default ESPN's. */
  readonly upstream?: string;
  readonly push: PushConfig;
  /** Stop after this many seconds, game over or not. */
  readonly seconds?: number;
  /** Aborting stops the recording (Ctrl-C); the file stays valid. */
  readonly signal?: AbortSignal;
  readonly logger: Logger;
}

export interface RecordPushResult {
  readonly topic: string;
  /** Frames received from FastCast (every op). */
  readonly frames: number;
  readonly checkpoints: number;
  readonly end: RecordPushEnd;
}

export async function recordPush(options: RecordPushOptions): Promise<RecordPushResult> {
  const { logger } = options;
  const client = createEspnClient({ ...(options.upstream ? { upstream: options.upstream } : {}), logger });
  let writer: CaptureWriter | undefined;
  let fastcast: ReturnType<typeof createFastcastClient> | undefined;
  try {
    const startedAt = Date.now();
    const found = await findGame(client, options.gameId, options.leagues, logger);
    const topic = gameTopic(found.league, options.gameId);
    const w = createCaptureWriter(options.out, {
      format: CAPTURE_FORMAT,
      version: CAPTURE_VERSION,
      league: found.league,
      game: options.gameId,
      topic,
      startedAt,
      discoveryUrl: options.push.fastcastUrl,
      upstream: options.upstream ?? process.env.COURTSIDE_UPSTREAM ?? DEFAULT_UPSTREAM,
      courtside: VERSION,
    });
    writer = w;
    const t = (): number => Date.now() - startedAt;
    if (found.summary !== undefined) w.write({ t: t(), kind: 'summary', body: found.summary });
    let frames = 0;
    let checkpoints = 0;
    const fetchDocument = async (request: DocumentRequest) => {
      try {
        const fetched = await client.fetchDocument(request);
        checkpoints++;
        w.write({ t: t(), kind: 'checkpoint', url: request.url, body: fetched.body });
        return fetched;
      } catch (error) {
        w.write({ t: t(), kind: 'checkpoint', url: request.url, error: (error as Error).message });
        throw error;
      }
    };
    const end = await new Promise<RecordPushEnd>((resolve) => {
      const timer =
        options.seconds === undefined
          ? undefined
          : setTimeout(() => resolve('time limit'), options.seconds * 1000);
      const onAbort = (): void => resolve('interrupted');
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const base = fastcastClientOptions(
        options.push,
        fetchDocument,
        logger.child({ component: 'fastcast' }),
      );
      fastcast = createFastcastClient(
        {
          ...base,
          tap: (direction, text) => {
            if (direction === 'in') frames++;
            w.write({ t: t(), kind: direction === 'in' ? 'received' : 'sent', frame: text });
          },
        },
        {
          document: (_topic, update) => {
            if (!gameOver(update.doc)) return;
            if (timer) clearTimeout(timer);
            resolve('game over');
          },
          lost: (name, reason, detail) => logger.warn({ topic: name, reason, detail }, 'FastCast topic lost'),
        },
      );
      fastcast.subscribe(topic);
    });
    w.write({ t: t(), kind: 'end', reason: end });
    return { topic, frames, checkpoints, end };
  } finally {
    await fastcast?.close();
    writer?.close();
    await client.close();
  }
}

function gameOver(doc: unknown): boolean {
  try {
    return isFinal(readSummaryHeader(doc, 'checkpoint'));
  } catch {
    return false;
  }
}

/**
 * The game's league and its site summary now. With one league the summary is only wanted for the
 * replay (a failure is logged and the recording goes on); with several, the first league whose
 * summary answers is the game's.
 */
async function findGame(
  client: EspnClient,
  gameId: string,
  leagues: readonly League[],
  logger: Logger,
): Promise<{ league: League; summary?: unknown }> {
  let last: unknown;
  for (const league of leagues) {
    try {
      const summary = await client.call(`${league}_summary`, { event_id: gameId }, { returnParsed: false });
      return { league, summary };
    } catch (error) {
      last = error;
    }
  }
  const [only] = leagues;
  if (leagues.length === 1 && only !== undefined) {
    logger.warn({ err: (last as Error).message }, 'site summary not recorded; recording FastCast anyway');
    return { league: only };
  }
  if (last instanceof CourtsideError && last.code !== 'UPSTREAM_NOT_FOUND') throw last;
  throw new InvalidOptionsError(
    `--game: no game ${gameId} in ${leagues.join(' or ')}; expected the ESPN event id of a game (or name its league with --leagues)`,
  );
}

export interface RecordPushFlags {
  out: string;
  upstream?: string;
  game?: string;
  seconds?: string;
  fastcastUrl?: string;
}

/** The command line of `courtside record --push`: checks the flags, records, reports one line. */
export async function recordPushCommand(flags: RecordPushFlags, leagues: readonly League[]): Promise<void> {
  if (flags.game === undefined || !/^[0-9]{1,20}$/.test(flags.game))
    throw new InvalidOptionsError(
      `--game: ${flags.game === undefined ? 'required with --push' : `"${flags.game}" is invalid`}; expected an ESPN event id (digits), e.g. --game 401585607`,
    );
  let seconds: number | undefined;
  if (flags.seconds !== undefined) {
    seconds = Number(flags.seconds);
    if (flags.seconds.trim() === '' || !Number.isFinite(seconds) || seconds <= 0)
      throw new InvalidOptionsError(
        `--seconds: "${flags.seconds}" is invalid; expected a number of seconds > 0`,
      );
  }
  // FastCast is looked for where `serve` would look with the same upstream, never at ESPN's host
  // when the recording is of another upstream (the simulator).
  const push = loadPushConfig({
    flags: { push: 'on', ...(flags.fastcastUrl !== undefined ? { fastcastUrl: flags.fastcastUrl } : {}) },
    upstream: flags.upstream ?? process.env.COURTSIDE_UPSTREAM ?? DEFAULT_UPSTREAM,
  }) as PushConfig;
  const logger = createLogger({ name: 'courtside-record' });
  // Ctrl-C ends the recording, not the process: the capture gets its last line and is closed.
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const result = await recordPush({
      gameId: flags.game,
      out: flags.out,
      leagues,
      ...(flags.upstream ? { upstream: flags.upstream } : {}),
      push,
      ...(seconds !== undefined ? { seconds } : {}),
      signal: stop.signal,
      logger,
    });
    process.stdout.write(
      `recorded ${result.frames} frames and ${result.checkpoints} checkpoint(s) of ${result.topic} into ${flags.out} (${result.end})\n`,
    );
    if (result.frames === 0) {
      say(
        'record',
        `nothing received from FastCast at ${push.fastcastUrl}; the capture holds the site summary only`,
      );
      process.exitCode = EXIT_FAILURE;
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
