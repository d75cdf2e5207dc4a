import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from './ports.js';

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

/** Runs `bin/openbid` with `args`, collecting output; does not wait for anything. */
export const runCli = (args: string[], env: Record<string, string> = {}): { proc: ChildProcess; output: () => string; exited: Promise<number | string> } => {
  const proc = spawn(BIN, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) => proc.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { proc, output: () => out, exited };
};

/**
 * Starts the server from a config file on 127.0.0.1 and waits for `/status`: on `server.port`
 * when the config names one (a caller that must know it beforehand, e.g. for `external_url`),
 * else on a free port. It also waits for the process to say where it listens (it says so at any
 * logging level but `silent`, where only `/status` is waited for): a free port can be taken by
 * another test's server between `freePort` and the start, and that server's `/status` must not
 * pass for this one's. The admin listener gets a free port too unless `server.admin_port` is
 * given (its default, 6060, would be every test server's at once); `adminUrl` is where it is.
 */
export const startServerProcess = async (config: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<ServerProcess> => {
  const given = (config.server as { port?: unknown } | undefined)?.port;
  const port = typeof given === 'number' ? given : await freePort();
  const givenAdmin = (config.server as { admin_port?: unknown } | undefined)?.admin_port;
  const adminPort = typeof givenAdmin === 'number' ? givenAdmin : await freePort();
  const server = { host: '127.0.0.1', port, admin_port: adminPort, ...(config.server as Record<string, unknown> | undefined) };
  const file = join(mkdtempSync(join(tmpdir(), 'openbid-proc-')), 'config.json');
  writeFileSync(file, JSON.stringify({ ...config, server }));
  const run = runCli(['--config', file], env);
  const baseUrl = `http://127.0.0.1:${port}`;
  const level = env.OPENBID_LOGGING__LEVEL ?? (config.logging as { level?: unknown } | undefined)?.level;
  const announces = level !== 'silent';
  try {
    const ready = waitFor(`openbid on ${baseUrl}`, async () => (!announces || run.output().includes(' listening on ')) && (await fetch(`${baseUrl}/status`)).status === 204, 15_000);
    // A process that exits (a configuration error, a port in use) fails the start at once, not after the wait.
    const exitedFirst = run.exited.then((code) => Promise.reject(new Error(`openbid exited (${code}) before it answered on ${baseUrl}`)));
    // Whichever loses the race settles later with nobody waiting for it.
    ready.catch(() => undefined);
    exitedFirst.catch(() => undefined);
    await Promise.race([ready, exitedFirst]);
  } catch (err) {
    run.proc.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n--- output ---\n${run.output()}`);
  }
  const adminUrl = adminPort === 0 ? undefined : `http://127.0.0.1:${adminPort}`;
  return { port, baseUrl, adminUrl, proc: run.proc, output: run.output, exited: run.exited };
};
