import { LRUCache } from 'lru-cache';
import { AppError, ErrorCode } from '../../core/app-error.js';
import type { CacheStore, StoreEntry } from '../cache-store.js';

export interface MemoryStoreOptions {
  /** Upper bound of the bytes this store accounts for, entries and their bookkeeping. */
  readonly maxSizeBytes: number;
  /** Time source in ms, for tests; defaults to lru-cache's own clock. */
  readonly now?: () => number;
}

/**
 * What one entry costs beyond its key and value bytes: the Map slot, lru-cache's index arrays,
 * the Buffer object and its backing-store header. Counting it keeps RSS near `maxSizeBytes` even
 * when values are small.
 */
const ENTRY_OVERHEAD_BYTES = 320;

/**
 * An in-process store: least recently used entries are evicted once `maxSizeBytes` is reached,
 * expired ones are dropped when read or when eviction reaches them. Reads and writes answer
 * directly (no promise), so a batch is trivially atomic.
 */
export const createMemoryStore = (opts: MemoryStoreOptions): CacheStore => {
  const lru = new LRUCache<string, Buffer>({
    maxSize: opts.maxSizeBytes,
    sizeCalculation: (value, key) => value.length + key.length * 2 + ENTRY_OVERHEAD_BYTES,
    // No timers: expiry is checked on read, eviction keeps memory bounded.
    ttlAutopurge: false,
    allowStale: false,
    // Read the clock on every check rather than caching it behind a 1 ms timer.
    ttlResolution: 0,
    updateAgeOnGet: false,
    ...(opts.now ? { perf: { now: opts.now } } : {}),
  });
  let closed = false;

  const ensureOpen = (): void => {
    if (closed) throw new AppError(ErrorCode.BACKEND_FAILURE, 'memory store is closed');
  };

  return {
    kind: 'memory',
    // Answered directly, without a promise: this read is the whole of a GET /cache hit.
    get: (key) => {
      ensureOpen();
      return lru.get(key);
    },
    // Answered directly too: on POST /cache the promise hops cost more than the write.
    putMany: (entries: readonly StoreEntry[], { createOnly }) => {
      ensureOpen();
      return entries.map((e) => {
        if (createOnly && lru.has(e.key)) return false;
        lru.set(e.key, ownBuffer(e.value), { ttl: e.ttlSeconds * 1000 });
        return true;
      });
    },
    delete: async (keys) => {
      ensureOpen();
      for (const k of keys) lru.delete(k);
    },
    close: async () => {
      closed = true;
      lru.clear();
    },
  };
};

/** A buffer that views part of a larger allocation would keep all of it alive; copy those. */
const ownBuffer = (value: Buffer): Buffer => {
  if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) return value;
  const copy = Buffer.allocUnsafeSlow(value.length);
  value.copy(copy);
  return copy;
};
