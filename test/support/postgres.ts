import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, waitFor } from './ports.js';

/*
 * A throwaway Postgres cluster for integration tests: initdb into a temp dir, pg_ctl start on a
 * free 127.0.0.1 port (its unix socket in the temp dir too), trust authentication, no fsync.
 * Binaries come from Debian's `postgresql` package (/usr/lib/postgresql/<version>/bin;
 * scripts/test.mjs and .ci/run install it). Postgres refuses to run as root: as root (CI), the
 * cluster runs as the `postgres` OS user, which owns the temp dir.
 */

export interface PostgresServer {
  readonly port: number;
  /** `postgres://openbid@127.0.0.1:<port>/postgres` (superuser `openbid`, no password). */
  readonly url: string;
  /** A connected client for setting up and checking. Closed by `stop()`. */
  readonly admin: pg.Client;
  /** Stops the cluster (immediate shutdown, like a crash) and removes its files. Idempotent. */
  stop(): Promise<void>;
}

/** The newest `/usr/lib/postgresql/<version>/bin` that has initdb, if any. */
export const findPostgresBin = (): string | undefined => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
};

const running = new Set<() => void>();
process.on('exit', () => {
  for (const stop of running) stop();
});

export const startPostgres = async (): Promise<PostgresServer> => {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('no Postgres under /usr/lib/postgresql/*/bin: install Debian\'s postgresql (npm test does it with apt-get)');
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'openbid-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const pgUser = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const pgGroup = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (pgUser.status !== 0) throw new Error('running as root needs the postgres OS user (Debian\'s postgresql package creates it)');
    chownSync(dir, Number(pgUser.stdout.trim()), Number(pgGroup.stdout.trim()));
  }
  const run = (cmd: string, args: string[]): void => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir, timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${cmd} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'openbid', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '60', 'start']);
  let stopped = false;
  const stopSync = (): void => {
    if (stopped) return;
    stopped = true;
    running.delete(stopSync);
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  running.add(stopSync);

  const url = `postgres://openbid@127.0.0.1:${port}/postgres`;
  let admin: pg.Client | undefined;
  try {
    await waitFor(`postgres on port ${port}`, async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      await client.connect();
      admin = client;
      return true;
    });
  } catch (err) {
    stopSync();
    throw err;
  }
  const connected = admin as pg.Client;
  return {
    port,
    url,
    admin: connected,
    stop: async () => {
      if (stopped) return;
      await connected.end().catch(() => undefined);
      stopSync();
    },
  };
};
