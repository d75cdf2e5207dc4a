import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { AccountFetcher } from '../account.js';
import type { StoredKind } from '../fetcher-cache.js';
import { createCachedAccountFetcher, createCachedStoredRequestFetcher } from '../fetcher-cache.js';
import type { Invalidate } from '../fetcher-cache.js';
import { createAccountChain, createStoredRequestChain } from '../fetcher-chain.js';
import type { ChainLink } from '../fetcher-chain.js';
import { limitAccountIds, limitStoredRequestIds } from '../id-limit.js';
import { nothingFound } from '../stored-request-fetcher.js';
import type { StoredRequestFetcher } from '../stored-request-fetcher.js';
import { BUILTIN_STORED_BACKENDS } from './builtin.js';
import { createConfigAccountFetcher } from './config-accounts.js';
import type { StoredBackend, StoredBackendDeps, StoredBackendFactory, StoredDataSections } from './stored-backend.js';

export type { PostgresChangesSlice, PostgresSlice, SourceName } from './stored-backend.js';
export { migrateStoredData } from './postgres-backend.js';

/*
 * The stored data sources the configuration asks for (each a factory in `builtin.ts`), chained in
 * its order behind one cache per port. The option sections have the configuration's shape
 * (`stored_requests`, `stored_imps`, `accounts`), so the composition root hands them over as they are.
 */

export interface StoredDataOptions extends StoredDataSections {
  readonly logger: Logger;
  /** See `StoredBackendDeps.metrics`. */
  readonly metrics: Metrics;
  readonly clock?: Clock;
  /** See `StoredBackendDeps.impsDirectoryIsDefault`. */
  readonly impsDirectoryIsDefault?: boolean;
  /** Sources by the name `order` uses: the built-in ones (`builtin.ts`) unless a test gives others. */
  readonly backends?: Readonly<Record<string, StoredBackendFactory>>;
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
 * Builds the sources named in `stored_requests.order`, in that order. Rejects a name no source
 * has, and whatever a source's factory rejects with (a configuration it cannot work with).
 */
export const createStoredDataSources = async (opts: StoredDataOptions): Promise<StoredDataSources> => {
  const { storedRequests: sr, logger } = opts;
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
  const deps: StoredBackendDeps = {
    logger,
    metrics: opts.metrics,
    onChange: (kind: StoredKind, id: string | undefined): void => (kind === 'account' ? caches.accounts : caches.requests)?.invalidate(kind, id),
    impsDirectoryIsDefault: opts.impsDirectoryIsDefault === true,
  };

  const requestLinks: ChainLink<StoredRequestFetcher>[] = [];
  const accountLinks: ChainLink<AccountFetcher>[] = [];
  const watchers: NonNullable<StoredBackend['watchChanges']>[] = [];
  const backends = opts.backends ?? BUILTIN_STORED_BACKENDS;
  try {
    for (const name of sr.order) {
      // Own entries only: a registry given as a plain object must not answer `constructor` either.
      const open = Object.hasOwn(backends, name) ? backends[name] : undefined;
      if (open === undefined) throw new Error(`stored_requests.order: no stored data source is named "${name}"`);
      const source = await open(opts, deps);
      if (source.close !== undefined) closers.push(source.close);
      if (source.watchChanges !== undefined) watchers.push(source.watchChanges);
      if (source.storedRequests !== undefined) requestLinks.push({ name, fetcher: source.storedRequests });
      if (source.accounts !== undefined) accountLinks.push({ name, fetcher: source.accounts });
    }
  } catch (err) {
    // Sources opened before the failing one hold watchers and pools: release them.
    await Promise.allSettled(closers.map((close) => close()));
    throw err;
  }

  const requestCache =
    requestLinks.length === 0
      ? undefined
      : createCachedStoredRequestFetcher(createStoredRequestChain(requestLinks, logger.child({ component: 'stored-requests' })), cacheOptions);
  caches.requests = requestCache;
  const configAccounts = createConfigAccountFetcher(opts.accounts.by_id);
  // The configuration alone answers from a map: nothing to cache.
  const accountCache =
    accountLinks.length === 0
      ? undefined
      : createCachedAccountFetcher(createAccountChain([{ name: 'config', fetcher: configAccounts }, ...accountLinks], logger.child({ component: 'accounts' })), cacheOptions);
  caches.accounts = accountCache;
  for (const watch of watchers) {
    watch({
      onChanges: (changes) => {
        requestCache?.evictChanged(changes.filter((c) => c.kind !== 'account'));
        accountCache?.evictChanged(changes.filter((c) => c.kind === 'account'));
      },
      onAllChanged: () => {
        for (const kind of ['request', 'imp', 'account'] as const) deps.onChange(kind, undefined);
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
