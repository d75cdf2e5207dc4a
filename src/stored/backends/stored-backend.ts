import type { Logger } from '../../core/logger.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { AccountFetcher, AccountSettings } from '../account.js';
import type { StoredChange, StoredKind } from '../fetcher-cache.js';
import type { StoredRequestFetcher } from '../stored-request-fetcher.js';

/*
 * What a stored data source is to the code that chains them: a factory, named in
 * `stored_requests.order`, that reads its own keys of the three configuration sections and opens
 * the fetchers it has something for. The sections have the configuration's shape (snake_case),
 * so the composition root hands them over as they are.
 */

/** The names `stored_requests.order` accepts; one registry entry each (`builtin.ts`). */
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

/** The `stored_requests`, `stored_imps` and `accounts` sections, each source's keys under its name. */
export interface StoredDataSections {
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
}

/** Plain collaborators every source factory gets. */
export interface StoredBackendDeps {
  readonly logger: Logger;
  /** Where a source declares its own instruments (Postgres: ignored change notifications). */
  readonly metrics: Metrics;
  /** Tell the cache in front that `id` (every id when undefined) of `kind` changed at the source. */
  readonly onChange: (kind: StoredKind, id: string | undefined) => void;
  /**
   * `stored_imps.filesystem.directory` is its default, which a default install does not have:
   * its absence is then logged at debug, not warned (a folder the operator named is warned).
   */
  readonly impsDirectoryIsDefault: boolean;
}

/** What a source opened: a fetcher per port it serves (none when its keys leave it off), and how to release it. */
export interface StoredBackend {
  readonly storedRequests?: StoredRequestFetcher;
  readonly accounts?: AccountFetcher;
  /** Stops watching, closes pools and agents; called once, at shutdown. */
  readonly close?: () => Promise<void>;
  /**
   * For a source that learns of changes by id (Postgres): called once the caches exist, with
   * what drops changed entries from them (`onChanges`) or everything (`onAllChanged`, when
   * changes may have been missed).
   */
  readonly watchChanges?: (on: StoredChangeHandlers) => void;
}

/** How a source tells the caches what changed at it. */
export interface StoredChangeHandlers {
  readonly onChanges: (changes: readonly StoredChange[]) => void;
  readonly onAllChanged: () => void;
}

/**
 * Opens one source from its keys of the sections. It may reject for a configuration it cannot
 * work with (start-up then fails with that message); a backend that is merely unreachable should
 * open anyway and fail its lookups (the chain passes over it) until it is reachable.
 */
export type StoredBackendFactory = (sections: StoredDataSections, deps: StoredBackendDeps) => Promise<StoredBackend>;
