import type { FastcastFrame } from '../espn/fastcast-wire.js';
import type { League } from '../core/leagues.js';
import type { ResyncReason } from '../espn/fastcast-topic.js';
import { result, type CheckResult } from './doctor-report.js';
import type { FastcastFrameLog, SocketAttempt } from './doctor-socket.js';
import type { TopicWatch } from './doctor-topic.js';

/**
 * What the FastCast probe saw, step by step, and the check lines it makes: each names what the
 * server did and, when that is wrong, what courtside does about it and what to do.
 */
export interface ProbeFindings {
  readonly fastcastUrl: string;
  readonly stepMs: number;
  /** The scoreboards were read: without a game, none was live. */
  readonly boardsRead: boolean;
  first?: SocketAttempt;
  /** The second upgrade, with the token percent-encoded whole, when the first was refused. */
  encoded?: SocketAttempt;
  log?: FastcastFrameLog;
  connect?: Step | undefined;
  game?: { readonly league: League; readonly id: string };
  subscribe?: Step | undefined;
  hello?: Step | undefined;
  watch?: TopicWatch;
  watchedMs?: number;
  /** How long nothing (no frame, no ping) had come when the watch ended. */
  silentMs?: number;
}

interface Step {
  readonly frame: FastcastFrame;
  /** After the request that asked for it. */
  readonly ms: number;
}

// The ops FastCast is known to send; any other is named.
const KNOWN_OPS: ReadonlySet<string> = new Set(['C', 'S', 'H', 'R', 'P', 'I', 'B', 'M']);
// A lag above this at the median is worth a look (a clock off, a slow path), not a failure.
const LAG_WARN_MS = 5_000;
const TLS_ERROR = /^(ERR_TLS|CERT_|UNABLE_TO|SELF_SIGNED|DEPTH_ZERO)/;

export function fastcastResults(f: ProbeFindings): CheckResult[] {
  return [discovery(f), upgrade(f), tls(f), connect(f), subscribe(f), checkpoint(f), frames(f), lag(f)];
}

const skip = (check: CheckResult['check'], why: string, needed = true): CheckResult =>
  result(check, 'skip', why, { needed });

/** Why a topic's checkpoint and frames were not looked at. */
const notReached = (f: ProbeFindings): string =>
  f.game === undefined ? 'not reached: no game to subscribe to' : 'not reached: no H';

// A resync reason as words (`mid_gap`: mid gap).
const words = (reason: ResyncReason): string => reason.replace(/_/g, ' ');

function discovery(f: ProbeFindings): CheckResult {
  const a = f.first;
  if (a?.ok === false && a.stage === 'discovery') {
    const code = (a.error as { code?: string }).code;
    const fix =
      code === 'UPSTREAM_NETWORK'
        ? `this machine cannot reach ${new URL(f.fastcastUrl).host} (DNS, proxy, firewall); courtside polls every game meanwhile`
        : code === 'UPSTREAM_PAYLOAD'
          ? 'the answer is not FastCast discovery: check --fastcast-url'
          : 'FastCast is down or refuses this network: courtside polls every game and tries again with backoff; run doctor again later';
    return result('fastcast-discovery', 'fail', `discovery failed: ${a.error.message}`, { fix });
  }
  if (!a) return skip('fastcast-discovery', 'not reached');
  const { host, port, token } = a.found;
  return result(
    'fastcast-discovery',
    'ok',
    `${f.fastcastUrl} answered ${host}:${port} and a token of ${token.length} characters`,
  );
}

function upgrade(f: ProbeFindings): CheckResult {
  const first = f.first;
  if (!first || (!first.ok && first.stage === 'discovery'))
    return skip('fastcast-upgrade', 'not reached: no discovery');
  if (first.ok)
    return result(
      'fastcast-upgrade',
      'ok',
      `${socketOf(first)} upgraded (101) with the token as discovery gave it`,
    );
  const enc = f.encoded;
  if (first.status !== undefined && enc?.ok)
    return result(
      'fastcast-upgrade',
      'fail',
      `refused with the token as discovery gave it (${first.status}), accepted with the whole token percent-encoded: ` +
        'this server reads the token only percent-encoded whole',
      {
        fix: 'courtside tries the upgrade once more with the token percent-encoded whole and keeps the form that worked; nothing to do unless push stays off',
        data: { status: first.status, tokenForm: 'percent-encoded' },
      },
    );
  const statuses = [first.status, enc && !enc.ok && enc.stage === 'upgrade' ? enc.status : undefined]
    .filter((s) => s !== undefined)
    .join(', then ');
  const detail =
    first.status !== undefined
      ? `upgrade refused: answered ${statuses} (also with the token percent-encoded whole)`
      : `the socket to ${socketOf(first)} failed: ${first.error.message}`;
  const fix =
    first.status === 403
      ? 'FastCast refuses this origin, agent or network (COURTSIDE_FASTCAST_ORIGIN, COURTSIDE_FASTCAST_USER_AGENT); courtside polls every game'
      : first.status === 401
        ? 'the token was refused: a proxy rewriting URLs, or a clock far off; courtside polls every game and retries'
        : first.status !== undefined
          ? 'FastCast refused the socket; courtside polls every game and retries with backoff'
          : 'a firewall or proxy that blocks WebSocket? courtside polls every game meanwhile';
  return result('fastcast-upgrade', 'fail', detail, {
    fix,
    ...(first.status ? { data: { status: first.status } } : {}),
  });
}

