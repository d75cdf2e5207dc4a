import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { after } from 'node:test';
import { waitFor } from './ports.js';
import { cpuReport, procStat, waitGoneSync } from './proc.js';
import { forgetGroup, watchGroup } from './watchdog.js';

/*
 * Every process a test starts (openbid, redis-server, postgres, a bidder in its own process)
 * goes through `spawnOwned`, so that it ends when the test file's process ends, however that
 * ends — and so that a test that is cancelled, whose `finally` never runs, cannot keep it.
 * Each child leads a process group of its own, so that its whole tree (a cluster primary's
 * workers, Postgres's backends) is ended with it.
 *
 * - Signals: SIGINT, SIGTERM and SIGHUP (what `node --test` sends a test file when it is
 *   interrupted or a file overruns its timeout, on Node 20) end every child's group before this
 *   process dies of the signal. Without a handler Node dies at once and runs no 'exit' handler.
 * - Exit: the same on 'exit'.
 * - SIGKILL, where no handler runs: a watchdog process (watchdog.ts) that sees this process's
 *   end as EOF ends every group still registered; and on Linux each child is also started
 *   through util-linux's `setpriv --pdeathsig` (it sets PR_SET_PDEATHSIG, then execs the
 *   command: same pid), so the kernel signals it the moment this process dies.
 * - End of the file: a root `after` hook (under `node --test`) ends what no test stopped — a
 *   test that timed out is cancelled without its `finally` ever running, and a child's pipes
 *   would keep the file's process alive forever (Node 24 has no file timeout to end it).
 * - A child that exits takes its group with it: what is left there (workers whose primary was
 *   killed) is killed.
 *
 * Servers must run in the foreground as children (no daemonizing: `pg_ctl start` detaches
 * Postgres from us, so postgres.ts runs `postgres` itself).
 */

/** The signal that ends a child when this process ends first. */
export type EndSignal = 'SIGKILL' | 'SIGQUIT' | 'SIGTERM';

export interface OwnedProcess {
  readonly proc: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far, as it came. */
  output(): string;
  /** Resolves with the exit code, or the signal's name, once the process has exited. */
  readonly exited: Promise<number | string>;
}

export interface OwnedSpawnOptions {
  /** The whole environment; default this process's. */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly uid?: number;
  readonly gid?: number;
  /** As `spawn`'s: SIGTERM after this many ms. */
  readonly timeout?: number;
  /**
   * How the child is ended when this process ends first: SIGKILL to its group (default; works
   * on a stopped process too), or a signal the program takes as "stop now, cleaning up"
   * (Postgres: SIGQUIT, its immediate shutdown), waited for up to 5 s, then SIGKILL to its group.
   */
  readonly endSignal?: EndSignal;
  /**
   * Whether the child's exit ends what is left in its group (default true: workers whose primary
   * was killed). False for a test that watches how the rest of the group ends by itself.
   */
  readonly endGroupOnExit?: boolean;
}

interface Owned {
  readonly proc: ChildProcess;
  readonly endSignal: EndSignal;
  readonly label: string;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const GRACEFUL_END_MS = 5_000;
const LEFTOVER_EXIT_MS = 10_000;

const owned = new Map<ChildProcess, Owned>();
const cleanups = new Set<() => void>();
let hooked = false;
let launcher: string | null | undefined;

/** `setpriv` when it can set a parent-death signal (Linux, util-linux 2.33+); null elsewhere. Probed once. */
const deathSignalLauncher = (): string | null => {
  launcher ??= spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0 ? 'setpriv' : null;
  return launcher;
};

const signal = (pid: number | undefined, sig: NodeJS.Signals): void => {
  if (pid === undefined) return;
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
};

const runCleanups = (): void => {
  for (const cleanup of [...cleanups]) cleanup();
};

/**
 * Ends every owned child now, synchronously (usable in 'exit' and signal handlers): SIGKILL to
 * its group, or its own end signal, waited for, then SIGKILL to its group. Then runs the cleanups.
 */
const endAllNow = (): void => {
  const all = [...owned.values()];
  owned.clear();
  const graceful: number[] = [];
  for (const { proc, endSignal } of all) {
    if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) continue;
    if (endSignal === 'SIGKILL') {
      signal(-proc.pid, 'SIGKILL');
      continue;
    }
    signal(proc.pid, 'SIGCONT');
    signal(proc.pid, endSignal);
    graceful.push(proc.pid);
  }
  if (graceful.length > 0) waitGoneSync(graceful, GRACEFUL_END_MS);
  for (const pid of graceful) signal(-pid, 'SIGKILL');
  runCleanups();
};

const onSignal = (sig: NodeJS.Signals): void => {
  endAllNow();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  // Die of the signal, as without this handler, unless someone else handles it.
  if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
  else process.exit(128 + constants.signals[sig]);
};

const hookProcess = (): void => {
  if (hooked) return;
  hooked = true;
  process.on('exit', endAllNow);
  for (const s of SIGNALS) process.on(s, onSignal);
};

/** Ends what no test stopped (a cancelled test's processes), saying so, and waits for their exit. */
const endLeftovers = async (): Promise<void> => {
  const left = [...owned.values()].filter(({ proc }) => proc.exitCode === null && proc.signalCode === null);
  if (left.length > 0) {
    process.stderr.write(`test support: ending ${left.length} process(es) no test stopped (a cancelled or failed test?): ${left.map((o) => o.label).join(', ')}\n`);
  }
  const exits = left.map(({ proc }) => new Promise((resolve) => proc.once('exit', resolve)));
  endAllNow();
  await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, LEFTOVER_EXIT_MS).unref())]);
};

