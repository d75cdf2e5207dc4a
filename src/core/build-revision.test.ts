import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { readBuildRevision } from './build-revision.js';

const file = (text: string): URL => {
  const path = join(mkdtempSync(join(tmpdir(), 'openbid-build-info-')), 'build-info.json');
  writeFileSync(path, text);
  return pathToFileURL(path);
};

describe('readBuildRevision', () => {
  it('reads the revision the build wrote', () => assert.equal(readBuildRevision(file('{"revision": "2881b6b0"}')), '2881b6b0'));
  it('is unknown without a file, with a broken one, or with no revision in it', () => {
    assert.equal(readBuildRevision(pathToFileURL('/nonexistent/build-info.json')), 'unknown');
    assert.equal(readBuildRevision(file('{"revision": ')), 'unknown');
    assert.equal(readBuildRevision(file('{"revision": 7}')), 'unknown');
    assert.equal(readBuildRevision(file('{"revision": ""}')), 'unknown');
  });
});
