import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { AccountFetcher, AccountSettings } from '../account.js';
import type { StoredChange, StoredKind } from '../fetcher-cache.js';
import { createCachedAccountFetcher, createCachedStoredRequestFetcher } from '../fetcher-cache.js';
import type { Invalidate } from '../fetcher-cache.js';
import { createAccountChain, createStoredRequestChain } from '../fetcher-chain.js';
import type { ChainLink } from '../fetcher-chain.js';
import { limitAccountIds, limitStoredRequestIds } from '../id-limit.js';
import { nothingFound } from '../stored-request-fetcher.js';
import type { StoredRequestFetcher } from '../stored-request-fetcher.js';
import { createConfigAccountFetcher } from './config-accounts.js';
import { createFilesystemAccountFetcher, createFilesystemStoredRequestFetcher } from './filesystem.js';
import { createHttpAccountFetcher, createHttpStoredRequestFetcher } from './http.js';
import { reportMissingDirectories } from './missing-directories.js';

/*
 * The stored data sources the configuration asks for, chained in its order behind one cache per
 * port. The option slices have the configuration's shape (`stored_requests`, `stored_imps`,
 * `accounts`), so the composition root hands them over as they are.
 */

export type SourceName = 'filesystem' | 'postgres' | 'http';

export interface PostgresSlice {
  readonly connection_string: string;
  readonly pool_size: number;
  readonly timeout_ms: number;
}

/** Seeing changes made in Postgres (postgres-changes.ts); each off when false / 0. */
export interface PostgresChangesSlice {
  readonly change_notifications: boolean;
  readonly change_poll_interval_seconds: number;
}

export interface StoredDataOptions {
  readonly storedRequests: {
    readonly filesystem: { readonly directory: string };
    readonly postgres: PostgresSlice & PostgresChangesSlice;
    readonly http: { readonly endpoint: string; readonly timeout_ms: number };
    readonly order: readonly SourceName[];
    readonly cache: { readonly ttl_seconds: number; readonly miss_ttl_seconds: number; readonly max_entries: number; readonly max_bytes: number };
    /** Longest id (stored request, imp, account, AMP `tag_id`) looked up; longer ones are refused. */
    readonly max_id_length: number;
  };
  readonly storedImps: { readonly filesystem: { readonly directory: string } };
  readonly accounts: {
    readonly by_id: Readonly<Record<string, AccountSettings>>;
    readonly filesystem: { readonly directory: string };
    readonly postgres: { readonly enabled: boolean };
    readonly http: { readonly endpoint: string; readonly timeout_ms: number };
  };
  readonly logger: Logger;
  readonly clock?: Clock;
  /**
   * `stored_imps.filesystem.directory` is its default, which a default install does not have:
   * its absence is then logged at debug, not warned (a folder the operator named is warned).
   */
  readonly impsDirectoryIsDefault?: boolean;
}

export interface StoredDataSources {
  /** Stored requests and imps: the configured sources in order, behind the cache. */
  readonly storedRequests: StoredRequestFetcher;
  /** `accounts.by_id` first, then the configured sources in order, behind the cache (none when only the configuration is). */
  readonly accounts: AccountFetcher;
  /** Stops watching folders, closes the pool and HTTP agents. */
  close(): Promise<void>;
}

/**
 * Builds the sources. Postgres is loaded only when configured (a driver is MiBs of heap); a
 * database that is not reachable or not migrated yet is logged, not fatal: lookups fail (and the
 * chain passes over it) until it is.
 */
