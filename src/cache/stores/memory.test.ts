import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheStoreContract } from '../../../test/support/store-contract.js';
import { createMemoryStore } from './memory.js';

cacheStoreContract('memory', async () => ({ store: createMemoryStore({ maxSizeBytes: 64 * 1024 * 1024 }), cleanup: async () => undefined }));

describe('memory store', () => {
  it('evicts least recently used entries to stay within max_size_bytes', async () => {
    const store = createMemoryStore({ maxSizeBytes: 100 * 1024 });
    const value = Buffer.alloc(1024, 'x');
    for (let i = 0; i < 500; i++) await store.putMany([{ key: `k${i}`, value, ttlSeconds: 60 }], { createOnly: true });
    // 500 KiB written into 100 KiB: the oldest are gone, the newest are there.
    assert.equal(await store.get('k0'), undefined);
    assert.ok((await store.get('k499'))?.equals(value));
    let kept = 0;
    for (let i = 0; i < 500; i++) if ((await store.get(`k${i}`)) !== undefined) kept++;
    assert.ok(kept > 50 && kept < 100, `kept ${kept} entries of ~1.3 KiB in 100 KiB`);
  });

  it('copies a value that views a larger buffer, so the larger buffer is not pinned', async () => {
    const store = createMemoryStore({ maxSizeBytes: 1024 * 1024 });
    const big = Buffer.alloc(64 * 1024, 'y');
    const view = big.subarray(10, 20);
    await store.putMany([{ key: 'view', value: view, ttlSeconds: 60 }], { createOnly: true });
    const stored = await store.get('view');
    assert.ok(stored?.equals(view));
    assert.equal(stored?.buffer.byteLength, 10);
  });

  it('expires entries by the injected clock', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ maxSizeBytes: 1024 * 1024, now: () => now });
    await store.putMany([{ key: 'k', value: Buffer.from('v'), ttlSeconds: 10 }], { createOnly: true });
    now += 9_000;
    assert.equal((await store.get('k'))?.toString(), 'v');
    now += 1_001;
    assert.equal(await store.get('k'), undefined);
  });
});