function socketOf(a: SocketAttempt): string {
  return 'found' in a ? a.found.socketUrl.replace(/\?.*$/, '') : '?';
}

function tls(f: ProbeFindings): CheckResult {
  if (new URL(f.fastcastUrl).protocol !== 'https:')
    return skip('fastcast-tls', `plain ws:// (no TLS): ${f.fastcastUrl} is not https://`, false);
  const a = f.encoded ?? f.first;
  if (!a || (!a.ok && a.stage === 'discovery')) return skip('fastcast-tls', 'not reached: no discovery');
  if (!a.ok && a.status === undefined && TLS_ERROR.test((a.error as { code?: string }).code ?? ''))
    return result('fastcast-tls', 'fail', `TLS refused: ${a.error.message}`, {
      fix: 'a TLS-inspecting proxy? trust its CA with NODE_EXTRA_CA_CERTS=/path/ca.pem (docs/upstream.md, "FastCast\'s TLS")',
    });
  const seen = a.tls;
  if (!seen) return skip('fastcast-tls', 'no TLS handshake completed');
  const address = 'found' in a ? a.found.host : '?';
  return result(
    'fastcast-tls',
    'ok',
    seen.serviceHostNamed
      ? `the certificate (${seen.names}) names the discovery host, not the address ${address}: accepted for that name, as courtside does`
      : `the certificate (${seen.names}) is valid for the address ${address}`,
    { data: { names: seen.names, serviceHostNamed: seen.serviceHostNamed } },
  );
}

const maintenance = (f: ProbeFindings, topic: boolean): FastcastFrame | undefined =>
  f.log?.received.find((r) => r.frame.op === 'M' && (r.frame.tc !== undefined) === topic)?.frame;

function connect(f: ProbeFindings): CheckResult {
  if (!f.log) return skip('fastcast-connect', 'not reached: no socket');
  const c = f.connect;
  if (!c)
    return result('fastcast-connect', 'fail', `no answer to C within ${f.stepMs} ms`, {
      fix: 'the socket opened but FastCast said nothing: courtside reconnects with backoff; run doctor again',
    });
  if (c.frame.rc !== 200)
    return result('fastcast-connect', 'fail', `C answered rc ${c.frame.rc ?? '?'}`, {
      fix: 'FastCast refused the session: courtside polls every game and reconnects with backoff',
    });
  const said = `C answered rc 200 in ${c.ms} ms (heartbeat ${c.frame.hbi ?? '?'} s)`;
  if (maintenance(f, false))
    return result('fastcast-connect', 'fail', `${said}, then M: the server announces maintenance`, {
      fix: 'FastCast asks clients to come back later: courtside polls every game and reconnects later; run doctor again later',
    });
  return result('fastcast-connect', 'ok', said);
}

function subscribe(f: ProbeFindings): CheckResult {
  if (f.connect?.frame.rc !== 200) return skip('fastcast-subscribe', 'not reached: no session');
  if (!f.game && !f.boardsRead)
    return skip(
      'fastcast-subscribe',
      'not reached: the scoreboards could not be read (site-api), so no live game was found; --game <id> names one',
    );
  if (!f.game)
    return result('fastcast-subscribe', 'warn', 'no live game on the scoreboards to subscribe to', {
      fix: 'run doctor again during a game, or name one with --game <id>',
    });
  const topic = `topic ${f.watch?.topic.name ?? f.game.id}`;
  const s = f.subscribe;
  if (!s)
    return result('fastcast-subscribe', 'fail', `no answer to S for ${topic} within ${f.stepMs} ms`, {
      fix: 'courtside polls the game and subscribes again; run doctor again',
    });
  if (s.frame.rc !== 200)
    return result(
      'fastcast-subscribe',
      'fail',
      `${topic} answered rc ${s.frame.rc ?? '?'}: FastCast has no topic for game ${f.game.id} now`,
      {
        fix: 'courtside polls this game and asks again every 30 s; if the game is live on the site, run doctor again in a minute',
      },
    );
  if (maintenance(f, true))
    return result(
      'fastcast-subscribe',
      'fail',
      `${topic} answered rc 200, then M: the topic is in maintenance`,
      {
        fix: 'courtside polls the game and subscribes again later',
      },
    );
  if (!f.hello)
    return result(
      'fastcast-subscribe',
      'fail',
      `${topic} answered rc 200 but no H (checkpoint) came within ${f.stepMs} ms: the server takes subscriptions to a topic it does not have (yet)`,
      {
        fix: 'courtside counts such a subscription as no topic, polls the game and subscribes again with backoff',
      },
    );
  return result('fastcast-subscribe', 'ok', `${topic}: rc 200, H after ${f.hello.ms} ms`);
}

