// What the test scripts share (scripts/test.mjs, scripts/test-e2e.mjs): installing missing Debian
// packages, building dist/ (the process tests run the real bin/openbid), running node --test.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';

export const root = new URL('..', import.meta.url).pathname;

/** Whether a command is on PATH. */
export const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/**
 * Installs with apt-get (through sudo unless root) the packages whose command is missing:
 * `wanted` lists `{command, pkg, present?}`. Exits the process when it cannot.
 */
export const ensureDebianPackages = (wanted, neededBy) => {
  const missing = wanted.filter(({ command, present }) => !(present ? present() : has(command)));
  if (missing.length === 0) return;
  const packages = missing.map((m) => m.pkg);
  if (!has('apt-get')) {
    console.error(`missing ${missing.map((m) => m.command).join(', ')} and no apt-get to install ${packages.join(' ')}`);
    process.exit(1);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  console.log(`installing ${packages.join(' ')} with apt-get (needed by ${neededBy})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', ...packages]]) {
    const cmd = [...sudo, ...args];
    const run = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`'${args.join(' ')}' failed; install ${packages.join(' ')} by hand and run the tests again`);
      process.exit(1);
    }
  }
};

/** Compiles dist/; exits the process when the build fails. */
export const buildDist = () => {
  // What `npm run build` does: compile, then write dist/build-info.json (the revision /version answers).
  for (const step of [[join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], [join(root, 'scripts/build-info.mjs')]]) {
    const build = spawnSync(process.execPath, step, { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
};

/**
 * `[file, args]` that run `command args` so that it gets SIGTERM if this process dies first, even
 * by SIGKILL (Linux's parent-death signal, set by util-linux's `setpriv`, which then execs the
 * command); the command as it is where `setpriv` cannot.
 */
const dyingWithUs = (command, args) =>
  spawnSync('setpriv', ['--pdeathsig', 'TERM', '--', 'true'], { stdio: 'ignore' }).status === 0
    ? ['setpriv', ['--pdeathsig', 'TERM', '--', command, ...args]]
    : [command, args];

/**
 * `OPENBID_TEST_TIME_FACTOR` (a positive number, default 1) multiplies the test timeouts, as it
 * does the test support's waits (test/support/time-bounds.ts).
 */
const timeFactor = () => {
  const given = Number(process.env.OPENBID_TEST_TIME_FACTOR ?? '1');
  return Number.isFinite(given) && given > 0 ? given : 1;
};

/**
 * The `--test-timeout` to give: Node 24 applies it to each test, Node 20 and 22 to each test
 * file as a whole (its process is killed at the bound), so there it is the file's bound.
 */
const testTimeout = ({ timeoutMs, fileTimeoutMs = timeoutMs }) => {
  const perTest = Number(process.versions.node.split('.')[0]) >= 24;
  return Math.round((perTest ? timeoutMs : fileTimeoutMs) * timeFactor());
};

/**
 * Runs `node --test` on the files given in `argv` (plain `.ts` paths), else on `defaultFiles()`;
 * other arguments go to `node --test`. Exits with its status. `timeoutMs` bounds each test
 * (Node 24+), `fileTimeoutMs` each file where Node can only bound files (default `timeoutMs`).
 *
 * The runner is a child of this script, and what stops this script stops it: SIGINT, SIGTERM and
 * SIGHUP are passed on to it (it then ends each test file's process, and each of those ends the
 * processes its tests started: test/support/child-processes.ts), it gets SIGTERM if this script
 * dies of anything else, and also if this script's parent dies (npm, or the shell npm ran it in).
 * This script exits once the runner has, with its status (or dies of the signal that ended it).
 */
export const runTests = (argv, defaultFiles, { concurrency, ...timeouts }) => {
  const selected = argv.filter((a) => a.endsWith('.ts'));
  const passThrough = argv.filter((a) => !a.endsWith('.ts'));
  const files = selected.length > 0 ? selected : defaultFiles();
  const [file, args] = dyingWithUs(process.execPath, [
    '--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, `--test-timeout=${testTimeout(timeouts)}`, ...passThrough, ...files,
  ]);
  const runner = spawn(file, args, { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'test' } });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const passOn = (signal) => runner.kill(signal);
  for (const signal of signals) process.on(signal, passOn);
  // npm passes SIGTERM to the shell it runs a script in, which dies of it without passing it on,
  // and npm itself may be killed: either way this script's parent changes, and the runner is
  // stopped as on SIGTERM. (The parent-death signal works only for a parent that started us.)
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphaned);
    passOn('SIGTERM');
  }, 500);
  orphaned.unref();
  runner.on('error', (err) => {
    console.error(`could not start the test runner: ${err.message}`);
    process.exit(1);
  });
  runner.on('exit', (code, signal) => {
    for (const s of signals) process.removeListener(s, passOn);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
};
