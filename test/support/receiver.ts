import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A real HTTP webhook receiver on loopback; `respond` picks each answer's status (default 200)
 * from the request's number, body and headers.
 */
export async function startReceiver(
  respond: (n: number, body: string, headers: IncomingHttpHeaders) => number = () => 200,
  port = 0,
): Promise<{
  url: string;
  port: number;
  received: Received[];
  /** Only the requests answered 2xx. */
  accepted(): Received[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = respond(received.length, body, req.headers);
      received.push({ headers: req.headers, body, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    port: bound,
    received,
    accepted: () => received.filter((r) => r.status >= 200 && r.status < 300),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
