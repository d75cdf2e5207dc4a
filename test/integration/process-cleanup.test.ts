import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FixtureReport } from '../fixtures/processes/hanging-file.js';
import { spawnOwned, stopOwned } from '../support/child-processes.js';
import type { OwnedProcess } from '../support/child-processes.js';
import { waitFor } from '../support/ports.js';
import { isGone } from '../support/proc.js';
import { STARTUP_TIMEOUT_MS } from '../support/time-bounds.js';

/*
 * Whatever ends a test run, the processes its tests started end with it: a run interrupted as
 * `npm test` is (SIGINT to its process group, SIGTERM to npm, the script or the runner), a test
 * file's process killed outright, a test cancelled at its timeout. Each case runs
 * test/fixtures/processes/hanging-file.ts under its own `node --test`: it starts Redis, Postgres
 * and openbid with two cluster workers, reports their pids, and hangs without stopping
 * any. Only the processes that fixture reports are checked (other test files' servers are
 * legitimately running meanwhile).
 */

const ROOT = new URL('../../', import.meta.url).pathname;
const FIXTURE = join(ROOT, 'test/fixtures/processes/hanging-file.ts');
/** How long, once the run is interrupted, everything it started may take to be gone. */
const GONE_WITHIN_MS = 15_000;
/** How long a run that failed to start may take to stop on SIGTERM before it is killed. */
const STOP_RUN_MS = 15_000;

interface Run {
  /** In a process group of its own, as every owned process (child-processes.ts), as a terminal's job is. */
  readonly child: OwnedProcess;
  readonly report: FixtureReport;
}

const killGroup = (pgid: number | undefined): void => {
  try {
    if (pgid !== undefined) process.kill(-pgid, 'SIGKILL');
  } catch {
    // no process left in it
  }
};

/** The environment of a nested run: not this file's node:test context (that would make the nested runner a test file). */
const nestedEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
};

