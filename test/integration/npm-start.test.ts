import assert from 'node:assert/strict';
import { registerCleanup, spawnOwned } from '../support/child-processes.js';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort, waitFor } from '../support/ports.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/** The drain time of the server under test: SIGTERM must stop it within this. */
const SHUTDOWN_TIMEOUT_MS = 5000;

/** Pids of the processes whose command line holds `marker` (a path unique to one test). */
const processesWith = (marker: string): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);

/** Whether something accepts connections on 127.0.0.1:`port`. */
const answers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * A package whose `start` is openbid's own start script as package.json has it, and whose `build`
 * does nothing (the test run has built dist/ already; building again here would rewrite it under
 * the other tests' feet). `bin` links to openbid's, which finds dist/ through the link.
 */
const packageRunningStartScript = (): { dir: string; start: string } => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const start = scripts.start ?? '';
  assert.match(start, /^npm run --silent build && /, 'the start script no longer builds first: update this test');
  const dir = mkdtempSync(join(tmpdir(), 'openbid-npm-start-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'openbid-start-script', private: true, scripts: { build: 'true', start } }));
  symlinkSync(join(ROOT, 'bin'), join(dir, 'bin'));
  return { dir, start };
};

interface NpmStart {
  readonly npm: ReturnType<typeof spawnOwned>['proc'];
  readonly port: number;
  readonly dir: string;
  readonly output: () => string;
  readonly exited: Promise<number | string>;
}

/** Runs openbid's start script through npm on a free port, and waits for `/status`. */
const startThroughNpm = async (): Promise<NpmStart> => {
  const { dir } = packageRunningStartScript();
  const port = await freePort();
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ server: { host: '127.0.0.1', port, shutdown_timeout_ms: SHUTDOWN_TIMEOUT_MS } }));
  // Its own process group (as every owned child): a terminal's Ctrl-C goes to a group, and whatever the run leaves
  // behind can be stopped at the end, whatever happens.
  const child = spawnOwned('npm', ['start', '--', '--config', config], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  const npm = child.proc;
  const output = (): string => child.output();
  const exited = child.exited;
  const run = { npm, port, dir, output, exited };
  // A test file cancelled before its finally: the group goes when this process does.
  registerCleanup(() => stopAll(run));
  try {
    await Promise.race([
      waitFor('the server behind npm start to answer /status', async () => (await fetch(`http://127.0.0.1:${port}/status`)).status === 204, 60_000),
      exited.then((code) => Promise.reject(new Error(`npm start exited (${code}) before the server answered`))),
    ]);
  } catch (err) {
    stopAll(run);
    throw new Error(`${(err as Error).message}\n--- output ---\n${output()}`, { cause: err });
  }
  return run;
};

/** Kills whatever the run left: its process group, and any process still naming its directory. */
const stopAll = (run: NpmStart): void => {
  try {
    process.kill(-(run.npm.pid ?? 0), 'SIGKILL');
  } catch {
    // the group is gone already
  }
  for (const pid of processesWith(run.dir)) process.kill(pid, 'SIGKILL');
};

/**
 * Signals the run (`send`), then requires the port to stop answering and every process of the
 * run to end within the drain time, npm to exit 0 with the server's clean shutdown, and no
 * process to be left whatever the outcome. Returns how long the stop took.
 */
const stopsWithin = async (run: NpmStart, send: () => void): Promise<number> => {
  try {
    assert.ok(processesWith(run.dir).length >= 2, 'expected npm and the server among the processes');
    const signalled = Date.now();
    send();
    await waitFor('the port to stop answering and every process to end', async () => !(await answers(run.port)) && processesWith(run.dir).length === 0, SHUTDOWN_TIMEOUT_MS);
    const stoppedMs = Date.now() - signalled;
    assert.equal(await run.exited, 0, "npm start did not exit 0 (the server's clean shutdown)");
    assert.equal(run.output().match(/shut down cleanly/g)?.length, 1, 'the server did not shut down cleanly, once');
    return stoppedMs;
  } catch (err) {
    throw new Error(`${(err as Error).message}\nstill running: ${processesWith(run.dir).join(', ') || 'none'}\n--- output ---\n${run.output()}`, { cause: err });
  } finally {
    stopAll(run);
  }
};

describe('npm start', () => {
  it('SIGTERM to npm start stops the server within the drain time and leaves no process', async (t) => {
    const run = await startThroughNpm();
    const ms = await stopsWithin(run, () => run.npm.kill('SIGTERM'));
    t.diagnostic(`stopped ${ms} ms after SIGTERM (bound ${SHUTDOWN_TIMEOUT_MS} ms)`);
  });

  it("Ctrl-C (SIGINT to npm's whole process group, so the server gets it twice) drains and stops the server within the drain time", async (t) => {
    const run = await startThroughNpm();
    const ms = await stopsWithin(run, () => process.kill(-(run.npm.pid ?? 0), 'SIGINT'));
    t.diagnostic(`stopped ${ms} ms after SIGINT (bound ${SHUTDOWN_TIMEOUT_MS} ms)`);
  });
});