// Only under `node --test` (which sets NODE_TEST_CONTEXT in each test file's process): a script
// that imports the test support (bench/) must not start a test harness.
if (process.env.NODE_TEST_CONTEXT !== undefined) after(endLeftovers);

/**
 * Starts `command args` with stdin closed and stdout and stderr collected, as a child that is
 * ended when this process ends (by exit, a signal, or SIGKILL where Linux's parent-death signal
 * is available) and at the end of the test file if no test stopped it. The caller still stops
 * it in the normal course of its test.
 */
export const spawnOwned = (command: string, args: readonly string[], options: OwnedSpawnOptions = {}): OwnedProcess => {
  hookProcess();
  const endSignal = options.endSignal ?? 'SIGKILL';
  const via = deathSignalLauncher();
  const [file, argv] = via === null ? [command, [...args]] : [via, ['--pdeathsig', endSignal.slice(3), '--', command, ...args]];
  const proc = spawn(file, argv, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    uid: options.uid,
    gid: options.gid,
    timeout: options.timeout,
    // A group of its own: its tree can be ended as one, and a Ctrl-C to the terminal does not
    // reach it before this process has decided how to end it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  owned.set(proc, { proc, endSignal, label: `${command.split('/').at(-1) ?? command} (pid ${proc.pid ?? '?'})` });
  if (proc.pid !== undefined) watchGroup(proc.pid, endSignal);
  const exited = new Promise<number | string>((resolve) => {
    proc.on('exit', (code, sig) => {
      owned.delete(proc);
      if (proc.pid !== undefined && options.endGroupOnExit !== false) {
        // Whatever is left in its group (workers whose primary was killed) goes with it.
        signal(-proc.pid, 'SIGKILL');
        forgetGroup(proc.pid);
      }
      resolve(code ?? sig ?? -1);
    });
    // A spawn that failed (no such file, as it is when no launcher is in between) emits no 'exit'.
    proc.on('error', (err: NodeJS.ErrnoException) => {
      out += `${err.message}\n`;
      if (proc.pid === undefined) {
        owned.delete(proc);
        resolve(err.code ?? 'error');
      }
    });
  });
  return { proc, output: () => out, exited };
};

/**
 * Registers `cleanup` (e.g. removing a temp dir; synchronous, must not throw) to run when this
 * process ends or the test file's leftovers are ended. Returns a function that runs it now, once,
 * and forgets it: the normal course of a test calls that.
 */
export const registerCleanup = (cleanup: () => void): (() => void) => {
  hookProcess();
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    cleanups.delete(once);
    cleanup();
  };
  cleanups.add(once);
  return once;
};

/**
 * Sends `sig` (SIGCONT first: a stopped process must see it; SIGKILL goes to its whole group)
 * and waits for the exit; SIGKILL to the group after `timeoutMs`.
 */
export const stopOwned = async (child: OwnedProcess, sig: NodeJS.Signals = 'SIGTERM', timeoutMs = 10_000): Promise<number | string> => {
  const { proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return child.exited;
  const group = proc.pid === undefined ? undefined : -proc.pid;
  signal(proc.pid, 'SIGCONT');
  signal(sig === 'SIGKILL' ? group : proc.pid, sig);
  const timer = setTimeout(() => signal(group, 'SIGKILL'), timeoutMs);
  try {
    return await child.exited;
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Waits until `ready` resolves true, failing at once if the process exits first and after
 * `timeoutMs` (times `OPENBID_TEST_TIME_FACTOR`, as `waitFor`) if it does neither. A failure ends the process and throws an error that says what
 * was waited for, how long, how the process ended, the CPU time it had and the machine's load
 * (a process starved of CPU is told from a stuck one), and all it printed.
 */
export const awaitReady = async (child: OwnedProcess, what: string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
  const started = Date.now();
  const readyOrTimeout = waitFor(what, ready, timeoutMs);
  const exitedFirst = child.exited.then((code) => Promise.reject(new Error(`${what}: the process exited (${code}) before it was ready`)));
  // Whichever loses the race settles later with nobody waiting for it.
  readyOrTimeout.catch(() => undefined);
  exitedFirst.catch(() => undefined);
  try {
    await Promise.race([readyOrTimeout, exitedFirst]);
  } catch (err) {
    throw await startFailure(child, (err as Error).message, Date.now() - started);
  }
};

/** Ends a process that failed to start (after reading its CPU time) and describes the failure with all its output. */
const startFailure = async (child: OwnedProcess, reason: string, elapsedMs: number): Promise<Error> => {
  const { proc } = child;
  const cpu = cpuReport(procStat(proc.pid ?? -1) === undefined ? undefined : proc.pid);
  const ended = await stopOwned(child, 'SIGKILL', 5_000);
  const output = child.output();
  const printed = output === '' ? '(nothing: the process wrote no byte to stdout or stderr)' : output;
  return new Error(`${reason}\npid ${proc.pid ?? '?'}: ${proc.spawnargs.join(' ')}\nended: ${ended}, ${elapsedMs} ms after the wait began; ${cpu}\n--- output (stdout and stderr) ---\n${printed}`);
};
