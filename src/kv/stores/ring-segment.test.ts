import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prng } from '../../../test/support/prng.js';
import { storedBuffer, storedText } from '../../../test/support/store-contract.js';
import { createRingSegment, entryBytes, hashKey } from './ring-segment.js';
import type { RingSegment } from './ring-segment.js';

const FAR = Number.MAX_SAFE_INTEGER;
const put = (seg: RingSegment, key: string, value: string | Buffer, hash = hashKey(key), expiresAt = FAR): boolean =>
  seg.set(key, Buffer.byteLength(key), hash, typeof value === 'string' ? Buffer.from(value) : value, 0, expiresAt, false);
const read = (seg: RingSegment, key: string, hash = hashKey(key), now = 0): string | undefined => storedText(seg.get(key, hash, now));

describe('ring segment', () => {
  it('reads back what was written, and nothing for unknown keys', () => {
    const seg = createRingSegment({ ringBytes: 4096, indexBytes: 512 });
    put(seg, 'a', 'first');
    put(seg, 'b', Buffer.from([0, 255, 1, 254]));
    assert.equal(read(seg, 'a'), 'first');
    assert.deepEqual([...(storedBuffer(seg.get('b', hashKey('b'), 0)) ?? [])], [0, 255, 1, 254]);
    assert.equal(read(seg, 'c'), undefined);
  });

  it('create-only: refuses a live key and answers false, takes the place of an expired one', () => {
    const seg = createRingSegment({ ringBytes: 4096, indexBytes: 512 });
    const h = hashKey('k');
    assert.equal(seg.set('k', 1, h, Buffer.from('first'), 0, 1000, true), true);
    assert.equal(seg.set('k', 1, h, Buffer.from('second'), 999, 5000, true), false);
    assert.equal(read(seg, 'k', h, 999), 'first');
    assert.equal(seg.set('k', 1, h, Buffer.from('third'), 1000, 5000, true), true);
    assert.equal(read(seg, 'k', h, 1000), 'third');
    assert.equal(seg.size(), 1);
  });

  it('replaces the value of a key written again', () => {
    const seg = createRingSegment({ ringBytes: 4096, indexBytes: 512 });
    put(seg, 'k', 'one');
    put(seg, 'k', 'two, longer');
    assert.equal(read(seg, 'k'), 'two, longer');
    assert.equal(seg.size(), 1);
  });

  it('returns a copy: neither the caller\'s buffer nor later writes change what was read or stored', () => {
    const seg = createRingSegment({ ringBytes: 256, indexBytes: 64 });
    const input = Buffer.from('original');
    put(seg, 'k', input);
    input.fill(0x21);
    const kept = seg.get('k', hashKey('k'), 0);
    assert.equal(storedText(kept), 'original');
    // Overwrite the whole ring many times: the value read earlier keeps its bytes.
    for (let i = 0; i < 50; i++) put(seg, `other-${i}`, 'y'.repeat(40));
    assert.equal(storedText(kept), 'original');
    assert.equal(read(seg, 'k'), undefined);
  });

  it('reads back every byte value, small and large values alike, after the ring is overwritten', () => {
    const seg = createRingSegment({ ringBytes: 1024 * 1024, indexBytes: 4096 });
    const every = Buffer.from(Array.from({ length: 256 }, (_, b) => b));
    const small = Array.from({ length: 40 }, (_, i) => Buffer.concat([every, Buffer.from(`#${i}`), every.subarray(0, i)]));
    small.forEach((v, i) => put(seg, `s${i}`, v));
    const large = Buffer.concat(Array.from({ length: 160 }, () => every));
    put(seg, 'large', large);
    const reads = small.map((_, i) => seg.get(`s${i}`, hashKey(`s${i}`), 0));
    const largeRead = seg.get('large', hashKey('large'), 0);
    for (let i = 0; i < 400; i++) put(seg, `overwrite-${i}`, 'z'.repeat(3000));
    reads.forEach((r, i) => assert.ok(storedBuffer(r)?.equals(small[i] as Buffer), `value ${i}`));
    assert.ok(storedBuffer(largeRead)?.equals(large));
    assert.equal(read(seg, 's0'), undefined, 'the ring was overwritten');
  });

  it('evicts the oldest entries first when the ring is full, across many wraps', () => {
    const ringBytes = 4096;
    const seg = createRingSegment({ ringBytes, indexBytes: 4096 });
    const size = entryBytes(6, 100);
    const fit = Math.floor(ringBytes / size);
    for (let i = 0; i < 1000; i++) {
      put(seg, `k${String(i).padStart(5, '0')}`, String(i).padEnd(100, '.'));
      // The newest entries are always there; older than a ring's worth never are.
      if (i >= fit) assert.equal(read(seg, `k${String(i - fit).padStart(5, '0')}`), undefined);
    }
    for (let i = 1000 - fit + 1; i < 1000; i++) assert.equal(read(seg, `k${String(i).padStart(5, '0')}`), String(i).padEnd(100, '.'));
  });

  it('starts an entry that does not fit before the end of the ring at its beginning', () => {
    const seg = createRingSegment({ ringBytes: 1024, indexBytes: 256 });
    put(seg, 'a', 'x'.repeat(600)); // 632 bytes at 0
    put(seg, 'b', 'y'.repeat(300)); // 328 bytes at 632; 64 left at the end
    put(seg, 'c', 'z'.repeat(100)); // 128 bytes: filler over the last 64, then at 0, evicting a
    assert.equal(read(seg, 'a'), undefined);
    assert.equal(read(seg, 'b'), 'y'.repeat(300));
    assert.equal(read(seg, 'c'), 'z'.repeat(100));
  });

  it('refuses an entry larger than the ring without touching what is stored', () => {
    const seg = createRingSegment({ ringBytes: 512, indexBytes: 64 });
    put(seg, 'k', 'kept');
    assert.throws(() => put(seg, 'k', 'x'.repeat(600)), RangeError);
    assert.equal(read(seg, 'k'), 'kept');
  });

  it('holds at most maxEntries, evicting the oldest to make index room', () => {
    const seg = createRingSegment({ ringBytes: 64 * 1024, indexBytes: 64 });
    assert.equal(seg.maxEntries, 4);
    for (let i = 0; i < 10; i++) put(seg, `k${i}`, `v${i}`);
    assert.equal(seg.size(), 4);
    assert.deepEqual(
      Array.from({ length: 10 }, (_, i) => read(seg, `k${i}`)),
      [undefined, undefined, undefined, undefined, undefined, undefined, 'v6', 'v7', 'v8', 'v9'],
    );
  });

  it('keeps keys of one hash apart, and finds the rest after deleting one of them', () => {
    const seg = createRingSegment({ ringBytes: 64 * 1024, indexBytes: 4096 });
    const keys = Array.from({ length: 20 }, (_, i) => `same-hash-${i}`);
    for (const k of keys) put(seg, k, `value of ${k}`, 7);
    for (const k of keys) assert.equal(read(seg, k, 7), `value of ${k}`);
    for (const k of keys.filter((_, i) => i % 3 === 0)) seg.delete(k, 7);
    keys.forEach((k, i) => assert.equal(read(seg, k, 7), i % 3 === 0 ? undefined : `value of ${k}`));
    assert.equal(seg.size(), 13);
  });

  it('finds keys whose probe runs wrap past the end of the index', () => {
    const seg = createRingSegment({ ringBytes: 64 * 1024, indexBytes: 64 * 8 });
    // Hashes whose home is the last slots of a 64-slot index: their runs continue at slot 0.
    const hashes = [63, 63, 62, 63, 0, 1];
    hashes.forEach((h, i) => put(seg, `w${i}`, `v${i}`, h));
    seg.delete('w1', 63);
    hashes.forEach((h, i) => assert.equal(read(seg, `w${i}`, h), i === 1 ? undefined : `v${i}`));
    seg.delete('w0', 63);
    seg.delete('w4', 0);
    hashes.forEach((h, i) => assert.equal(read(seg, `w${i}`, h), [0, 1, 4].includes(i) ? undefined : `v${i}`));
  });

  it('tells a non-ASCII key from another whose characters spell its UTF-8 bytes', () => {
    const seg = createRingSegment({ ringBytes: 4096, indexBytes: 512 });
    const key = 'é'; // UTF-8 C3 A9
    const lookalike = '\u00c3\u00a9'; // two characters, codes C3 A9
    put(seg, key, 'accent', 1);
    assert.equal(read(seg, lookalike, 1), undefined);
    put(seg, lookalike, 'mojibake', 1);
    assert.equal(read(seg, key, 1), 'accent');
    assert.equal(read(seg, lookalike, 1), 'mojibake');
    put(seg, '😀-key', 'emoji');
    assert.equal(read(seg, '😀-key'), 'emoji');
  });

  it('expires entries at their deadline and forgets them when read', () => {
    const seg = createRingSegment({ ringBytes: 4096, indexBytes: 512 });
    put(seg, 'k', 'v', hashKey('k'), 1000);
    assert.equal(read(seg, 'k', hashKey('k'), 999), 'v');
    assert.equal(read(seg, 'k', hashKey('k'), 1000), undefined);
    assert.equal(seg.size(), 0);
  });

  it('never answers a key with bytes other than its last write, under random writes, reads and deletes', () => {
    const random = prng(20261122);
    const seg = createRingSegment({ ringBytes: 32 * 1024, indexBytes: 1024 });
    const last = new Map<string, string>();
    let found = 0;
    for (let step = 0; step < 20_000; step++) {
      const key = `key-${Math.floor(random() * 100)}${random() < 0.1 ? 'ü' : ''}`;
      const op = random();
      if (op < 0.5) {
        const value = `${key}@${step}:`.padEnd(Math.floor(random() * 700), '#');
        // A narrow hash space forces collisions and long probe runs.
        put(seg, key, value, hashKey(key) & 0x3f);
        last.set(key, value);
      } else if (op < 0.9) {
        const got = read(seg, key, hashKey(key) & 0x3f);
        if (got !== undefined) {
          assert.equal(got, last.get(key), `step ${step}: ${key}`);
          found++;
        }
      } else {
        seg.delete(key, hashKey(key) & 0x3f);
        last.delete(key);
      }
      assert.ok(seg.size() <= seg.maxEntries);
    }
    // The check above is meaningful only if reads often hit.
    assert.ok(found > 1000, `only ${found} reads found a value`);
  });
});
