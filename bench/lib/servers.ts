import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFlags } from '../../src/node-flags.js';
import { freePort, waitFor } from '../../test/support/ports.js';

export interface BenchServer {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Resident set size and its peak, in MiB, read from /proc. */
  memory(): { rssMiB: number; peakMiB: number };
  stop(): Promise<void>;
}

const root = new URL('../..', import.meta.url).pathname;

/**
 * With two or more cores, servers run on the last core and the load generator on the first, so
 * each has a core of its own and runs do not drift with the scheduler. BENCH_PIN=0 turns it off.
 */
export const pinning = (): { server: string; load: string } | undefined => {
  const cores = availableParallelism();
  if (process.env.BENCH_PIN === '0' || cores < 2) return undefined;
  if (spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status !== 0) return undefined;
  return { server: String(cores - 1), load: '0' };
};

/** Pins every thread of a running process (node's helpers included) to the server core. */
const pinServer = (pid: number): void => {
  const pin = pinning();
  if (pin !== undefined) spawnSync('taskset', ['-a', '-cp', pin.server, String(pid)], { stdio: 'ignore' });
};

/**
 * The environment that preloads `alloc-probe.mjs` into a server, so `allocatedBytes` (proc-stats.ts)
 * can read how much it allocated; every node process started with it writes to `dir`.
 */
export const allocProbeEnv = (dir: string): Record<string, string> => ({
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${join(root, 'bench/lib/alloc-probe.mjs')}`.trim(),
  OPENBID_BENCH_ALLOC_DIR: dir,
});

const track = async (name: string, proc: ChildProcess, url: string, ready: () => Promise<boolean>, pin = true): Promise<BenchServer> => {
  let output = '';
  proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  try {
    await waitFor(`${name} at ${url}`, ready, 20_000);
  } catch (err) {
    proc.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${output}`);
  }
  if (pin) pinServer(proc.pid ?? 0);
  return {
    name,
    url,
    pid: proc.pid ?? 0,
    memory: () => {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
      return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
    },
    stop: async () => {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
};

/**
 * The bare node:http baseline, in its own process. With `turnBatched` it writes its answers as
 * openbid's lanes do, together at the end of each event-loop turn (README, "Performance").
 */
const startBareServer = async (bodyBytes: number, turnBatched = false): Promise<BenchServer> => {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), BODY_BYTES: String(bodyBytes), BARE_TURN_BATCH: turnBatched ? '1' : '0' };
  const proc = spawn(process.execPath, [join(root, 'bench/lib/bare-server.mjs')], { env });
  const url = `http://127.0.0.1:${port}`;
  return track(turnBatched ? 'node:http turn-batched' : 'node:http', proc, url, async () => (await fetch(url)).ok);
};

/** The minimal Fastify reference, in its own process: the ceiling of any Fastify application here. */
const startFastifyReference = async (bodyBytes: number): Promise<BenchServer> => {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(root, 'bench/lib/fastify-server.mjs')], { env: { ...process.env, PORT: String(port), BODY_BYTES: String(bodyBytes) } });
  const url = `http://127.0.0.1:${port}`;
  return track('fastify', proc, url, async () => (await fetch(url)).ok);
};

/**
 * The fan-out reference (`fanout-server.mjs`): a node:http server that only relays each request
 * to the bidders it names (`bidders`: name to URL) and picks a winner per imp, the floor under any
 * Node.js exchange. With `storedDir` it also answers GET /openrtb2/amp from those stored requests.
 * It gets openbid's young-generation flag, so the two differ in their code only.
 */
export const startFanoutServer = async (bidders: Record<string, string>, opts: { storedDir?: string; env?: Record<string, string> } = {}): Promise<BenchServer> => {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...opts.env,
    PORT: String(port),
    BIDDERS: Object.entries(bidders).map(([name, url]) => `${name}=${url}`).join(','),
    ...(opts.storedDir !== undefined ? { STORED_DIR: opts.storedDir } : {}),
  };
  const proc = spawn(process.execPath, [...nodeFlags(env.NODE_OPTIONS), join(root, 'bench/lib/fanout-server.mjs')], { env });
  const url = `http://127.0.0.1:${port}`;
  return track('fan-out', proc, url, async () => (await fetch(url, { method: 'POST', body: '{"id":"w","imp":[]}' })).ok);
};

/**
 * openbid from dist/ (built by `npm run bench`) with this config, pinned to the server core unless
 * `opts.pin` is false (with `server.workers` > 1 the workers need the machine's cores). `opts.env`
 * is added to its environment (e.g. `allocProbeEnv`); `opts.checkout` runs another checkout's build
 * (bench/ab.ts).
 */
export const startOpenbid = async (config: Record<string, unknown>, opts: { pin?: boolean; env?: Record<string, string>; checkout?: string } = {}): Promise<BenchServer> => {
  const port = await freePort();
  const file = join(mkdtempSync(join(tmpdir(), 'openbid-bench-')), 'config.json');
  // The admin listener on a free port of its own: its default (6060) may be taken, or another server's.
  const server = { host: '127.0.0.1', port, admin_port: await freePort(), ...(config.server as object | undefined) };
  writeFileSync(file, JSON.stringify({ logging: { level: 'warn' }, ...config, server }));
  // Through the launcher, as `npm start` runs it: the Node flags follow the configuration.
  const proc = spawn(join(opts.checkout ?? root, 'bin/openbid'), ['--config', file], { env: { ...process.env, ...opts.env } });
  const url = `http://127.0.0.1:${port}`;
  return track('openbid', proc, url, async () => (await fetch(`${url}/status`)).status === 204, opts.pin ?? true);
};

/** The servers every openbid figure is read against: bare node:http both ways and minimal Fastify. */
export interface References {
  readonly bare: BenchServer;
  readonly turnBatchedBare: BenchServer;
  readonly fastify: BenchServer;
  stop(): Promise<void>;
}

/** Starts the reference servers, answering GETs with a body of `bodyBytes`. */
export const startReferences = async (bodyBytes: number): Promise<References> => {
  const bare = await startBareServer(bodyBytes);
  const turnBatchedBare = await startBareServer(bodyBytes, true);
  const fastify = await startFastifyReference(bodyBytes);
  return {
    bare,
    turnBatchedBare,
    fastify,
    stop: async () => {
      await Promise.all([bare.stop(), turnBatchedBare.stop(), fastify.stop()]);
    },
  };
};

/** The same load against each reference: `load` gets a server's origin (`http://127.0.0.1:port`). */
export const referenceLoads = <S>(refs: References, load: (origin: string) => S): { bare: S; turnBatchedBare: S; fastify: S } => ({
  bare: load(refs.bare.url),
  turnBatchedBare: load(refs.turnBatchedBare.url),
  fastify: load(refs.fastify.url),
});
