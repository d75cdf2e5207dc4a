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
 * store answers at once; a Redis store within its own timeout or the deadline, whichever is first).
 */
export const createInProcessBidCache = (cache: CacheService, opts: { limits: InternalCacheLimits; url: string }): BidCacheClient => ({
  url: opts.url,
  putBatch: async (puts, signal) => raceSignal(Promise.resolve(cache.putValues(puts, opts.limits)), signal, 'caching bids'),
});
