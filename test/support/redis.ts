import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { awaitReady, registerCleanup, spawnOwned } from './child-processes.js';
import type { OwnedProcess } from './child-processes.js';
import { freePort, waitFor } from './ports.js';
import { STARTUP_TIMEOUT_MS } from './time-bounds.js';

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

/**
 * Runs `redis-server args` in the foreground, its output collected; killed with the test's
 * process (or at the end of its file) if nothing stopped it before (child-processes.ts).
 */
export const spawnRedisServer = (args: string[]): OwnedProcess => spawnOwned('redis-server', args);

/** A data node on 127.0.0.1:`port`, nothing persisted; `extra` are more `--option value` pairs. */
export const spawnRedis = (port: number, dir: string, extra: string[]): OwnedProcess =>
  spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'no', ...extra]);

/** A temp dir for Redis's files, removed by the returned function or when the test's process ends. */
const redisDir = (prefix: string): { dir: string; remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: registerCleanup(() => rmSync(dir, { recursive: true, force: true })) };
};

/** SIGTERM (or SIGKILL when `hard`) and wait for the exit; resumes a paused process first. */
export const stopProcess = async (proc: ChildProcess, hard: boolean): Promise<void> => {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGCONT');
  proc.kill(hard ? 'SIGKILL' : 'SIGTERM');
  await exited;
};

/**
 * Starts a real `redis-server` on a free 127.0.0.1 port, optionally with a password. A start that
 * fails says why, with Redis's own output.
 */
export const startRedis = async (opts: { password?: string; port?: number } = {}): Promise<RedisServer> => {
  const port = opts.port ?? (await freePort());
  const { dir, remove } = redisDir('openbid-redis-');
  const child = spawnRedis(port, dir, opts.password ? ['--requirepass', opts.password] : []);
  const { proc } = child;
  let admin: AdminClient | undefined;
  try {
    await awaitReady(
      child,
      `redis-server on port ${port}`,
      async () => {
        admin = await adminClient(port, opts.password);
        return (await admin.ping()) === 'PONG';
      },
      STARTUP_TIMEOUT_MS,
    );
  } catch (err) {
    remove();
    throw err;
  }
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
      remove();
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

/** Waits for each node, joins them into one cluster, and waits until every node says it is ok. */
const formCluster = async (children: OwnedProcess[], ports: number[], nodes: string[]): Promise<void> => {
  const cli = (args: string[]) => spawnSync('redis-cli', args, { encoding: 'utf8', timeout: 10_000 });
  for (const [i, port] of ports.entries()) {
    await awaitReady(children[i] as OwnedProcess, `cluster node ${port}`, async () => cli(['-p', String(port), 'ping']).stdout.trim() === 'PONG', STARTUP_TIMEOUT_MS);
  }
  const create = cli(['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  for (const port of ports) {
    await waitFor(`cluster_state:ok on ${port}`, async () => cli(['-p', String(port), 'cluster', 'info']).stdout.includes('cluster_state:ok'), STARTUP_TIMEOUT_MS);
  }
};

/** Starts three `redis-server` masters in cluster mode on free ports and joins them into one cluster. */
export const startRedisCluster = async (): Promise<RedisCluster> => {
  const { dir, remove } = redisDir('openbid-redis-cluster-');
  const ports = [await freePort(), await freePort(), await freePort()];
  const children = ports.map((port) =>
    spawnRedis(port, dir, ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000']),
  );
  const procs = children.map((c) => c.proc);
  const nodes = ports.map((p) => `127.0.0.1:${p}`);
  try {
    await formCluster(children, ports, nodes);
  } catch (err) {
    await Promise.all(procs.map((p) => stopProcess(p, true)));
    remove();
    throw err;
  }
  return {
    nodes,
    pauseNode: (i) => procs[i]?.kill('SIGSTOP'),
    resumeNode: (i) => procs[i]?.kill('SIGCONT'),
    stop: async () => {
      for (const p of procs) p.kill('SIGCONT');
      await Promise.all(procs.map((p) => stopProcess(p, false)));
      remove();
    },
  };
};
