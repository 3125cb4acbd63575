import type { PeerCertificate } from 'node:tls';
import type { Agent } from 'undici';
import WebSocket, { type ClientOptions } from 'ws';
import { discover, type DiscoveryAnswer } from '../espn/fastcast-discovery.js';
import { MAX_PAYLOAD_BYTES, readFrames, socketPath, type FastcastFrame } from '../espn/fastcast-wire.js';
import { fastcastSocketTls } from '../espn/fastcast-tls.js';
import type { PushConfig } from '../daemon/push-config.js';

/**
 * `courtside doctor`'s FastCast socket: discovery and the upgrade as the push client takes them
 * (fastcast-discovery.ts), then every message kept with the time it came, lists opened, so the
 * checks can say what the server sent.
 */

export interface SocketRequest {
  readonly push: PushConfig;
  readonly dispatcher: Agent;
  readonly timeoutMs: number;
  /** The token written whole percent-encoded instead of as discovery gave it. */
  readonly encodeToken: boolean;
}

/** What the TLS handshake showed (wss only). */
export interface TlsSeen {
  /** The certificate's subject CN and alternative names. */
  readonly names: string;
  /** The certificate did not name the address connected to, but the discovery host. */
  readonly serviceHostNamed: boolean;
}

/** What discovery answered, and the socket URL made of it. */
export interface Discovered extends DiscoveryAnswer {
  readonly socketUrl: string;
}

export type SocketAttempt =
  | {
      readonly ok: true;
      readonly ws: WebSocket;
      readonly found: Discovered;
      readonly tls: TlsSeen | undefined;
    }
  | { readonly ok: false; readonly stage: 'discovery'; readonly error: Error }
  | {
      readonly ok: false;
      readonly stage: 'upgrade';
      readonly found: Discovered;
      /** The HTTP status of a refused upgrade; undefined for a network or TLS failure. */
      readonly status: number | undefined;
      readonly error: Error;
      readonly tls: TlsSeen | undefined;
    };

/** Discovery, then one upgrade; never throws. */
export async function openFastcastSocket(request: SocketRequest): Promise<SocketAttempt> {
  const { push, timeoutMs } = request;
  let found: Discovered;
  const secure = new URL(push.fastcastUrl).protocol === 'https:';
  try {
    const answer = await discover(request.dispatcher, {
      url: push.fastcastUrl,
      userAgent: push.userAgent,
      origin: push.origin,
      timeoutMs,
    });
    const host = answer.host.includes(':') ? `[${answer.host}]` : answer.host;
    const path = socketPath(answer.token, request.encodeToken ? 'encoded' : 'given');
    found = { ...answer, socketUrl: `${secure ? 'wss' : 'ws'}://${host}:${answer.port}${path}` };
  } catch (error) {
    return { ok: false, stage: 'discovery', error: error as Error };
  }
  let cert: PeerCertificate | undefined;
  let serviceHostNamed = false;
  // The socket courtside opens, with the certificate kept to say what it named.
  const tls = secure
    ? fastcastSocketTls(
        found.host,
        new URL(push.fastcastUrl).hostname.replace(/^\[(.*)\]$/, '$1'),
        undefined,
        () => (serviceHostNamed = true),
      )
    : undefined;
  const identity = tls?.checkServerIdentity as unknown as
    ((host: string, c: PeerCertificate) => Error | undefined) | undefined;
  const options: ClientOptions = {
    headers: { 'User-Agent': push.userAgent, Origin: push.origin },
    perMessageDeflate: false,
    handshakeTimeout: timeoutMs,
    maxPayload: MAX_PAYLOAD_BYTES,
    ...(tls && identity
      ? {
          ...tls,
          checkServerIdentity: ((host: string, c: PeerCertificate) => {
            cert = c;
            return identity(host, c);
          }) as unknown as ClientOptions['checkServerIdentity'],
        }
      : {}),
  };
  const ws = new WebSocket(found.socketUrl, options);
  const seen = (): TlsSeen | undefined =>
    cert === undefined ? undefined : { names: certificateNames(cert), serviceHostNamed };
  return new Promise<SocketAttempt>((resolve) => {
    ws.once('open', () => resolve({ ok: true, ws, found, tls: seen() }));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      ws.on('error', () => undefined);
      ws.terminate();
      const status = res.statusCode;
      resolve({
        ok: false,
        stage: 'upgrade',
        found,
        status,
        error: new Error(`upgrade answered ${status}`),
        tls: seen(),
      });
    });
    ws.once('error', (error) =>
      resolve({ ok: false, stage: 'upgrade', found, status: undefined, error, tls: seen() }),
    );
  });
}

function certificateNames(cert: PeerCertificate): string {
  const names = [cert.subject?.CN, cert.subjectaltname].filter((n) => typeof n === 'string' && n !== '');
  return names.join(', ') || 'a certificate without names';
}

/** One frame as received. */
export interface Received {
  readonly frame: FastcastFrame;
  /** ms, the doctor's clock. */
  readonly at: number;
}

/** Every message of the socket, kept; `wait` resolves on a frame that matches (or undefined at the deadline). */
export interface FastcastFrameLog {
  readonly received: readonly Received[];
  /** Messages that held several frames. */
  readonly lists: number;
  /** Messages that were not a frame at all. */
  readonly unreadable: number;
  /** Set when the socket closed. */
  readonly closedWith: string | undefined;
  /** When a frame or a ping last came (ms). */
  readonly lastHeard: number;
  onFrame(fn: (r: Received) => void): void;
  wait(test: (f: FastcastFrame) => boolean, ms: number): Promise<Received | undefined>;
}

export function logFastcastFrames(ws: WebSocket, now: () => number): FastcastFrameLog {
  const received: Received[] = [];
  const listeners: Array<(r: Received) => void> = [];
  let lists = 0;
  let unreadable = 0;
  let closedWith: string | undefined;
  let lastHeard = now();
  ws.on('ping', () => (lastHeard = now()));
  const add = (frame: FastcastFrame): void => {
    lastHeard = now();
    const r = { frame, at: now() };
    received.push(r);
    for (const fn of listeners) fn(r);
  };
  ws.on('message', (data) => {
    let read: { frames: FastcastFrame[]; invalid: number };
    try {
      read = readFrames(String(data), 'fastcast');
    } catch {
      unreadable++;
      return;
    }
    unreadable += read.invalid;
    if (String(data).trimStart().startsWith('[')) lists++;
    for (const frame of read.frames) add(frame);
  });
  ws.on('close', (code) => (closedWith ??= `closed with code ${code}`));
  ws.on('error', (error) => (closedWith ??= error.message));
  return {
    received,
    get lists() {
      return lists;
    },
    get unreadable() {
      return unreadable;
    },
    get closedWith() {
      return closedWith;
    },
    get lastHeard() {
      return lastHeard;
    },
    onFrame: (fn) => listeners.push(fn),
    wait(test, ms) {
      const found = received.find((r) => test(r.frame));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), ms);
        listeners.push((r) => {
          if (!test(r.frame)) return;
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
  };
}
