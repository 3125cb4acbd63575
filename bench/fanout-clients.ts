import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The viewers' process (bench/fanout-client.ts), forked, and its IPC as the benchmarks use it. */
export interface FanoutClients {
  child: ChildProcess;
  /** Frames received since the process started, as last reported (every 50 ms). */
  total: () => number;
  ask: <T>(cmd: object, reply: string) => Promise<T>;
}

export function startClients(): FanoutClients {
  const here = dirname(fileURLToPath(import.meta.url));
  const child = fork(join(here, 'fanout-client.ts'), [], { execArgv: ['--import', 'tsx'] });
  let total = 0;
  const waiting = new Map<string, (m: unknown) => void>();
  child.on('message', (m: { type: string; total?: number; message?: string }) => {
    if (m.type === 'progress') total = m.total ?? total;
    else if (m.type === 'error') throw new Error(`client process: ${m.message}`);
    else waiting.get(m.type)?.(m);
  });
  return {
    child,
    total: () => total,
    ask<T>(cmd: object, reply: string) {
      return new Promise<T>((resolve) => {
        waiting.set(reply, (m) => resolve(m as T));
        child.send(cmd);
      });
    },
  };
}
