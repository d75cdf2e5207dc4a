import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { Bytes } from '../core/bytes.js';
import type { IdGenerator } from '../core/ids.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { boundGrid } from '../metrics/metrics.js';
import type { Metrics } from '../metrics/metrics.js';
import type { KeyValueStore } from '../kv/key-value-store.js';
import { parsePutRequest, validatePuts } from './put-request.js';
import type { CacheLimits, CachePut, CachePutInput } from './put-request.js';
import { createReusableEncoder, decodeStoredValue, encodeStoredValue } from './stored-value.js';
import type { ValueType } from './stored-value.js';

export interface CacheServiceOptions {
  readonly store: KeyValueStore;
  readonly limits: CacheLimits;
  readonly ids: IdGenerator;
  readonly metrics: Metrics;
}

/** Limits of a caller inside the process that has its own (`auction.cache`). */
export type InternalCacheLimits = Pick<CacheLimits, 'maxNumValues' | 'maxSizeBytes' | 'maxTtlSeconds'>;

/** A value read back: its type (for the Content-Type) and body bytes. */
export interface CachedValue {
  readonly type: ValueType;
  readonly body: Bytes;
}

/**
 * The `/cache` use cases. Ids are fresh UUIDs unless a key is honoured; every write is
 * create-only, so an existing key is never overwritten and its put answers `""`.
 */
export interface CacheService {
  /**
   * A raw `POST /cache` body → the uuid of each put, in order (`""` where the key existed).
   * Answers (and throws) directly when the store does, else with a promise (that rejects).
   */
  putRequest(body: string): MaybePromise<string[]>;
  /**
   * Puts from inside the process (vtrack, auction), validated by the same rules; answers like
   * `putRequest`. `limits` replaces the `/cache` request limits for callers with their own (an
   * auction caches every bid of every imp); keys are never honoured for them.
   */
  putValues(puts: readonly CachePutInput[], limits?: InternalCacheLimits): MaybePromise<string[]>;
  /**
   * Reads by id; `NOT_FOUND` for unknown ids, `BAD_REQUEST` for a missing one. Answers directly
   * (and throws) when the store does, else with a promise (that rejects).
   */
  get(uuid: string | undefined): MaybePromise<CachedValue>;
}

const PUT_RESULTS = ['stored', 'exists', 'invalid', 'error'] as const;
type PutResult = (typeof PUT_RESULTS)[number];
type GetResult = 'hit' | 'miss' | 'invalid' | 'error';

const UUID_LENGTH = 36;
const CREATE_ONLY = { createOnly: true } as const;

