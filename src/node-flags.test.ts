import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeFlagsFor } from './node-flags.js';

describe('nodeFlagsFor', () => {
  it('gives a memory-store process a 4 MiB young generation and a Redis one 16 MiB', () => {
    assert.deepEqual(nodeFlagsFor('memory'), ['--max-semi-space-size=4']);
    assert.deepEqual(nodeFlagsFor('redis'), ['--max-semi-space-size=16']);
  });

  it("adds nothing when NODE_OPTIONS sets the young generation itself (the operator's choice wins)", () => {
    assert.deepEqual(nodeFlagsFor('redis', '--max-semi-space-size=64'), []);
    assert.deepEqual(nodeFlagsFor('memory', '--enable-source-maps --max-semi-space-size 8'), []);
    assert.deepEqual(nodeFlagsFor('redis', '--max_semi_space_size=32'), []);
  });

  it('keeps its flag when NODE_OPTIONS holds other flags', () => {
    assert.deepEqual(nodeFlagsFor('redis', '--enable-source-maps --max-old-space-size=4096'), ['--max-semi-space-size=16']);
    assert.deepEqual(nodeFlagsFor('memory', ''), ['--max-semi-space-size=4']);
  });
});
