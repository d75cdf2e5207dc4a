import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { freePort, waitFor } from './ports.js';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly password: string | undefined;
  /** Stops the process (SIGKILL, like a crash, when `hard`). */
  stop(opts?: { hard?: boolean }): Promise<void>;
  /** A connected plain client to this server, for setting up and checking. Closed by `stop()`. */
  readonly admin: AdminClient;
  /** SIGSTOP: the server keeps its connections but answers nothing, like a hung Redis. */
  pause(): void;
  resume(): void;
}

export type AdminClient = ReturnType<typeof createClient>;

/** A connected client for assertions; fails fast rather than reconnecting. */
export const adminClient = async (port: number, password?: string): Promise<AdminClient> => {
  const client = createClient({ socket: { host: '127.0.0.1', port, reconnectStrategy: false }, ...(password ? { password } : {}) });
  client.on('error', () => undefined);
  await client.connect();
  return client;
};

const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const p of started) p.kill('SIGKILL');
});

/** Runs `redis-server args`, killed when the test process exits if nothing stopped it before. */
export const spawnRedisServer = (args: string[]): ChildProcess => {
  const proc = spawn('redis-server', args, { stdio: 'ignore' });
  started.add(proc);
  proc.on('exit', () => started.delete(proc));
  return proc;
};

/** A data node on 127.0.0.1:`port`, nothing persisted; `extra` are more `--option value` pairs. */
export const spawnRedis = (port: number, dir: string, extra: string[]): ChildProcess =>
  spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no', ...extra]);

/** SIGTERM (or SIGKILL when `hard`) and wait for the exit; resumes a paused process first. */
export const stopProcess = async (proc: ChildProcess, hard: boolean): Promise<void> => {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGCONT');
  proc.kill(hard ? 'SIGKILL' : 'SIGTERM');
  await exited;
};

/** Starts a real `redis-server` on a free 127.0.0.1 port, optionally with a password. */
export const startRedis = async (opts: { password?: string; port?: number } = {}): Promise<RedisServer> => {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'openbid-redis-'));
  const proc = spawnRedis(port, dir, opts.password ? ['--requirepass', opts.password] : []);
  let admin: AdminClient | undefined;
  await waitFor(`redis-server on port ${port}`, async () => {
    admin = await adminClient(port, opts.password);
    return (await admin.ping()) === 'PONG';
  });
  if (admin === undefined) throw new Error('unreachable');
  const connected = admin;
  const auth = opts.password ? `:${encodeURIComponent(opts.password)}@` : '';
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    password: opts.password,
    admin: connected,
    pause: () => proc.kill('SIGSTOP'),
    resume: () => proc.kill('SIGCONT'),
    stop: async ({ hard = false } = {}) => {
      if (connected.isOpen) connected.destroy();
      await stopProcess(proc, hard);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export interface RedisCluster {
  /** `127.0.0.1:port` of each master. */
  readonly nodes: string[];
  /** SIGSTOP / SIGCONT one master. */
  pauseNode(index: number): void;
  resumeNode(index: number): void;
  stop(): Promise<void>;
}

/** Starts three `redis-server` masters in cluster mode on free ports and joins them into one cluster. */
export const startRedisCluster = async (): Promise<RedisCluster> => {
  const dir = mkdtempSync(join(tmpdir(), 'openbid-redis-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  const procs = ports.map((port) =>
    spawnRedis(port, dir, ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000']),
  );
  const nodes = ports.map((p) => `127.0.0.1:${p}`);
  for (const port of ports) {
    await waitFor(`cluster node ${port}`, async () => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG');
  }
  const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8' });
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  for (const port of ports) {
    await waitFor(`cluster_state:ok on ${port}`, async () =>
      spawnSync('redis-cli', ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes('cluster_state:ok'),
    );
  }
  return {
    nodes,
    pauseNode: (i) => procs[i]?.kill('SIGSTOP'),
    resumeNode: (i) => procs[i]?.kill('SIGCONT'),
    stop: async () => {
      for (const p of procs) p.kill('SIGCONT');
      await Promise.all(procs.map((p) => stopProcess(p, false)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
