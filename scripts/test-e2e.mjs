#!/usr/bin/env node
// The end-to-end browser suite (test/e2e/*.e2e.ts): real Prebid.js, the Prebid Universal Creative
// and AMP-style RTC calls in headless Chromium against the real bin/openbid. Installs Debian's
// chromium (and openssl, for the throw-away TLS certificate) with apt-get when missing (needs root
// or sudo, as on CI); no browser is downloaded. Builds dist/ (bin/openbid runs it), then runs the
// suite. Not part of `npm test`. Extra arguments go to `node --test`; plain .ts paths pick files.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildDist, ensureDebianPackages, root, runTests } from './test-lib.mjs';

const chromium = process.env.OPENBID_E2E_CHROMIUM ?? '/usr/bin/chromium';

ensureDebianPackages(
  [
    { command: 'chromium', pkg: 'chromium', present: () => existsSync(chromium) },
    { command: 'openssl', pkg: 'openssl' },
  ],
  'the e2e suite',
);
// Debian's chromium follows Chrome's releases, playwright-core is pinned: say which ran.
console.log(spawnSync(chromium, ['--version'], { encoding: 'utf8' }).stdout.trim());
buildDist();

const e2eFiles = () =>
  readdirSync(join(root, 'test/e2e'))
    .filter((f) => f.endsWith('.e2e.ts'))
    .map((f) => relative(root, join(root, 'test/e2e', f)))
    .sort();

// One file at a time: two browsers at once are slower than one after the other on two cores.
runTests(process.argv.slice(2), e2eFiles, { concurrency: 1, timeoutMs: 90_000 });
