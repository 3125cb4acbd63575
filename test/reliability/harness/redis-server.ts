import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A private `redis-server` child (no persistence) that a test may kill and restart on the same
 * port. Without persistence a restart empties the stream: resumes across it get `resume_gap`.
 */
export interface OwnRedis {
  url: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      // Refused while the server boots: expected, and reported by connect() below.
      c.on('error', () => undefined);
      try {
        await c.connect();
        await c.ping();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        c.disconnect();
      }
    }
    throw new Error(`redis-server on ${port} did not answer`);
  };
  const kill = async (): Promise<void> => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((r) => {
      c.once('exit', () => r());
      c.kill('SIGKILL');
    });
  };
  await start();
  return { url, start, kill, close: kill };
}