const runnerArgs = (testTimeoutMs: number): string[] => ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-timeout=${testTimeoutMs}`, FIXTURE];

type How = 'runner' | 'script' | 'npm';

/**
 * The command of a run: `runner` is `node --test` itself; `script` is scripts/test-lib.mjs's
 * `runTests`, what `npm test` runs (a file in `dir` calls it); `npm` is that file as an npm
 * script (`npm run`), which npm runs in a shell (package.json's `test` replaces that shell with
 * `exec`; this is the harder case, without).
 */
const runCommand = (how: How, dir: string): [string, string[]] => {
  if (how === 'runner') return [process.execPath, runnerArgs(600_000)];
  const script = join(dir, 'run.mjs');
  writeFileSync(script, `import { runTests } from ${JSON.stringify(join(ROOT, 'scripts/test-lib.mjs'))};\nrunTests([${JSON.stringify(FIXTURE)}], () => [], { concurrency: 1, timeoutMs: 600_000 });\n`);
  if (how === 'script') return [process.execPath, [script]];
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cleanup-run', private: true, scripts: { t: `node ${script}` } }));
  return ['npm', ['run', '--silent', 't']];
};

/**
 * Starts the fixture as `how` says, leading a process group of its own (`spawnOwned`), as a
 * terminal's job does. Resolves once the fixture has reported what it started.
 */
const startRun = async (how: How, services: string[], fixtureEnv: Record<string, string>): Promise<Run> => {
  const dir = mkdtempSync(join(tmpdir(), 'openbid-cleanup-'));
  const reportFile = join(dir, 'report.json');
  const env = nestedEnv({ OPENBID_FIXTURE_SERVICES: services.join(','), OPENBID_FIXTURE_REPORT: reportFile, npm_config_update_notifier: 'false', ...fixtureEnv });
  const [command, args] = runCommand(how, dir);
  // The run's group outlives the run's first process here: what is left of it is what is checked.
  const child = spawnOwned(command, args, { env, cwd: how === 'npm' ? dir : ROOT, endSignal: 'SIGTERM', endGroupOnExit: false });
  try {
    await waitFor('the fixture to report what it started', async () => existsSync(reportFile) || child.proc.exitCode !== null, 3 * STARTUP_TIMEOUT_MS).catch(
      (err: Error) => assert.fail(`${err.message}; the run printed:\n${child.output()}`),
    );
    assert.ok(existsSync(reportFile), `the fixture run ended before it reported:\n${child.output()}`);
    return { child, report: JSON.parse(readFileSync(reportFile, 'utf8')) as FixtureReport };
  } catch (err) {
    // No run to check: end it as an interrupted run is ended, then whatever is left of its group.
    await stopOwned(child, 'SIGTERM', STOP_RUN_MS);
    killGroup(child.proc.pid);
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The fixture's processes still alive, as `pid command`. */
const survivors = (report: FixtureReport): string[] => report.processes.filter((p) => !isGone(p.pid, p.startTicks)).map((p) => `${p.pid} ${p.command}`);

/**
 * Asserts that every process the fixture started is gone within GONE_WITHIN_MS. (Their ports are
 * not checked: other test files' servers take freed ports at once on a busy machine.)
 */
const assertAllGone = async ({ report }: Run, what: string): Promise<void> => {
  const started = Date.now();
  await waitFor(`${what}: every process the fixture started to be gone`, async () => survivors(report).length === 0, GONE_WITHIN_MS).catch(() => undefined);
  assert.deepEqual(survivors(report), [], `${what}: still running ${Date.now() - started} ms later (of ${report.processes.length} started)`);
};

/**
 * Starts a run (`startRun`), hands it to `check`, and whatever the outcome leaves nothing of it
 * behind: the fixture's processes, its test file's process, and the run's whole process group
 * (a runner orphaned by its script included).
 */
const withRun = async (how: How, services: string[], fixtureEnv: Record<string, string>, check: (run: Run) => Promise<void>): Promise<void> => {
  const run = await startRun(how, services, fixtureEnv);
  try {
    await check(run);
  } finally {
    for (const p of run.report.processes) if (!isGone(p.pid, p.startTicks)) process.kill(p.pid, 'SIGKILL');
    if (!isGone(run.report.filePid)) process.kill(run.report.filePid, 'SIGKILL');
    killGroup(run.child.proc.pid);
    await stopOwned(run.child, 'SIGKILL', 5_000);
  }
};

/** A sanity check on the report itself, so that "all gone" means something. */
const assertStarted = (report: FixtureReport, services: string[]): void => {
  const commands = report.processes.map((p) => p.command).join('\n');
  if (services.includes('redis')) assert.match(commands, /redis-server/);
  if (services.includes('postgres')) assert.match(commands, /postgres/);
  // The primary and its two workers.
  if (services.includes('server')) assert.ok(report.processes.filter((p) => p.command.includes('dist/main.js')).length >= 3, commands);
};

describe('a test run leaves no process behind', () => {
  const everything = ['redis', 'postgres', 'server'];

  it('when the node --test runner gets SIGTERM', async () => {
    await withRun('runner', everything, {}, async (run) => {
      assertStarted(run.report, everything);
      run.child.proc.kill('SIGTERM');
      await assertAllGone(run, 'SIGTERM to the runner');
    });
  });

  it('when the process group of npm test gets SIGINT (Ctrl-C)', async () => {
    await withRun('script', everything, {}, async (run) => {
      assertStarted(run.report, everything);
      process.kill(-(run.child.proc.pid as number), 'SIGINT');
      await assertAllGone(run, 'SIGINT to the process group');
    });
  });

  it('when the test script alone gets SIGTERM (where npm sends it: package.json execs the script)', async () => {
    await withRun('script', ['redis', 'server'], {}, async (run) => {
      run.child.proc.kill('SIGTERM');
      await assertAllGone(run, 'SIGTERM to the script');
    });
  });

  it('when npm run gets SIGTERM (npm passes it to its shell alone, which dies of it)', async () => {
    await withRun('npm', ['redis', 'server'], {}, async (run) => {
      run.child.proc.kill('SIGTERM');
      await assertAllGone(run, 'SIGTERM to npm');
    });
  });

  it("when the test file's process is killed (SIGKILL)", async () => {
    await withRun('runner', ['redis', 'server'], {}, async (run) => {
      process.kill(run.report.filePid, 'SIGKILL');
      await assertAllGone(run, 'SIGKILL to the test file');
    });
  });

  it('when a test is cancelled at its timeout and its file ends', async () => {
    await withRun('runner', ['redis', 'server'], { OPENBID_FIXTURE_TEST_TIMEOUT_MS: '500' }, async (run) => {
      // Nothing interrupts this run: the file must end by itself once its one test is cancelled.
      await waitFor('the run to end by itself', async () => run.child.proc.exitCode !== null, GONE_WITHIN_MS).catch(() => undefined);
      assert.notEqual(run.child.proc.exitCode, null, `the run did not end ${GONE_WITHIN_MS} ms after its test was cancelled:\n${run.child.output()}`);
      assert.match(run.child.output(), /cancelled 1/);
      await assertAllGone(run, 'a cancelled test');
    });
  });
});
