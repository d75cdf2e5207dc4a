import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitReady, registerCleanup, spawnOwned } from './child-processes.js';
import { freePort } from './ports.js';
import { STARTUP_TIMEOUT_MS } from './time-bounds.js';

const BIN = new URL('../../bin/openbid', import.meta.url).pathname;

export interface ServerProcess {
  readonly port: number;
  readonly baseUrl: string;
  /** The admin listener's base URL (`server.admin_port` on 127.0.0.1); undefined with `admin_port: 0`. */
  readonly adminUrl: string | undefined;
  readonly proc: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
}

/**
 * Runs `bin/openbid` with `args`, collecting output; does not wait for anything. The process is
 * ended with the test's process if nothing stopped it before (child-processes.ts).
 */
export const runCli = (args: string[], env: Record<string, string> = {}): { proc: ChildProcess; output: () => string; exited: Promise<number | string> } =>
  spawnOwned(BIN, args, { env: { ...process.env, ...env } });

/**
 * Starts the server from a config file on 127.0.0.1 and waits for `/status`: on `server.port`
 * when the config names one (a caller that must know it beforehand, e.g. for `external_url`),
 * else on a free port. It also waits for the process to say where it listens (it says so at any
 * logging level but `silent`, where only `/status` is waited for): a free port can be taken by
 * another test's server between `freePort` and the start, and that server's `/status` must not
 * pass for this one's. The admin listener gets a free port too unless `server.admin_port` is
 * given (its default, 6060, would be every test server's at once); `adminUrl` is where it is.
 * A process that exits first fails the start at once; one that neither answers nor exits, after
 * `STARTUP_TIMEOUT_MS` (60 s: a loaded machine can take many seconds to start Node.js). The error
 * then holds all the process printed, its CPU time and the load.
 */
export const startServerProcess = async (config: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<ServerProcess> => {
  const given = (config.server as { port?: unknown } | undefined)?.port;
  const port = typeof given === 'number' ? given : await freePort();
  const givenAdmin = (config.server as { admin_port?: unknown } | undefined)?.admin_port;
  const adminPort = typeof givenAdmin === 'number' ? givenAdmin : await freePort();
  const server = { host: '127.0.0.1', port, admin_port: adminPort, ...(config.server as Record<string, unknown> | undefined) };
  const dir = mkdtempSync(join(tmpdir(), 'openbid-proc-'));
  const removeDir = registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ ...config, server }));
  const run = runCli(['--config', file], env);
  // The config file is the process's alone: it goes when the process does.
  void run.exited.then(removeDir);
  const baseUrl = `http://127.0.0.1:${port}`;
  const level = env.OPENBID_LOGGING__LEVEL ?? (config.logging as { level?: unknown } | undefined)?.level;
  const announces = level !== 'silent';
  await awaitReady(
    run,
    `openbid on ${baseUrl}`,
    async () => (!announces || run.output().includes(' listening on ')) && (await fetch(`${baseUrl}/status`)).status === 204,
    STARTUP_TIMEOUT_MS,
  );
  const adminUrl = adminPort === 0 ? undefined : `http://127.0.0.1:${adminPort}`;
  return { port, baseUrl, adminUrl, proc: run.proc, output: run.output, exited: run.exited };
};
