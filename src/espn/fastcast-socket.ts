import WebSocket, { type ClientOptions } from 'ws';
import type { Logger } from '../core/log.js';
import { fastcastOversize } from '../core/metrics.js';
import type { TokenForms } from './fastcast-token-form.js';
import { MAX_PAYLOAD_BYTES, socketPath } from './fastcast-wire.js';

/**
 * One FastCast WebSocket: its URL made of discovery's answer in the token's form to try
 * (fastcast-token-form.ts), the headers FastCast requires, and what the socket does told to the
 * connection (fastcast-connection.ts) as plain events.
 */

export interface SocketTarget {
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly tokenForms: TokenForms;
  readonly userAgent: string;
  readonly origin: string;
  /** The WebSocket handshake's timeout. */
  readonly timeoutMs: number;
  /** The TLS options of a `wss:` socket to `host` (fastcast-tls.ts). */
  readonly tls: (host: string) => ClientOptions;
  readonly logger: Logger;
}

export interface SocketEvents {
  open(): void;
  text(text: string): void;
  ping(): void;
  /** The socket failed or ended; `delay`: when to try again, if not after the usual backoff. */
  failed(reason: 'refused' | 'error' | 'closed', detail: string, delay?: number): void;
}

export function openSocket(target: SocketTarget, on: SocketEvents): WebSocket {
  const { host, tokenForms } = target;
  const form = tokenForms.next();
  const scheme = target.secure ? 'wss' : 'ws';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${target.port}${socketPath(target.token, form)}`;
  // `ws` writes Upgrade, Host, Sec-WebSocket-Key and Sec-WebSocket-Version with exactly these
  // capitals, which FastCast requires; permessage-deflate is not offered.
  const socket = new WebSocket(url, {
    headers: { 'User-Agent': target.userAgent, Origin: target.origin },
    perMessageDeflate: false,
    handshakeTimeout: target.timeoutMs,
    maxPayload: MAX_PAYLOAD_BYTES,
    ...(target.secure ? target.tls(host) : {}),
  });
  socket.on('open', () => {
    if (tokenForms.accepted(form))
      target.logger.info('FastCast accepted the token percent-encoded; sending it so from now on');
    on.open();
  });
  socket.on('message', (data) => on.text(String(data)));
  socket.on('ping', () => on.ping());
  socket.on('unexpected-response', (_req, res) => {
    res.resume();
    const detail = `upgrade answered ${res.statusCode ?? '?'}`;
    const retry = tokenForms.refused(form, target.token);
    if (retry) on.failed('refused', `${detail}; trying the token percent-encoded`, 0);
    else on.failed('refused', detail);
  });
  socket.on('error', (error) => {
    if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
      fastcastOversize.inc({ kind: 'frame' });
    on.failed('error', error.message);
  });
  socket.on('close', (code) => on.failed('closed', `closed with code ${code}`));
  return socket;
}

/** Sends `message` as JSON if the socket is open, showing it to `tap` first. */
export function sendOn(
  socket: WebSocket | null,
  message: Record<string, unknown>,
  tap?: (direction: 'in' | 'out', text: string) => void,
): void {
  if (socket?.readyState !== WebSocket.OPEN) return;
  const text = JSON.stringify(message);
  tap?.('out', text);
  socket.send(text);
}

/** Ends a socket at once; nothing it does afterwards reaches anyone, an error included. */
export function discard(socket: WebSocket | null): void {
  socket?.removeAllListeners();
  socket?.on('error', () => undefined);
  socket?.terminate();
}
