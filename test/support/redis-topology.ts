import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { waitUntilServing } from './redis-process.js';
import { waitFor } from './wait-for.js';

/**
 * Redis topologies for tests, made of `redis-server` children on free loopback ports in a
 * temporary folder: a primary with a replica under three sentinels, or a Cluster of primaries.
 * Every child is stopped by its PID (`stop()`), and the folder removed. Use with
 * `haveRedisServer()` (redis-process.ts) to skip, saying why, where the binary is absent.
 */
export class RedisNode {
  private child: ChildProcess | null;
  constructor(
    readonly port: number,
    child: ChildProcess,
  ) {
    this.child = child;
  }

  /** Kills the process at once (SIGKILL): no shutdown, no last write, as a crashed host. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

async function spawnNode(args: string[], port: number): Promise<RedisNode> {
  const node = new RedisNode(port, spawn('redis-server', args, { stdio: 'ignore' }));
  await waitUntilServing(port);
  return node;
}

/** Stops every node by its PID and removes the topology's folder. */
async function stopAll(nodes: readonly RedisNode[], dir: string): Promise<void> {
  for (const node of nodes) await node.kill();
  await rm(dir, { recursive: true, force: true });
}

const NO_PERSISTENCE = ['--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'];

export interface SentinelSet {
  /** `redis+sentinel://127.0.0.1:p1,…/<name>` */
  url: string;
  masterName: string;
  primary: RedisNode;
  /** The first replica (of `replicas`). */
  replica: RedisNode;
  replicas: RedisNode[];
  sentinels: RedisNode[];
  /** The port of the node the sentinels name as primary now. */
  primaryPort(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * A primary, `replicas` replicas (default 1) and three sentinels (quorum 2) that declare the primary
 * down after `downAfterMs` (default 1 s) and fail over at once. With two replicas the promoted one
 * keeps a replica of its own, so commits that wait for one still succeed after the failover.
 */
export async function startSentinelSet(
  options: { downAfterMs?: number; replicas?: number } = {},
): Promise<SentinelSet> {
  const dir = await mkdtemp(join(tmpdir(), 'courtside-sentinel-'));
  const masterName = 'courtside';
  const nodes: RedisNode[] = [];
  try {
    const primaryPort = await freePort();
    const primary = await spawnNode(
      ['--port', String(primaryPort), ...NO_PERSISTENCE, '--dir', dir],
      primaryPort,
    );
    nodes.push(primary);
    const replicas: RedisNode[] = [];
    for (let r = 0; r < (options.replicas ?? 1); r++) {
      const replicaPort = await freePort();
      const replica = await spawnNode(
        [
          '--port',
          String(replicaPort),
          ...NO_PERSISTENCE,
          '--dir',
          dir,
          '--replicaof',
          '127.0.0.1',
          String(primaryPort),
        ],
        replicaPort,
      );
      nodes.push(replica);
      const sync = new Redis({ port: replicaPort, host: '127.0.0.1' });
      try {
        await waitFor(async () => /master_link_status:up/.test(await sync.info('replication')), 15_000);
      } finally {
        sync.disconnect();
      }
      replicas.push(replica);
    }
    const sentinels: RedisNode[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const conf = join(dir, `sentinel-${port}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${masterName} 127.0.0.1 ${primaryPort} 2`,
          `sentinel down-after-milliseconds ${masterName} ${options.downAfterMs ?? 1_000}`,
          `sentinel failover-timeout ${masterName} 10000`,
          `sentinel parallel-syncs ${masterName} 1`,
          '',
        ].join('\n'),
      );
      const node = await spawnNode([conf, '--sentinel'], port);
      nodes.push(node);
      sentinels.push(node);
    }
    const ask = new Redis({ port: sentinels[0]!.port, host: '127.0.0.1' });
    // The sentinels know the replica (and one another) before a test may kill the primary.
    await waitFor(async () => {
      const known = (await ask.call('SENTINEL', 'REPLICAS', masterName)) as unknown[];
      const peers = (await ask.call('SENTINEL', 'SENTINELS', masterName)) as unknown[];
      return known.length === replicas.length && peers.length === 2;
    }, 20_000);
    return {
      url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${masterName}`,
      masterName,
      primary,
      replica: replicas[0]!,
      replicas,
      sentinels,
      async primaryPort() {
        const [, port] = (await ask.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName)) as [
          string,
          string,
        ];
        return Number(port);
      },
      async stop() {
        ask.disconnect();
        await stopAll(nodes, dir);
      },
    };
  } catch (err) {
    await stopAll(nodes, dir);
    throw err;
  }
}

export interface RedisClusterSet {
  /** `redis+cluster://127.0.0.1:p1,…` */
  url: string;
  nodes: RedisNode[];
  stop(): Promise<void>;
}

/** `primaries` (at least 3) cluster-enabled servers joined with `redis-cli --cluster create`, no replicas. */
export async function startRedisCluster(primaries = 3): Promise<RedisClusterSet> {
  const dir = await mkdtemp(join(tmpdir(), 'courtside-cluster-'));
  const nodes: RedisNode[] = [];
  try {
    for (let i = 0; i < primaries; i++) {
      const port = await freePort();
      nodes.push(
        await spawnNode(
          [
            '--port',
            String(port),
            ...NO_PERSISTENCE,
            '--dir',
            dir,
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            `nodes-${port}.conf`,
            '--cluster-node-timeout',
            '5000',
          ],
          port,
        ),
      );
    }
    await new Promise<void>((resolve, reject) => {
      const create = spawn(
        'redis-cli',
        ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-yes'],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      create.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
      create.on('error', reject);
      create.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`redis-cli --cluster create: ${stderr}`)),
      );
    });
    for (const node of nodes) {
      const probe = new Redis({ port: node.port, host: '127.0.0.1' });
      try {
        await waitFor(
          async () => /cluster_state:ok/.test(String(await probe.call('CLUSTER', 'INFO'))),
          20_000,
        );
      } finally {
        probe.disconnect();
      }
    }
    return {
      url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
      nodes,
      stop: () => stopAll(nodes, dir),
    };
  } catch (err) {
    await stopAll(nodes, dir);
    throw err;
  }
}
