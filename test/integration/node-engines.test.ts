import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// The README promises the Node.js versions in package.json's engines.node; `npm ci` warns
// (EBADENGINE) when an installed package refuses one of them, and such a package may use an API
// those versions lack. semver is already installed (fastify depends on it) and has no types here.
const require = createRequire(import.meta.url);
const semver = require('semver') as {
  subset(sub: string, dom: string): boolean;
  validRange(range: string): string | null;
};

const root = new URL('../..', import.meta.url).pathname;
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

describe('node engines', () => {
  const promised = (readJson(join(root, 'package.json')) as Manifest).engines?.node;

  it('package.json promises a valid range of Node.js versions', () => {
    assert.ok(promised !== undefined && semver.validRange(promised) !== null, `engines.node ${promised}`);
  });

  it('every installed package accepts every Node.js version package.json promises', () => {
    const lock = readJson(join(root, 'package-lock.json')) as { packages: Record<string, unknown> };
    const refusing: string[] = [];
    let checked = 0;
    for (const path of Object.keys(lock.packages)) {
      // '' is the project itself; optional packages for other platforms are in the lockfile only.
      const manifestPath = join(root, path, 'package.json');
      if (path === '' || !existsSync(manifestPath)) continue;
      checked++;
      const manifest = readJson(manifestPath) as Manifest;
      const range = manifest.engines?.node;
      if (range === undefined) continue;
      // An unreadable range counts as refusing: it cannot be shown to accept the promise.
      const accepts = semver.validRange(range) !== null && semver.subset(promised!, range);
      if (!accepts) refusing.push(`${manifest.name}@${manifest.version} (${path}) requires node ${range}`);
    }
    assert.ok(checked > 100, `only ${checked} installed packages found: run npm ci first`);
    assert.deepEqual(refusing, [], `package.json promises node ${promised}`);
  });
});
