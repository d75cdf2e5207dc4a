import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goKeyCompare } from './go-text.js';

describe('goKeyCompare', () => {
  it('orders keys by their UTF-8 bytes, as Go writes a map', () => {
    // U+FF21 (fullwidth A) sorts before U+1F600 in UTF-8, after it in UTF-16 units.
    const keys = ['\u{1F600}', '\uFF21', 'b', 'a', 'ab', ''];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual([...keys].sort(goKeyCompare), byBytes);
    assert.deepEqual(byBytes, ['', 'a', 'ab', 'b', '\uFF21', '\u{1F600}']);
  });
});