export const createCacheService = (opts: CacheServiceOptions): CacheService => {
  const { store, limits, ids } = opts;
  const reservedPrefix = limits.reservedKeys?.prefix;
  // Writes are synchronous on a store that copies, so one buffer serves every batch in turn.
  const reusable = store.copiesOnPut ? createReusableEncoder() : undefined;
  const encode = reusable ? reusable.encode : encodeStoredValue;
  const puts = opts.metrics.counter({
    name: 'openbid_cache_puts_total',
    help: 'Values put through /cache and internal clients, by type and result.',
    labelNames: ['type', 'result'],
  });
  const gets = opts.metrics.counter({
    name: 'openbid_cache_gets_total',
    help: 'Reads of /cache by result.',
    labelNames: ['result'],
  });
  const putCounters = boundGrid(puts, 'type', ['xml', 'json', 'any'] as const, 'result', PUT_RESULTS);
  const countPut = (type: ValueType | 'any', result: PutResult): void => putCounters[type][result].inc();
  const getCounters: Record<GetResult, { inc(n?: number): void }> = {
    hit: gets.with({ result: 'hit' }),
    miss: gets.with({ result: 'miss' }),
    invalid: gets.with({ result: 'invalid' }),
    error: gets.with({ result: 'error' }),
  };

  /** Writes valid puts: directly when the store answers directly, else with a promise. */
  const write = (valid: readonly CachePut[]): MaybePromise<string[]> => {
    const uuids = valid.map((p) => p.key ?? ids.uuid());
    reusable?.reset();
    const entries = valid.map((p, i) => ({ key: uuids[i] as string, value: encode(p.type, p.value), ttlSeconds: p.ttlSeconds }));
    const failed = (err: unknown): never => {
      for (const p of valid) countPut(p.type, 'error');
      throw backendError(err, 'timeout writing value to the backend.', 'error writing value to the backend.');
    };
    const answered = (written: boolean[]): string[] =>
      uuids.map((uuid, i) => {
        const stored = written[i] === true;
        countPut((valid[i] as CachePut).type, stored ? 'stored' : 'exists');
        return stored ? uuid : '';
      });
    let written: MaybePromise<boolean[]>;
    try {
      written = store.putMany(entries, CREATE_ONLY);
    } catch (err) {
      return failed(err);
    }
    return written instanceof Promise ? written.then(answered, failed) : answered(written);
  };

  /** The limits of a caller with its own; keys are never honoured for it. A literal: a spread that adds keys is slow in Node 20. */
  const internalLimits = (own: InternalCacheLimits): CacheLimits => ({
    maxNumValues: own.maxNumValues,
    maxSizeBytes: own.maxSizeBytes,
    maxTtlSeconds: own.maxTtlSeconds,
    allowSettingKeys: false,
    maxKeyLength: limits.maxKeyLength,
  });

  const validated = (validate: () => CachePut[]): CachePut[] => {
    try {
      return validate();
    } catch (err) {
      countPut('any', 'invalid');
      throw err;
    }
  };

  return {
    putRequest: (body) => write(validated(() => parsePutRequest(body, limits))),
    putValues: (input, own) =>
      write(validated(() => validatePuts(input, own === undefined ? limits : internalLimits(own)))),

    get(uuid) {
      if (uuid === undefined || uuid === '') {
        getCounters.invalid.inc();
        throw new AppError(ErrorCode.BAD_REQUEST, 'GET /cache: Missing required parameter uuid');
      }
      // Without custom keys every id is a 36-character UUID; anything else cannot exist, so
      // answer without a backend round trip (404, as Prebid Cache does).
      if (!limits.allowSettingKeys && uuid.length !== UUID_LENGTH) {
        getCounters.invalid.inc();
        throw new AppError(ErrorCode.NOT_FOUND, `GET /cache uuid=${uuid}: invalid uuid length`);
      }
      // Module storage's entries may share the Redis; they are never readable as cache values.
      if (reservedPrefix !== undefined && uuid.startsWith(reservedPrefix)) return cachedValueOf(uuid, undefined);
      let stored: MaybePromise<Bytes | undefined>;
      try {
        stored = store.get(uuid);
      } catch (err) {
        throw readFailure(uuid, err);
      }
      return stored instanceof Promise
        ? stored.then(
            (s) => cachedValueOf(uuid, s),
            (err: unknown) => {
              throw readFailure(uuid, err);
            },
          )
        : cachedValueOf(uuid, stored);
    },
  };

  function readFailure(uuid: string, err: unknown): AppError {
    getCounters.error.inc();
    return backendError(err, `GET /cache uuid=${uuid}: timeout reading value from the backend.`, `GET /cache uuid=${uuid}: error reading value from the backend.`);
  }

  function cachedValueOf(uuid: string, stored: Bytes | undefined): CachedValue {
    if (stored === undefined) {
      getCounters.miss.inc();
      throw new AppError(ErrorCode.NOT_FOUND, `GET /cache uuid=${uuid}: Key not found`);
    }
    const value = decodeStoredValue(stored);
    if (value === undefined) {
      getCounters.error.inc();
      throw new AppError(ErrorCode.INTERNAL, `GET /cache uuid=${uuid}: Cache data was corrupted. Cannot determine type.`);
    }
    getCounters.hit.inc();
    return value;
  }
};

/** Keeps the store's timeout/failure distinction but gives the caller a message about its request. */
const backendError = (err: unknown, timeoutMessage: string, failureMessage: string): AppError => {
  if (isAppError(err) && err.code === ErrorCode.BACKEND_TIMEOUT) return new AppError(ErrorCode.BACKEND_TIMEOUT, timeoutMessage, { cause: err });
  return new AppError(ErrorCode.BACKEND_FAILURE, failureMessage, { cause: err });
};
