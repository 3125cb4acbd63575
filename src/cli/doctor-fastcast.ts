import { Agent } from 'undici';
import type WebSocket from 'ws';
import type { League } from '../core/leagues.js';
import type { PushConfig } from '../daemon/push-config.js';
import { checkCheckpointUrl } from '../espn/fastcast-checkpoint-fetch.js';
import { gameTopic } from '../espn/fastcast-wire.js';
import type { DocumentRequest, FetchedDocument } from '../espn/http.js';
import { fastcastResults, type ProbeFindings } from './doctor-findings.js';
import type { CheckResult } from './doctor-report.js';
import {
  logFastcastFrames,
  openFastcastSocket,
  type FastcastFrameLog,
  type SocketAttempt,
} from './doctor-socket.js';
import { watchTopic, type TopicWatch } from './doctor-topic.js';

/**
 * `courtside doctor`'s FastCast checks, taken in the order the push client takes its steps:
 * discovery, the upgrade (again with the token percent-encoded whole when refused), `C`, `S` to a
 * live game's topic, its `H` and checkpoint, then the frames for a few seconds.
 */
export interface FastcastProbeOptions {
  readonly push: PushConfig;
  /** The game to subscribe to; none: the subscription checks are skipped. */
  readonly game: { readonly league: League; readonly id: string } | undefined;
  /** Whether the scoreboards were read (no game then means no live game, not an unknown one). */
  readonly boardsRead: boolean;
  /** Each step's wait (discovery, upgrade, `C`, `S`, `H`, the checkpoint). */
  readonly stepMs: number;
  /** How long the frames are watched after the first document. */
  readonly watchMs: number;
  readonly fetchDocument: (request: DocumentRequest) => Promise<FetchedDocument>;
  readonly now?: () => number;
}

export async function probeFastcast(options: FastcastProbeOptions): Promise<CheckResult[]> {
  const now = options.now ?? Date.now;
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const findings: ProbeFindings = {
    fastcastUrl: options.push.fastcastUrl,
    stepMs: options.stepMs,
    boardsRead: options.boardsRead,
  };
  let ws: WebSocket | undefined;
  try {
    const socketRequest = { push: options.push, dispatcher, timeoutMs: options.stepMs };
    let attempt: SocketAttempt = await openFastcastSocket({ ...socketRequest, encodeToken: false });
    findings.first = attempt;
    if (!attempt.ok && attempt.stage === 'upgrade' && attempt.status !== undefined) {
      // A server that reads the token only percent-encoded whole refuses it as discovery gave it.
      attempt = await openFastcastSocket({ ...socketRequest, encodeToken: true });
      findings.encoded = attempt;
    }
    if (!attempt.ok) return fastcastResults(findings);
    ws = attempt.ws;
    const log = logFastcastFrames(ws, now);
    findings.log = log;
    const started = now();
    ws.send(JSON.stringify({ op: 'C' }));
    const c = await log.wait((f) => f.op === 'C', options.stepMs);
    findings.connect = c && { frame: c.frame, ms: c.at - started };
    if (c?.frame.rc !== 200 || options.game === undefined) return fastcastResults(findings);
    findings.game = options.game;
    findings.watch = await subscribe(options, ws, log, c.frame.sid ?? '', findings, now);
    return fastcastResults(findings);
  } finally {
    ws?.removeAllListeners();
    ws?.on('error', () => undefined);
    ws?.terminate();
    await dispatcher.close();
  }
}

/** `S`, `H`, the checkpoint and the frames of the game's topic. */
async function subscribe(
  options: FastcastProbeOptions,
  ws: WebSocket,
  log: FastcastFrameLog,
  sid: string,
  findings: ProbeFindings,
  now: () => number,
): Promise<TopicWatch> {
  const game = options.game as NonNullable<FastcastProbeOptions['game']>;
  const name = gameTopic(game.league, game.id);
  const secure = new URL(options.push.fastcastUrl).protocol === 'https:';
  const send = (frame: Record<string, unknown>): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  let lastResubscribe = 0;
  const watch = watchTopic({
    name,
    gameId: game.id,
    async download(url) {
      checkCheckpointUrl(secure, url);
      const { body, bytes } = await options.fetchDocument({
        name: 'fastcast_checkpoint',
        url,
        headers: { 'User-Agent': options.push.userAgent, Origin: options.push.origin },
      });
      return { body, bytes };
    },
    resubscribe() {
      // As the client does after a resync, at most once a second: the watch goes on.
      if (now() - lastResubscribe < 1_000) return;
      lastResubscribe = now();
      setTimeout(() => send({ op: 'S', sid, tc: name }), 200).unref();
    },
    now,
  });
  log.onFrame((r) => {
    if (r.frame.tc === name && r.frame.op !== 'S') watch.frame(r.frame, r.at);
  });
  const started = now();
  send({ op: 'S', sid, tc: name });
  const s = await log.wait((f) => f.op === 'S' && f.tc === name, options.stepMs);
  findings.subscribe = s && { frame: s.frame, ms: s.at - started };
  if (s?.frame.rc !== 200) return watch;
  const h = await log.wait((f) => f.op === 'H' && f.tc === name, options.stepMs);
  findings.hello = h && { frame: h.frame, ms: h.at - started };
  if (!h) return watch;
  await watch.firstDocument(options.stepMs);
  if (watch.documents === 0) return watch;
  await new Promise((resolve) => setTimeout(resolve, options.watchMs));
  findings.watchedMs = options.watchMs;
  findings.silentMs = now() - log.lastHeard;
  return watch;
}
