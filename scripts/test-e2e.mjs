#!/usr/bin/env node
// The end-to-end browser suite (test/e2e/*.e2e.ts): real Prebid.js, the Prebid Universal Creative
// and AMP-style RTC calls in headless Chromium against the real bin/openbid. Installs Debian's
// chromium (and openssl, for the throw-away TLS certificate) with apt-get when missing (needs root
// or sudo, as on CI); no browser is downloaded. Builds dist/ (bin/openbid runs it), then runs the
// suite. Not part of `npm test`. Extra arguments go to `node --test`; plain .ts paths pick files.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const chromium = process.env.OPENBID_E2E_CHROMIUM ?? '/usr/bin/chromium';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

const missing = [
  ...(existsSync(chromium) ? [] : ['chromium']),
  ...(has('openssl') ? [] : ['openssl']),
];
if (missing.length > 0) {
  if (!has('apt-get')) {
    console.error(`missing ${missing.join(', ')} and no apt-get to install them (or set OPENBID_E2E_CHROMIUM)`);
    process.exit(1);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  console.log(`installing ${missing.join(' ')} with apt-get (needed by the e2e suite)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', ...missing]]) {
    const cmd = [...sudo, ...args];
    const run = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`'${args.join(' ')}' failed; install ${missing.join(' ')} by hand and run again`);
      process.exit(1);
    }
  }
}

const build = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const args = process.argv.slice(2);
const selected = args.filter((a) => a.endsWith('.ts'));
const passThrough = args.filter((a) => !a.endsWith('.ts'));
const files =
  selected.length > 0
    ? selected
    : readdirSync(join(root, 'test/e2e'))
        .filter((f) => f.endsWith('.e2e.ts'))
        .map((f) => relative(root, join(root, 'test/e2e', f)))
        .sort();

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', '--test-timeout=90000', ...passThrough, ...files],
  { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