export const createStoredDataSources = async (opts: StoredDataOptions): Promise<StoredDataSources> => {
  const { storedRequests: sr, storedImps: si, accounts: ac, logger } = opts;
  const closers: (() => Promise<void>)[] = [];
  const cacheOptions = {
    ttlMs: sr.cache.ttl_seconds * 1000,
    missTtlMs: sr.cache.miss_ttl_seconds * 1000,
    maxEntries: sr.cache.max_entries,
    maxBytes: sr.cache.max_bytes,
    ...(opts.clock === undefined ? {} : { clock: opts.clock }),
  };
  // The caches are made after the sources; a file may change in between (nothing to drop yet).
  const caches: { requests?: Invalidate; accounts?: Invalidate } = {};
  const onChange = (kind: StoredKind, id: string | undefined): void => (kind === 'account' ? caches.accounts : caches.requests)?.invalidate(kind, id);

  if (ac.postgres.enabled && sr.postgres.connection_string === '') {
    throw new Error('accounts.postgres.enabled needs stored_requests.postgres.connection_string');
  }
  const postgres = sr.postgres.connection_string === '' ? undefined : await openPostgres(sr.postgres, logger);
  if (postgres !== undefined) closers.push(postgres.close);

  const requestLinks: ChainLink<StoredRequestFetcher>[] = [];
  const accountLinks: ChainLink<AccountFetcher>[] = [];
  for (const name of sr.order) {
    if (name === 'filesystem') {
      reportMissingDirectories(
        [
          { key: 'stored_requests.filesystem.directory', holds: 'stored requests', directory: sr.filesystem.directory },
          { key: 'stored_imps.filesystem.directory', holds: 'stored imps', directory: si.filesystem.directory, absentIsNormal: opts.impsDirectoryIsDefault === true },
          { key: 'accounts.filesystem.directory', holds: 'accounts', directory: ac.filesystem.directory },
        ],
        logger,
      );
      if (sr.filesystem.directory !== '' || si.filesystem.directory !== '') {
        const files = createFilesystemStoredRequestFetcher({ requestsDir: sr.filesystem.directory, impsDir: si.filesystem.directory }, { logger, onChange });
        closers.push(() => files.close());
        requestLinks.push({ name: 'filesystem', fetcher: files });
      }
      if (ac.filesystem.directory !== '') {
        const files = createFilesystemAccountFetcher(ac.filesystem.directory, { logger, onChange });
        closers.push(() => files.close());
        accountLinks.push({ name: 'filesystem', fetcher: files });
      }
    } else if (name === 'postgres') {
      if (postgres !== undefined) requestLinks.push({ name: 'postgres', fetcher: postgres.storedRequests });
      if (postgres !== undefined && ac.postgres.enabled) accountLinks.push({ name: 'postgres', fetcher: postgres.accounts });
    } else {
      if (sr.http.endpoint !== '') {
        const http = createHttpStoredRequestFetcher({ endpoint: sr.http.endpoint, timeoutMs: sr.http.timeout_ms });
        closers.push(() => http.close());
        requestLinks.push({ name: 'http', fetcher: http });
      }
      if (ac.http.endpoint !== '') {
        const http = createHttpAccountFetcher({ endpoint: ac.http.endpoint, timeoutMs: ac.http.timeout_ms });
        closers.push(() => http.close());
        accountLinks.push({ name: 'http', fetcher: http });
      }
    }
  }

  const requestCache =
    requestLinks.length === 0
      ? undefined
      : createCachedStoredRequestFetcher(createStoredRequestChain(requestLinks, logger.child({ component: 'stored-requests' })), cacheOptions);
  caches.requests = requestCache;
  const configAccounts = createConfigAccountFetcher(ac.by_id);
  // The configuration alone answers from a map: nothing to cache.
  const accountCache =
    accountLinks.length === 0
      ? undefined
      : createCachedAccountFetcher(createAccountChain([{ name: 'config', fetcher: configAccounts }, ...accountLinks], logger.child({ component: 'accounts' })), cacheOptions);
  caches.accounts = accountCache;
  if (postgres !== undefined) {
    postgres.watchChanges({
      onChanges: (changes) => {
        requestCache?.evictChanged(changes.filter((c) => c.kind !== 'account'));
        accountCache?.evictChanged(changes.filter((c) => c.kind === 'account'));
      },
      onAllChanged: () => {
        for (const kind of ['request', 'imp', 'account'] as const) onChange(kind, undefined);
      },
    });
  }
  logger.info({ storedRequests: requestLinks.map((l) => l.name), accounts: ['config', ...accountLinks.map((l) => l.name)] }, 'stored data sources');

  // The id limit is the entry of every lookup, cached or not: an over-long id reaches nothing.
  return {
    storedRequests: limitStoredRequestIds(requestCache ?? { fetchRequests: async (requestIds, impIds) => nothingFound(requestIds, impIds) }, sr.max_id_length),
    accounts: limitAccountIds(accountCache ?? configAccounts, sr.max_id_length),
    close: async () => {
      await Promise.all(closers.map((close) => close()));
    },
  };
};

const openPostgres = async (slice: PostgresSlice & PostgresChangesSlice, logger: Logger) => {
  const { createPostgresPool, createPostgresStoredRequestFetcher, createPostgresAccountFetcher } = await import('./postgres.js');
  const { watchPostgresChanges } = await import('./postgres-changes.js');
  const pool = createPostgresPool({ connectionString: slice.connection_string, poolSize: slice.pool_size, timeoutMs: slice.timeout_ms, logger: logger.child({ component: 'postgres' }) });
  // Not awaited: start-up does not wait for the database; this only says early what is wrong.
  pool.query('SELECT 1 FROM stored_requests, stored_imps, accounts LIMIT 0').catch((err: Error) =>
    logger.warn({ err: { message: err.message } }, 'postgres stored data is not usable yet (is the database up, and migrated with `openbid db migrate`?)'),
  );
  let watch: { close(): Promise<void> } | undefined;
  return {
    storedRequests: createPostgresStoredRequestFetcher({ pool, timeoutMs: slice.timeout_ms }),
    accounts: createPostgresAccountFetcher({ pool, timeoutMs: slice.timeout_ms }),
    /** Once the caches exist: drops what changes in the database from them. */
    watchChanges: (on: { onChanges: (changes: readonly StoredChange[]) => void; onAllChanged: () => void }): void => {
      if (!slice.change_notifications && slice.change_poll_interval_seconds === 0) return;
      watch = watchPostgresChanges({
        connectionString: slice.connection_string,
        pool,
        notifications: slice.change_notifications,
        pollIntervalMs: slice.change_poll_interval_seconds * 1000,
        timeoutMs: slice.timeout_ms,
        logger: logger.child({ component: 'postgres-changes' }),
        ...on,
      });
    },
    close: async () => {
      await watch?.close();
      await pool.end();
    },
  };
};

/**
 * `openbid db migrate`: applies the schema's migrations to `stored_requests.postgres`, then
 * closes. Returns the versions applied; fails (rejects) when there is no database configured or
 * it cannot be migrated.
 */
export const migrateStoredData = async (slice: PostgresSlice, logger: Logger): Promise<number[]> => {
  if (slice.connection_string === '') throw new Error('stored_requests.postgres.connection_string is not set: no database to migrate');
  const { createPostgresPool, migrate } = await import('./postgres.js');
  // A migration may take longer than a lookup: the pool's lookup timeouts do not apply to it.
  const pool = createPostgresPool({ connectionString: slice.connection_string, poolSize: 1, timeoutMs: Math.max(slice.timeout_ms, 30_000), logger });
  try {
    return await migrate(pool);
  } finally {
    await pool.end();
  }
};
