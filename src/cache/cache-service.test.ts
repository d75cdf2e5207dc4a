import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sequentialIds } from '../core/ids.js';
import { noopMetrics } from '../metrics/noop.js';
import type { KeyValueEntry, KeyValueStore } from '../kv/key-value-store.js';
import { createCacheService } from './cache-service.js';

const limits = { maxSizeBytes: 10_240, maxNumValues: 10, maxTtlSeconds: 3600, allowSettingKeys: false, maxKeyLength: 200 };

/**
 * A store that keeps the buffers it is handed, as a network store does until its socket write
 * (or copies them, like the memory store), and shows what each put received.
 */
const recordingStore = (copiesOnPut: boolean): KeyValueStore & { readonly received: KeyValueEntry[]; readonly snapshots: string[] } => {
  const received: KeyValueEntry[] = [];
  const snapshots: string[] = [];
  return {
    kind: 'recording',
    copiesOnPut,
    received,
    snapshots,
    get: () => undefined,
    putMany: (entries) => {
      received.push(...entries);
      snapshots.push(...entries.map((e) => e.value.toString()));
      return entries.map(() => true);
    },
    delete: async () => undefined,
    close: async () => undefined,
  };
};

const batch = (...values: string[]) => values.map((value) => ({ type: 'xml', value, ttlseconds: 60 }));

describe('cache service writes', () => {
  it('hands a store that keeps the bytes buffers no later write touches', async () => {
    const store = recordingStore(false);
    const cache = createCacheService({ store, limits, ids: sequentialIds(), metrics: noopMetrics });
    await cache.putValues(batch('<a/>', '<b>é</b>'));
    await cache.putValues(batch('<c/>', '<d>later</d>'));
    assert.deepEqual(
      store.received.map((e) => e.value.toString()),
      ['xml<a/>', 'xml<b>é</b>', 'xml<c/>', 'xml<d>later</d>'],
    );
  });

  it('hands a store that copies the whole batch, each value intact at the time of the put', async () => {
    const store = recordingStore(true);
    const cache = createCacheService({ store, limits, ids: sequentialIds(), metrics: noopMetrics });
    await cache.putValues(batch('<a/>', '<b>é</b>', 'x'.repeat(5000)));
    await cache.putRequest(JSON.stringify({ puts: batch('<c/>', '<d/>') }));
    assert.deepEqual(store.snapshots, ['xml<a/>', 'xml<b>é</b>', `xml${'x'.repeat(5000)}`, 'xml<c/>', 'xml<d/>']);
    assert.deepEqual(
      store.received.map((e) => e.key),
      [1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`),
    );
  });
});
