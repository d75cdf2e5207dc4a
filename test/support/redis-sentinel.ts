import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitReady, registerCleanup } from './child-processes.js';
import type { OwnedProcess } from './child-processes.js';
import { freePort, waitFor } from './ports.js';
import { adminClient, spawnRedis, spawnRedisServer, stopProcess } from './redis.js';
import type { AdminClient } from './redis.js';
import { STARTUP_TIMEOUT_MS } from './time-bounds.js';

export interface RedisSentinelSet {
  readonly masterName: string;
  /** `requirepass` of the master and the replica (the sentinels have none). */
  readonly password: string;
  readonly masterPort: number;
  readonly replicaPort: number;
  /** `127.0.0.1:port` of the three sentinels. */
  readonly sentinels: string[];
  /** Connected clients to the master and the replica, for checks; closed by `stop()`. */
  readonly master: AdminClient;
  readonly replica: AdminClient;
  /** SIGKILL the master, like a crash. */
  killMaster(): Promise<void>;
  /** The master's port as the first sentinel names it now. */
  masterPortNamed(): Promise<number>;
  stop(): Promise<void>;
}

const QUORUM = 2;

/**
 * A master, one replica (`replicaof`) and three sentinels (`redis-server <conf> --sentinel`,
 * quorum 2) on free 127.0.0.1 ports, with short failure detection so a failover takes seconds:
 * `down-after-milliseconds` 1000, `failover-timeout` 3000. Resolves once the replica is in sync
 * and every sentinel knows the replica and the other two sentinels (needed to elect a leader).
 */
export const startRedisSentinelSet = async (): Promise<RedisSentinelSet> => {
  const dir = mkdtempSync(join(tmpdir(), 'openbid-redis-sentinel-'));
  const removeDir = registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const masterName = 'openbid-master';
  const password = 'sentinel-test-pw';
  const auth = ['--requirepass', password, '--masterauth', password];
  const procs: OwnedProcess[] = [];
  const clients: AdminClient[] = [];
  const stop = async (): Promise<void> => {
    for (const c of clients) if (c.isOpen) c.destroy();
    await Promise.all(procs.map((p) => stopProcess(p.proc, true)));
    removeDir();
  };
  try {
    const masterPort = await freePort();
    const replicaPort = await freePort();
    const masterProc = spawnRedis(masterPort, dir, [...auth, '--dbfilename', 'master.rdb']);
    const replicaProc = spawnRedis(replicaPort, dir, [...auth, '--dbfilename', 'replica.rdb', '--replicaof', '127.0.0.1', String(masterPort)]);
    procs.push(masterProc, replicaProc);
    const sentinelPorts = [await freePort(), await freePort(), await freePort()];
    for (const port of sentinelPorts) {
      // Sentinel rewrites its config file, so each gets its own, writable.
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'protected-mode no',
          `dir ${dir}`,
          `sentinel monitor ${masterName} 127.0.0.1 ${masterPort} ${QUORUM}`,
          `sentinel auth-pass ${masterName} ${password}`,
          `sentinel down-after-milliseconds ${masterName} 1000`,
          `sentinel failover-timeout ${masterName} 3000`,
          `sentinel parallel-syncs ${masterName} 1`,
          '',
        ].join('\n'),
      );
      procs.push(spawnRedisServer([conf, '--sentinel']));
    }
    let master: AdminClient | undefined;
    let replica: AdminClient | undefined;
    const connect = async (port: number): Promise<AdminClient> => adminClient(port, password);
    await awaitReady(masterProc, 'master', async () => (master ??= await connect(masterPort)) !== undefined, STARTUP_TIMEOUT_MS);
    await awaitReady(
      replicaProc,
      'replica in sync',
      async () => (await (replica ??= await connect(replicaPort)).info('replication')).includes('master_link_status:up'),
      STARTUP_TIMEOUT_MS,
    );
    if (master === undefined || replica === undefined) throw new Error('unreachable');
    clients.push(master, replica);
    const sentinels = sentinelPorts.map((p) => `127.0.0.1:${p}`);
    const sentinelClients: AdminClient[] = [];
    for (const [i, port] of sentinelPorts.entries()) {
      const sentinel = procs[2 + i] as OwnedProcess;
      await awaitReady(sentinel, `sentinel ${port}`, async () => sentinelClients.push(await adminClient(port)) > 0, STARTUP_TIMEOUT_MS);
    }
    clients.push(...sentinelClients);
    // Sentinels find each other through hello messages every 2 s; a failover needs them to.
    for (const s of sentinelClients) {
      await waitFor(
        'sentinels to know the replica and each other',
        async () => {
          const replicas = await s.sendCommand<unknown[]>(['SENTINEL', 'REPLICAS', masterName]);
          const peers = await s.sendCommand<unknown[]>(['SENTINEL', 'SENTINELS', masterName]);
          return replicas.length === 1 && peers.length === sentinelPorts.length - 1;
        },
        STARTUP_TIMEOUT_MS,
      );
    }
    const first = sentinelClients[0] as AdminClient;
    return {
      masterName,
      password,
      masterPort,
      replicaPort,
      sentinels,
      master,
      replica,
      killMaster: async () => {
        if (master?.isOpen) master.destroy();
        await stopProcess(masterProc.proc, true);
      },
      masterPortNamed: async () => Number((await first.sendCommand<string[]>(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName]))[1]),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
};
