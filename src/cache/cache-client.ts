import type { CachedValue } from './cache-service.js';
import type { CachePutInput } from './put-request.js';
import { AppError, ErrorCode } from '../core/app-error.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { CancelSignal } from '../core/cancel-signal.js';

/**
 * Port: how features that cache values (`/vtrack`, the auction's bids) reach a cache: this
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

/**
 * Port: how the auction caches its bids. Unlike {@link CacheClient} it has limits of its own
 * (`auction.cache`: every bid of every imp in one batch, not `/cache`'s 10 puts of 10 KiB) and a
 * deadline per call, because caching must fit inside the auction's `tmax`.
 *
 * Contract: `putBatch` writes the puts as one batch and resolves their uuids in order, or rejects
 * with an `AppError`: `BAD_REQUEST` for invalid puts (nothing written), `BACKEND_TIMEOUT` when
 * `signal` aborts first (the values may still land, unreferenced, and expire by their TTL),
 * `BACKEND_FAILURE` for a cache that fails. `url` is where browsers and creatives read a cached
 * value back (`<url>?uuid=<id>`): the source of `hb_cache_host` and `hb_cache_path`.
 */
export interface BidCacheClient {
  readonly url: string;
  putBatch(puts: readonly CachePutInput[], signal: CancelSignal): Promise<string[]>;
}

/** Rejects with `BACKEND_TIMEOUT` when `signal` aborts before `work` settles. */
export const raceSignal = <T>(work: Promise<T>, signal: CancelSignal, what: string): Promise<T> => {
  if (signal.aborted) return Promise.reject(new AppError(ErrorCode.BACKEND_TIMEOUT, `${what}: no time left before the deadline.`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AppError(ErrorCode.BACKEND_TIMEOUT, `${what}: the deadline passed before the cache answered.`));
    signal.addEventListener('abort', onAbort);
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
};
