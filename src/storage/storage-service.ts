import type { CacheStore } from '../cache/cache-store.js';
import { STORAGE_KEY_PREFIX } from '../cache/reserved-keys.js';
import { prefixedText } from '../cache/stored-value.js';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { Metrics } from '../metrics/metrics.js';
import type { StorageEntry } from './storage-entry.js';

export interface StorageServiceOptions {
  /** One store per configured application. */
  readonly stores: ReadonlyMap<string, CacheStore>;
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
   * in their JSON form, so a read re-encodes nothing. `NOT_FOUND` for an unknown application or
   * a missing or expired entry.
   */
  readJson(application: string, key: string): Promise<Buffer>;
}

type Op = 'read' | 'write';
type Result = 'ok' | 'not_found' | 'error';

// The store key: namespaced apart from /cache ids and per application, so applications sharing
// one Redis never see each other's keys (application names cannot contain ':').
const storeKey = (application: string, key: string): string => `${STORAGE_KEY_PREFIX}${application}:${key}`;

// Stored as the JSON text {"type":…,"value":…}: readable as it is in redis-cli, and a read only
// has to put the key in front.
const STORED_START = Buffer.from('{"type":"');
const NO_PREFIX = Buffer.alloc(0);
const encode = (entry: StorageEntry): Buffer => prefixedText(NO_PREFIX, `{"type":"${entry.type}","value":${JSON.stringify(entry.value)}}`);
const isStoredEntry = (stored: Buffer): boolean =>
  stored.length > STORED_START.length && stored.compare(STORED_START, 0, STORED_START.length, 0, STORED_START.length) === 0;

export const createStorageService = (opts: StorageServiceOptions): StorageService => {
  const { stores } = opts;
  const counter = opts.metrics.counter({
    name: 'openbid_storage_operations_total',
    help: 'Module storage reads and writes by application, operation and result.',
    labelNames: ['application', 'op', 'result'],
  });
  // Unknown applications share one label so callers cannot grow the series.
  const count = (application: string, op: Op, result: Result): void =>
    counter.inc({ application: stores.has(application) ? application : 'unknown', op, result });

  const storeFor = (application: string, op: Op): CacheStore => {
    const store = stores.get(application);
    if (store === undefined) {
      count(application, op, 'not_found');
      throw new AppError(ErrorCode.NOT_FOUND, `Invalid application: ${application}`);
    }
    return store;
  };

  const backend = async <T>(application: string, op: Op, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      count(application, op, 'error');
      const timeout = isAppError(err) && err.code === ErrorCode.BACKEND_TIMEOUT;
      throw new AppError(timeout ? ErrorCode.BACKEND_TIMEOUT : ErrorCode.BACKEND_FAILURE, `storage ${op} for application '${application}' failed${timeout ? ': timed out' : ''}.`, { cause: err });
    }
  };

  const readJson = async (application: string, key: string): Promise<Buffer> => {
    const store = storeFor(application, 'read');
    const stored = await backend(application, 'read', () => store.get(storeKey(application, key)));
    if (stored === undefined || !isStoredEntry(stored)) {
      count(application, 'read', 'not_found');
      throw new AppError(ErrorCode.NOT_FOUND, `No entry for key '${key}' in application '${application}'.`);
    }
    count(application, 'read', 'ok');
    return Buffer.concat([Buffer.from(`{"key":${JSON.stringify(key)},`), stored.subarray(1)]);
  };

  return {
    async write(entry) {
      const store = storeFor(entry.application, 'write');
      const value = encode(entry);
      await backend(entry.application, 'write', () => store.putMany([{ key: storeKey(entry.application, entry.key), value, ttlSeconds: entry.ttlSeconds }], { createOnly: false }));
      count(entry.application, 'write', 'ok');
    },
    readJson,
  };
};
