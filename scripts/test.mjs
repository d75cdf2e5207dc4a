#!/usr/bin/env node
// The whole test suite: unit tests beside the code (src/**/*.test.ts) and integration tests
// (test/**/*.test.ts), which start real Redis and Postgres servers themselves. Installs
// redis-server and postgresql with apt-get first when they are missing (needs root, as on CI).
// Extra arguments are passed to `node --test` (e.g. `npm test -- --test-name-pattern=ttl`);
// plain paths select test files.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildDist, ensureDebianPackages, root, runTests } from './test-lib.mjs';

// Debian keeps Postgres's server binaries off PATH, under /usr/lib/postgresql/<version>/bin.
const hasPostgresBin = (cmd) => existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(join('/usr/lib/postgresql', v, 'bin', cmd)));

const findTests = (dir) =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
    .sort();

ensureDebianPackages(
  [
    { command: 'redis-server', pkg: 'redis-server' },
    { command: 'redis-cli', pkg: 'redis-tools' },
    { command: 'promtool', pkg: 'prometheus' },
    { command: 'initdb', pkg: 'postgresql', present: () => hasPostgresBin('initdb') },
  ],
  'the integration tests',
);

// The process tests run the real bin/openbid, which needs the compiled dist/.
buildDist();

// Node 20 and 22 bound a test file as a whole, not each test: a file of process tests on a loaded
// machine needs minutes (docs/testing.md).
runTests(process.argv.slice(2), () => [...findTests('src'), ...findTests('test')], { concurrency: 2, timeoutMs: 120_000, fileTimeoutMs: 600_000 });
