import type { CacheClient } from '../cache-client.js';
import type { CacheService } from '../cache-service.js';

/** The cache of this very process: no network hop, the same rules and store as `/cache`. */
export const createInProcessCacheClient = (cache: CacheService): CacheClient => ({
  put: (puts) => cache.putValues(puts),
  get: async (uuid) => cache.get(uuid),
});
