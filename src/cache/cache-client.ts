import type { CachedValue } from './cache-service.js';
import type { CachePutInput } from './put-request.js';
import type { MaybePromise } from '../core/maybe-promise.js';

/**
 * Port: how features that cache values (vtrack now, the auction later) reach a cache: this
 * server's own, or a remote Prebid-Cache-compatible server.
 *
 * Contract:
 * - `put` writes the puts as one batch under the `/cache` rules and gives their uuids in order
 *   (`""` where a key already existed): directly when the cache is in process and answers
 *   directly, else with a promise. Invalid puts fail (throw, or reject) with `BAD_REQUEST` and
 *   nothing is written; a failing or slow cache fails with `BACKEND_FAILURE`/`BACKEND_TIMEOUT`
 *   within the client's time limit.
 * - `get` resolves a cached value like `GET /cache`: `NOT_FOUND` for an unknown id.
 */
export interface CacheClient {
  put(puts: readonly CachePutInput[]): MaybePromise<string[]>;
  get(uuid: string | undefined): Promise<CachedValue>;
}
