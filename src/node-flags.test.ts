import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeFlags } from './node-flags.js';

describe('nodeFlags', () => {
  it('gives the server a 16 MiB young generation', () => {
    assert.deepEqual(nodeFlags(), ['--max-semi-space-size=64']);
    assert.deepEqual(nodeFlags(''), ['--max-semi-space-size=64']);
  });

  it("adds nothing when NODE_OPTIONS sets the young generation itself (the operator's choice wins)", () => {
    assert.deepEqual(nodeFlags('--max-semi-space-size=64'), []);
    assert.deepEqual(nodeFlags('--enable-source-maps --max-semi-space-size 8'), []);
    assert.deepEqual(nodeFlags('--max_semi_space_size=32'), []);
  });

  it('keeps its flag when NODE_OPTIONS holds other flags', () => {
    assert.deepEqual(nodeFlags('--enable-source-maps --max-old-space-size=4096'), ['--max-semi-space-size=64']);
  });
});