function checkpoint(f: ProbeFindings): CheckResult {
  const w = f.watch;
  // With no live game there is no topic to check: not needed then.
  if (!f.hello || !w) return skip('fastcast-checkpoint', notReached(f), f.game !== undefined);
  if (w.checkpointError !== undefined)
    return result('fastcast-checkpoint', 'fail', `download failed: ${w.checkpointError}`, {
      fix: 'courtside polls the game and asks for a fresh checkpoint; check that this machine reaches the checkpoint host',
    });
  const c = w.checkpoint;
  if (!c)
    return result('fastcast-checkpoint', 'fail', `not downloaded within ${f.stepMs} ms`, {
      fix: 'a slow path to the checkpoint host; courtside polls meanwhile',
    });
  const kb = Math.round(c.bytes / 1024);
  if (c.refused !== undefined)
    return result('fastcast-checkpoint', 'fail', `refused (${kb} KB): ${c.refused}`, {
      fix: "courtside polls the game, its feed's reason says why; a capture of the topic helps a bug report",
    });
  if (c.wrapped)
    return result(
      'fastcast-checkpoint',
      'fail',
      `the body came wrapped as {"pl": document} (${kb} KB, game ${f.game?.id} inside)`,
      {
        fix: 'courtside unwraps it and checks the header before use; a client taking the body as the document would lose the game',
      },
    );
  return result(
    'fastcast-checkpoint',
    'ok',
    `${kb} KB: a summary of game ${f.game?.id}${c.plays !== undefined ? ` with ${c.plays} plays` : ''}`,
    {
      data: { bytes: c.bytes },
    },
  );
}

// What courtside does about the frames' oddities, and what helps a bug report.
const FRAMES_FIX =
  'courtside copes (it skips operations on parts it does not read, splits lists, refuses payloads over 16 MiB), ' +
  'at most at the cost of some polling (docs/upstream.md, "courtside doctor"); a capture of the topic helps a bug report';

function frames(f: ProbeFindings): CheckResult {
  const w = f.watch;
  const log = f.log;
  if (!w || !log || !f.hello) return skip('fastcast-frames', notReached(f), f.game !== undefined);
  const c = w.checkpoint;
  if (w.checkpointError !== undefined || !c || c.refused !== undefined)
    return skip('fastcast-frames', 'not reached: no checkpoint courtside would use');
  if (w.documents === 0 || f.watchedMs === undefined) return noDocument(f, w, log, c.bytes);
  const issues = frameIssues(f, w, log);
  const seconds = Math.round(f.watchedMs / 1000);
  const data = {
    patchesApplied: w.patchesApplied,
    messages: log.received.length,
    lists: log.lists,
    skippedOps: w.skipped.length,
    resyncs: w.resyncs.length,
  };
  if (issues.length > 0)
    return result('fastcast-frames', 'fail', `in ${seconds} s: ${issues.join('; ')}`, {
      fix: FRAMES_FIX,
      data,
    });
  const ofTopic = log.received.filter(
    (r) => r.frame.tc === w.topic.name && r.frame.op !== 'S' && r.frame.op !== 'H',
  );
  // No patch seen to apply: whether patches apply here is not known, so this is not a success.
  if (w.patchesApplied === 0)
    return result(
      'fastcast-frames',
      'skip',
      `not checked: no patch came in ${seconds} s (${ofTopic.length} other frame(s) of the topic)`,
      {
        fix: 'a break in play, or a stuck topic: run doctor again with --seconds 30, or during play (--game <id>)',
        data,
      },
    );
  return result(
    'fastcast-frames',
    'ok',
    `${w.patchesApplied} patch frame(s) applied in ${seconds} s (${ofTopic.length} frames of the topic)`,
    { data },
  );
}

