// What the test scripts share (scripts/test.mjs, scripts/test-e2e.mjs): installing missing Debian
// packages, building dist/ (the process tests run the real bin/openbid), running node --test.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

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
 * Runs `node --test` on the files given in `argv` (plain `.ts` paths), else on `defaultFiles()`;
 * other arguments go to `node --test`. Exits with its status.
 */
export const runTests = (argv, defaultFiles, { concurrency, timeoutMs }) => {
  const selected = argv.filter((a) => a.endsWith('.ts'));
  const passThrough = argv.filter((a) => !a.endsWith('.ts'));
  const files = selected.length > 0 ? selected : defaultFiles();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, `--test-timeout=${timeoutMs}`, ...passThrough, ...files],
    { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'test' } },
  );
  process.exit(result.status ?? 1);
};
