import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import { startsWithAscii } from '../core/bytes.js';
import type { Bytes } from '../core/bytes.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { KeyValueStore } from '../kv/key-value-store.js';
import { boundGrid } from '../metrics/metrics.js';
import type { Metrics } from '../metrics/metrics.js';
import type { StorageEntry } from './storage-entry.js';

export interface StorageServiceOptions {
  /** One store per configured application. */
  readonly stores: ReadonlyMap<string, KeyValueStore>;
  readonly metrics: Metrics;
}

/**
 * Module storage: write-once, read-many data of named applications, each in its own store.
 * Writes overwrite (the interface calls the data write-once but does not forbid rewriting, and
 * Prebid Cache Java overwrites); there is no atomic read-modify-write.
 */
export interface StorageService {
  /** Stores an entry; `NOT_FOUND` for an application that is not configured. */
  write(entry: StorageEntry): Promise<void>;
  /**
   * The entry as the JSON text `{"key":…,"type":…,"value":…}`, ready to answer: entries are kept
   * in that form, so a read neither copies nor re-encodes. `NOT_FOUND` for an unknown application or
   * a missing or expired entry. Answers directly (and throws) when the store does, else with a
   * promise (that rejects).
   */
  readJson(application: string, key: string): MaybePromise<Bytes>;
}

type Op = (typeof OPS)[number];
type Result = (typeof RESULTS)[number];

/**
 * Module storage's keys in a store it may share with `/cache` (one Redis): `app.ts` hands this to
 * the cache, which then neither writes nor reads them.
 */
export const STORAGE_RESERVED_KEYS = { prefix: 'openbid-storage:', owner: 'module storage' } as const;
const KEY_PREFIX = STORAGE_RESERVED_KEYS.prefix;

// The store key: namespaced apart from /cache ids and per application, so applications sharing
// one Redis never see each other's keys (application names cannot contain ':').
const storeKey = (application: string, key: string): string => `${KEY_PREFIX}${application}:${key}`;

// Stored as the complete JSON answer {"key":…,"type":…,"value":…}: readable as it is in
// redis-cli, and a read sends the stored bytes without decoding, copying or re-encoding them.
const STORED_START = '{"key":';
const encode = (entry: StorageEntry): Buffer =>
  Buffer.from(`{"key":${JSON.stringify(entry.key)},"type":"${entry.type}","value":${JSON.stringify(entry.value)}}`, 'utf8');
const isStoredEntry = (stored: Bytes): boolean => stored.length > STORED_START.length && startsWithAscii(stored, STORED_START);

const OPS = ['read', 'write'] as const;
const RESULTS = ['ok', 'not_found', 'error'] as const;

export const createStorageService = (opts: StorageServiceOptions): StorageService => {
  const { stores } = opts;
  const counter = opts.metrics.counter({
    name: 'openbid_storage_operations_total',
    help: 'Module storage reads and writes by application, operation and result.',
    labelNames: ['application', 'op', 'result'],
  });
  // Bound up front for every configured application, and one 'unknown' for the rest, so callers
  // cannot grow the series and counting costs no label lookup.
  const bound = new Map([...stores.keys(), 'unknown'].map((app) => [app, boundGrid(counter, 'op', OPS, 'result', RESULTS, { application: app })]));
  const count = (application: string, op: Op, result: Result): void => (bound.get(application) ?? bound.get('unknown'))?.[op][result].inc();

  const storeFor = (application: string, op: Op): KeyValueStore => {
    const store = stores.get(application);
    if (store === undefined) {
      count(application, op, 'not_found');
      throw new AppError(ErrorCode.NOT_FOUND, `Invalid application: ${application}`);
    }
    return store;
  };

  const failed = (application: string, op: Op, err: unknown): AppError => {
    count(application, op, 'error');
    const timeout = isAppError(err) && err.code === ErrorCode.BACKEND_TIMEOUT;
    return new AppError(timeout ? ErrorCode.BACKEND_TIMEOUT : ErrorCode.BACKEND_FAILURE, `storage ${op} for application '${application}' failed${timeout ? ': timed out' : ''}.`, { cause: err });
  };

  return {
    async write(entry) {
      const store = storeFor(entry.application, 'write');
      const value = encode(entry);
      try {
        await store.putMany([{ key: storeKey(entry.application, entry.key), value, ttlSeconds: entry.ttlSeconds }], { createOnly: false });
      } catch (err) {
        throw failed(entry.application, 'write', err);
      }
      count(entry.application, 'write', 'ok');
    },
    readJson(application, key) {
      const store = storeFor(application, 'read');
      let stored: MaybePromise<Bytes | undefined>;
      try {
        stored = store.get(storeKey(application, key));
      } catch (err) {
        throw failed(application, 'read', err);
      }
      return stored instanceof Promise
        ? stored.then(
            (s) => entryOf(application, key, s),
            (err: unknown) => {
              throw failed(application, 'read', err);
            },
          )
        : entryOf(application, key, stored);
    },
  };

  function entryOf(application: string, key: string, stored: Bytes | undefined): Bytes {
    if (stored === undefined || !isStoredEntry(stored)) {
      count(application, 'read', 'not_found');
      throw new AppError(ErrorCode.NOT_FOUND, `No entry for key '${key}' in application '${application}'.`);
    }
    count(application, 'read', 'ok');
    return stored;
  }
};
