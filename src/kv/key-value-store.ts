import type { Bytes } from '../core/bytes.js';
import type { MaybePromise } from '../core/maybe-promise.js';

/** One value to write: the key, the bytes to keep (as the caller encoded them) and its lifetime. */
export interface KeyValueEntry {
  readonly key: string;
  readonly value: Buffer;
  /** Whole seconds, at least 1. */
  readonly ttlSeconds: number;
}

export interface PutManyOptions {
  /**
   * True: set-if-absent, an entry whose key already exists (and has not expired) is not written
   * and reported `false` (Redis `SET NX`). False: set, every entry overwrites.
   */
  readonly createOnly: boolean;
}

/**
 * Key/value store with a TTL per entry, the one port under `/cache`, module storage and the
 * in-process cache client. It knows nothing of what the bytes mean: each user encodes its own
 * values and keeps to its own keys (module storage prefixes its keys, and the cache refuses that
 * prefix, so both can share one Redis).
 *
 * Contract:
 * - `get` gives the bytes last written for the key, or `undefined` when the key is missing or
 *   expired: a Buffer, or a `ByteString` (one character per byte) from a store that copies
 *   values out of its own buffers, where a string is the cheaper copy; callers treat both as
 *   bytes. TTLs are honoured on a best-effort basis: an entry may disappear earlier (eviction),
 *   never be readable much later than its TTL.
 * - `putMany` writes with `ttlSeconds` per entry, as set-if-absent (`createOnly: true`) or set
 *   (`createOnly: false`). It is all-or-nothing: it answers (one boolean per entry, in order:
 *   `true` written, `false` refused because the key exists and `createOnly` was set) only when
 *   every entry not refused is stored; when it fails, none of this call's entries is left
 *   readable. Within one call entries are applied in order, so a key repeated in a batch is
 *   refused the second time under `createOnly`. A single write is a batch of one.
 * - `get` and `putMany` answer the way the hot ports do (`MaybePromise`): an in-process store
 *   answers directly and throws its failures; a network store answers with a promise and
 *   rejects. Callers handle both (`await` does; hot paths test for a promise so a direct answer
 *   costs no microtask turn).
 * - `delete` removes keys (missing keys are not an error).
 * - Failures reject (a direct call throws) with an `AppError` of code `BACKEND_FAILURE` or
 *   `BACKEND_TIMEOUT`, within the store's configured time budget; a call never hangs.
 * - Safe for concurrent use. Bytes passed in are not modified; bytes returned must not be
 *   modified by the caller.
 */
export interface KeyValueStore {
  /** Short name used in metrics and logs (`memory`, `redis`). */
  readonly kind: string;
  /**
   * True when `putMany` has copied the entries' bytes by the time it answers (an in-process
   * store), so the caller may reuse their buffers at once; false when it may still read them
   * later (a network store writing them to a socket).
   */
  readonly copiesOnPut: boolean;
  get(key: string): MaybePromise<Bytes | undefined>;
  putMany(entries: readonly KeyValueEntry[], opts: PutManyOptions): MaybePromise<boolean[]>;
  delete(keys: readonly string[]): Promise<void>;
  /** Releases connections; later calls fail (an in-process `get` throws, the rest reject). */
  close(): Promise<void>;
}
