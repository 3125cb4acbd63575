import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** Debian's broker binary, or the one on PATH. */
const BINARY = existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';

/** True when a mosquitto binary can run here. */
export async function haveMosquitto(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(BINARY, ['-h'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    // `-h` prints the usage and exits 3.
    child.on('exit', (code) => resolve(code === 3 || code === 0));
  });
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A private mosquitto on loopback without persistence, stopped by its own PID: a restart empties
 * it (no retained message survives), as a broker restarted without a persistence file does.
 */
export class MosquittoProcess {
  private child: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), 'courtside-mosquitto-'));

  constructor(
    readonly port: number,
    /** `user:password` pairs the broker accepts; none: anonymous clients are allowed. */
    private readonly users: readonly [string, string][] = [],
  ) {}

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  static async start(options: { users?: [string, string][] } = {}): Promise<MosquittoProcess> {
    const broker = new MosquittoProcess(await freePort(), options.users);
    await broker.start();
    return broker;
  }

  async start(): Promise<void> {
    const conf = join(this.dir, 'mosquitto.conf');
    // Started as root, mosquitto would drop to the `mosquitto` user, who cannot read this folder.
    const lines = [`listener ${this.port} 127.0.0.1`, 'persistence false', 'user root'];
    if (this.users.length > 0) {
      const passwords = join(this.dir, 'passwd');
      writeFileSync(passwords, '');
      for (const [user, password] of this.users) {
        await run('mosquitto_passwd', ['-b', passwords, user, password]);
      }
      lines.push('allow_anonymous false', `password_file ${passwords}`);
    } else {
      lines.push('allow_anonymous true');
    }
    writeFileSync(conf, `${lines.join('\n')}\n`);
    this.child = spawn(BINARY, ['-c', conf], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await accepting(this.port))) {
      if (this.child.exitCode !== null) throw new Error(`mosquitto exited with ${this.child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`mosquitto on ${this.port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Kills the broker (SIGKILL: clients see the connection drop, as in a crash). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`)),
    );
  });
}
