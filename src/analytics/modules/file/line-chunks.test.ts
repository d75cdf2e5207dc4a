import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHUNK_BYTES, LineChunks } from './line-chunks.js';
import type { TakenLines } from './line-chunks.js';

const text = (taken: TakenLines): string => Buffer.concat(taken.chunks).toString('utf8');

describe('LineChunks', () => {
  it('hands over every line, in order, each ending in a newline, and starts afresh', () => {
    const chunks = new LineChunks(1 << 20);
    for (const line of ['{"a":1}', '', 'é, 中, 🎉', 'last']) assert.equal(chunks.push(line), true);
    const taken = chunks.take();
    assert.equal(text(taken), '{"a":1}\n\né, 中, 🎉\nlast\n');
    assert.equal(taken.lines, 4);
    assert.equal(taken.bytes, Buffer.byteLength(text(taken)));
    assert.equal(chunks.waitingBytes, 0);
    assert.deepEqual(chunks.take(), { chunks: [], lines: 0, bytes: 0 });
  });

  it('spreads lines over chunks without splitting one, and gives a long line a chunk of its own', () => {
    const chunks = new LineChunks(16 << 20);
    const lines = Array.from({ length: 3000 }, (_, i) => `${i}:${'ü'.repeat(i % 97)}`);
    const long = 'x'.repeat(CHUNK_BYTES * 2);
    lines.splice(1500, 0, long);
    for (const line of lines) chunks.push(line);
    const taken = chunks.take();
    assert.ok(taken.chunks.length > 3, `${taken.chunks.length} chunks`);
    for (const chunk of taken.chunks) {
      assert.ok(chunk.length <= CHUNK_BYTES || chunk.length === long.length + 1, `chunk of ${chunk.length} bytes`);
      assert.equal(chunk[chunk.length - 1], 0x0a, 'every chunk ends at the end of a line');
    }
    assert.deepEqual(text(taken).split('\n').slice(0, -1), lines);
    assert.equal(taken.lines, lines.length);
  });

  it('refuses a line that would take the waiting bytes past the limit, counting UTF-8 bytes exactly', () => {
    const line = 'ab€'; // 5 bytes, 6 with its newline
    const chunks = new LineChunks(12);
    assert.equal(chunks.push(line), true);
    assert.equal(chunks.push(line), true, 'exactly at the limit is taken');
    assert.equal(chunks.push(''), false, 'one byte more is refused');
    assert.equal(chunks.waitingBytes, 12);
    assert.equal(text(chunks.take()), 'ab€\nab€\n');
    assert.equal(chunks.push(line), true, 'room again once taken');
  });

  it('never changes bytes it has handed over', () => {
    const chunks = new LineChunks(1 << 20);
    chunks.push('first');
    const taken = chunks.take();
    const before = text(taken);
    for (let i = 0; i < 100; i++) chunks.push(`later ${i}`);
    assert.equal(text(taken), before);
    assert.equal(text(chunks.take()).split('\n').length, 101);
  });
});
