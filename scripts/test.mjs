#!/usr/bin/env node
// The whole test suite: unit tests beside the code (src/**/*.test.ts) and integration tests
// (test/**/*.test.ts), which start real Redis and Postgres servers themselves. Installs
// redis-server and postgresql with apt-get first when they are missing (needs root, as on CI).
// Extra arguments are passed to `node --test` (e.g. `npm test -- --test-name-pattern=ttl`);
// plain paths select test files.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

// Debian keeps Postgres's server binaries off PATH, under /usr/lib/postgresql/<version>/bin.
const hasPostgresBin = (cmd) => existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', cmd)));

const ensureDebianPackages = (wanted) => {
  const missing = wanted.filter(({ command, present }) => !(present ? present() : has(command)));
  if (missing.length === 0) return;
  const packages = missing.map((m) => m.pkg);
  if (!has('apt-get')) {
    console.error(`missing ${missing.map((m) => m.command).join(', ')} and no apt-get to install ${packages.join(' ')}`);
    process.exit(1);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  console.log(`installing ${packages.join(' ')} with apt-get (needed by the integration tests)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', ...packages]]) {
    const run = spawnSync(sudo[0] ?? args[0], [...sudo.slice(1), ...(sudo.length ? args : args.slice(1))], { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`'${args.join(' ')}' failed; install ${packages.join(' ')} by hand and run the tests again`);
      process.exit(1);
    }
  }
};

const findTests = (dir) =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
    .sort();

ensureDebianPackages([
  { command: 'redis-server', pkg: 'redis-server' },
  { command: 'redis-cli', pkg: 'redis-tools' },
  { command: 'initdb', pkg: 'postgresql', present: () => hasPostgresBin('initdb') },
]);

// The process tests run the real bin/openbid, which needs the compiled dist/.
const build = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const args = process.argv.slice(2);
const selected = args.filter((a) => a.endsWith('.ts'));
const passThrough = args.filter((a) => !a.endsWith('.ts'));
const files = selected.length > 0 ? selected : [...findTests('src'), ...findTests('test')];

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=120000', ...passThrough, ...files],
  { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
