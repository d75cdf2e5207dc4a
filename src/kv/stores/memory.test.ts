import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, isAppError } from '../../core/app-error.js';
import { keyValueStoreContract, storedBuffer, storedText } from '../../../test/support/store-contract.js';
import { createMemoryStore } from './memory.js';

keyValueStoreContract('memory', async () => ({ store: createMemoryStore({ maxSizeBytes: 64 * 1024 * 1024 }), cleanup: async () => undefined }));

describe('memory store', () => {
  it('evicts the oldest entries to stay within max_size_bytes', async () => {
    const store = createMemoryStore({ maxSizeBytes: 100 * 1024 });
    const value = Buffer.alloc(1024, 'x');
    for (let i = 0; i < 500; i++) await store.putMany([{ key: `k${i}`, value, ttlSeconds: 60 }], { createOnly: true });
    // 500 KiB written into 100 KiB (of which 7/8 ring): the oldest are gone, the newest are there.
    assert.equal(await store.get('k0'), undefined);
    assert.ok(storedBuffer(await store.get('k499'))?.equals(value));
    let kept = 0;
    for (let i = 0; i < 500; i++) if ((await store.get(`k${i}`)) !== undefined) kept++;
    assert.ok(kept > 70 && kept < 90, `kept ${kept} entries of 1,056 bytes in 87.5 KiB of ring`);
  });

  it('refuses a value larger than the store, keeping what it holds', async () => {
    const store = createMemoryStore({ maxSizeBytes: 8 * 1024 });
    await store.putMany([{ key: 'small', value: Buffer.from('v'), ttlSeconds: 60 }], { createOnly: true });
    assert.throws(
      () => store.putMany([{ key: 'big', value: Buffer.alloc(8 * 1024), ttlSeconds: 60 }], { createOnly: true }),
      (err) => isAppError(err) && err.code === ErrorCode.BACKEND_FAILURE && /does not fit max_size_bytes 8192/.test(err.message),
    );
    assert.equal(await store.get('big'), undefined);
    assert.equal(storedText(await store.get('small')), 'v');
  });

  it('refuses a batch whose values would evict each other, writing none of it', async () => {
    const store = createMemoryStore({ maxSizeBytes: 10 * 1024 });
    const entries = ['a', 'b', 'c'].map((key) => ({ key, value: Buffer.alloc(2500, key), ttlSeconds: 60 }));
    assert.throws(() => store.putMany(entries, { createOnly: true }), (err) => isAppError(err) && err.code === ErrorCode.BACKEND_FAILURE);
    for (const key of ['a', 'b', 'c']) assert.equal(await store.get(key), undefined);
    // Two of them fit together, with room for a wrap.
    assert.deepEqual(await store.putMany(entries.slice(0, 2), { createOnly: true }), [true, true]);
    assert.ok(storedBuffer(await store.get('a'))?.equals(Buffer.alloc(2500, 'a')));
  });

  it('splits a large store into segments and finds every key in its own', async () => {
    const store = createMemoryStore({ maxSizeBytes: 64 * 1024, maxSegmentRingBytes: 8 * 1024 });
    const keys = Array.from({ length: 40 }, (_, i) => `segmented-${i}`);
    assert.deepEqual(
      await store.putMany(keys.map((key) => ({ key, value: Buffer.from(`v-${key}`), ttlSeconds: 60 })), { createOnly: true }),
      keys.map(() => true),
    );
    for (const key of keys) assert.equal(storedText(await store.get(key)), `v-${key}`);
    await store.delete(keys.slice(0, 20));
    for (const [i, key] of keys.entries()) assert.equal(storedText(await store.get(key)), i < 20 ? undefined : `v-${key}`);
  });

  it('expires entries by the injected clock', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ maxSizeBytes: 1024 * 1024, now: () => now });
    await store.putMany([{ key: 'k', value: Buffer.from('v'), ttlSeconds: 10 }], { createOnly: true });
    now += 9_000;
    assert.equal(storedText(await store.get('k')), 'v');
    now += 1_001;
    assert.equal(await store.get('k'), undefined);
  });
});
