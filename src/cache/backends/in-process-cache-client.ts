import type { BidCacheClient, CacheClient } from '../cache-client.js';
import { raceSignal } from '../cache-client.js';
import type { CacheService, InternalCacheLimits } from '../cache-service.js';

/** The cache of this very process: no network hop, the same rules and store as `/cache`. */
export const createInProcessCacheClient = (cache: CacheService): CacheClient => ({
  put: (puts) => cache.putValues(puts),
  get: async (uuid) => cache.get(uuid),
});

/**
 * The auction's client of this process's cache: its own limits, the caller's deadline (a memory
 * store answers at once, and its ids stand; a Redis store within its own timeout or the deadline,
 * whichever is first).
 */
export const createInProcessBidCache = (cache: CacheService, opts: { limits: InternalCacheLimits; url: string }): BidCacheClient => ({
  url: opts.url,
  putBatch: async (puts, signal) => {
    const written = cache.putValues(puts, opts.limits);
    // A store that answers at once (memory) has written the values: their ids are good whatever the time.
    return written instanceof Promise ? raceSignal(written, signal, 'caching bids') : written;
  },
});
