import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { OPENBID_VERSION } from './version.js';

it('OPENBID_VERSION is package.json version', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  assert.equal(OPENBID_VERSION, pkg.version);
});
