import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { awaitReady, registerCleanup, spawnOwned, stopOwned } from './child-processes.js';
import { freePort } from './ports.js';
import { scaled, STARTUP_TIMEOUT_MS } from './time-bounds.js';

/*
 * A throwaway Postgres cluster for integration tests: initdb into a temp dir, `postgres` on a
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
  /** Stops the cluster (immediate shutdown, like a crash: SIGQUIT) and removes its files. Idempotent. */
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

/** The OS user Postgres runs as when we are root (it refuses to run as root): Debian's `postgres`. */
const postgresUser = (): { uid: number; gid: number } => {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [user, group] = [id('-u'), id('-g')];
  if (user.status !== 0 || group.status !== 0) throw new Error('running as root needs the postgres OS user (Debian\'s postgresql package creates it)');
  return { uid: Number(user.stdout.trim()), gid: Number(group.stdout.trim()) };
};

/**
 * Starts a throwaway cluster and waits until it takes connections. `postgres` runs in the
 * foreground as this process's child (not `pg_ctl start`, which detaches it), owned by
 * child-processes.ts: it is ended with SIGQUIT, Postgres's immediate shutdown, when the test's
 * process ends first. A start that fails says why, with Postgres's own output.
 */
export const startPostgres = async (): Promise<PostgresServer> => {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('no Postgres under /usr/lib/postgresql/*/bin: install Debian\'s postgresql (npm test does it with apt-get)');
  const owner = userInfo().uid === 0 ? postgresUser() : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'openbid-pg-'));
  const removeDir = registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const initdb = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'openbid', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
    encoding: 'utf8',
    cwd: dir,
    timeout: scaled(120_000),
    ...owner,
  });
  if (initdb.status !== 0) {
    removeDir();
    throw new Error(`initdb failed (${initdb.status ?? initdb.signal}): ${initdb.stderr}${initdb.stdout}`);
  }
  const port = await freePort();
  const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'].flatMap((s) => ['-c', s]);
  const server = spawnOwned(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, ...settings], { cwd: dir, endSignal: 'SIGQUIT', ...owner });
  const url = `postgres://openbid@127.0.0.1:${port}/postgres`;
  let admin: pg.Client | undefined;
  const stopServer = async (): Promise<void> => {
    await admin?.end().catch(() => undefined);
    await stopOwned(server, 'SIGQUIT');
    removeDir();
  };
  try {
    await awaitReady(
      server,
      `postgres on port ${port}`,
      async () => {
        const client = new pg.Client({ connectionString: url });
        client.on('error', () => undefined);
        await client.connect();
        admin = client;
        return true;
      },
      STARTUP_TIMEOUT_MS,
    );
  } catch (err) {
    removeDir();
    throw err;
  }
  let stopped: Promise<void> | undefined;
  return { port, url, admin: admin as pg.Client, stop: () => (stopped ??= stopServer()) };
};
