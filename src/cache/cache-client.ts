import type { CachedValue } from './cache-service.js';
import type { CachePutInput } from './put-request.js';

/**
 * Port: how features that cache values (vtrack now, the auction later) reach a cache: this
 * server's own, or a remote Prebid-Cache-compatible server.
 *
 * Contract:
 * - `put` writes the puts as one batch under the `/cache` rules and resolves their uuids in order
 *   (`""` where a key already existed). Invalid puts reject with `BAD_REQUEST` and nothing is
 *   written; a failing or slow cache rejects with `BACKEND_FAILURE`/`BACKEND_TIMEOUT` within the
 *   client's time limit.
 * - `get` resolves a cached value like `GET /cache`: `NOT_FOUND` for an unknown id.
 */
export interface CacheClient {
  put(puts: readonly CachePutInput[]): Promise<string[]>;
  get(uuid: string | undefined): Promise<CachedValue>;
}