/**
 * The checkpoint was fine, but courtside's topic code made no document of it and its catch-up
 * (a catch-up frame that does not decode or apply, a gap): push cannot feed this game, whatever
 * the checkpoint check said.
 */
function noDocument(f: ProbeFindings, w: TopicWatch, log: FastcastFrameLog, bytes: number): CheckResult {
  const issues = frameIssues(f, w, log);
  const why = issues.length > 0 ? issues.join('; ') : `nothing came of it within ${f.stepMs} ms`;
  return result(
    'fastcast-frames',
    'fail',
    `no document: the checkpoint (${Math.round(bytes / 1024)} KB) was fine, but ${why}`,
    {
      fix:
        'courtside cannot follow this topic by push: it polls the game, asks for a fresh checkpoint again and again and, ' +
        "after 10 in 2 minutes, leaves the game to polling for 10 minutes (the game's feed says why); " +
        'a capture of the topic (courtside record --push) helps a bug report',
      data: { documents: 0, resyncs: w.resyncs.length, messages: log.received.length },
    },
  );
}

/** What went wrong with the topic's frames, one phrase each. */
function frameIssues(f: ProbeFindings, w: TopicWatch, log: FastcastFrameLog): string[] {
  const issues: string[] = [];
  if (log.lists > 0) issues.push(`${log.lists} message(s) held several frames (a JSON list)`);
  const unknown = [...new Set(log.received.map((r) => r.frame.op).filter((op) => !KNOWN_OPS.has(op)))];
  if (unknown.length > 0) issues.push(`unknown op(s) ${unknown.join(', ')}`);
  if (log.unreadable > 0) issues.push(`${log.unreadable} message(s) were not frames`);
  const why = (reason: ResyncReason) => w.resyncs.filter((r) => r.reason === reason).map((r) => r.detail);
  const undecodable = why('bad_payload');
  if (undecodable.length > 0)
    issues.push(`${undecodable.length} patch frame(s) did not decode (${undecodable[0]})`);
  if (w.skipped.length > 0) {
    const paths = [...new Set(w.skipped.map((op) => `${op.op} ${op.path}`))].slice(0, 3).join(', ');
    issues.push(
      `${w.skipped.length} operation(s) do not apply, on parts courtside does not read (${paths}): skipped`,
    );
  }
  const unapplied = why('bad_patch');
  if (unapplied.length > 0)
    issues.push(
      `${unapplied.length} patch(es) do not apply on a part courtside reads (${unapplied[0]}): each costs a fresh checkpoint`,
    );
  const unreadable = why('bad_document');
  if (unreadable.length > 0) issues.push(`a document courtside cannot read (${unreadable[0]})`);
  const gaps = w.resyncs.filter((r) => r.reason === 'mid_gap');
  if (gaps.length > 0) issues.push(`frames lost (${gaps[0]?.detail})`);
  const later = w.resyncs.filter((r) => r.reason === 'checkpoint_failed');
  if (later.length > 0) issues.push(`a later checkpoint failed (${later[0]?.detail})`);
  if (w.resyncs.length > 0)
    issues.push(
      `courtside's topic code asked for a fresh checkpoint ${w.resyncs.length} time(s) (${[...new Set(w.resyncs.map((r) => words(r.reason)))].join(', ')})`,
    );
  if (log.closedWith !== undefined) issues.push(`the socket ended: ${log.closedWith}`);
  const hbi = f.connect?.frame.hbi;
  if (log.closedWith === undefined && hbi !== undefined && (f.silentMs ?? 0) > 2 * hbi * 1000)
    issues.push(
      `the socket went silent: nothing (no frame, no ping) for ${f.silentMs} ms, over twice the heartbeat of ${hbi} s`,
    );
  return issues;
}

function lag(f: ProbeFindings): CheckResult {
  const lags = [...(f.watch?.lags ?? [])].sort((a, b) => a - b);
  if (f.watchedMs === undefined || lags.length === 0)
    return skip('push-lag', 'no live patch (P) with a publication time was received', false);
  const p50 = lags[Math.floor((lags.length - 1) / 2)] ?? 0;
  const max = lags[lags.length - 1] ?? 0;
  const detail = `publication to receipt: p50 ${p50} ms, max ${max} ms over ${lags.length} patch(es)`;
  const data = { p50, max, patches: lags.length };
  if (p50 > LAG_WARN_MS)
    return result('push-lag', 'warn', detail, {
      needed: false,
      fix: "this machine's clock may be off (check NTP), or the path to FastCast is slow",
      data,
    });
  return result('push-lag', 'ok', detail, { needed: false, data });
}
