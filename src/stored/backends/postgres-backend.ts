import type { Logger } from '../../core/logger.js';
import type { PostgresSlice, StoredBackendFactory } from './stored-backend.js';

/**
 * `postgres`: stored requests and imps from `stored_requests.postgres`, accounts too when
 * `accounts.postgres.enabled`; changes made in the database reach the caches through
 * `watchChanges` (LISTEN/NOTIFY and a change-log poll, postgres-changes.ts). Rejects accounts from a database that is not configured.
 * The driver is loaded only when a database is configured (it is MiBs of heap); a database that is
 * not reachable or not migrated yet is logged, not fatal: lookups fail (and the chain passes over
 * it) until it is.
 */
export const postgresBackend: StoredBackendFactory = async ({ storedRequests: sr, accounts: ac }, { logger, metrics }) => {
  if (ac.postgres.enabled && sr.postgres.connection_string === '') {
    throw new Error('accounts.postgres.enabled needs stored_requests.postgres.connection_string');
  }
  if (sr.postgres.connection_string === '') return {};
  const { createPostgresPool, createPostgresStoredRequestFetcher, createPostgresAccountFetcher } = await import('./postgres.js');
  const { watchPostgresChanges } = await import('./postgres-changes.js');
  const slice = sr.postgres;
  const pool = createPostgresPool({ connectionString: slice.connection_string, poolSize: slice.pool_size, timeoutMs: slice.timeout_ms, logger: logger.child({ component: 'postgres' }) });
  // Not awaited: start-up does not wait for the database; this only says early what is wrong.
  pool.query('SELECT 1 FROM stored_requests, stored_imps, accounts LIMIT 0').catch((err: Error) =>
    logger.warn({ err: { message: err.message } }, 'postgres stored data is not usable yet (is the database up, and migrated with `openbid db migrate`?)'),
  );
  const ignored = metrics.counter({
    name: 'openbid_stored_data_changes_ignored_total',
    help: 'Postgres change notifications (via="notify") and change-log rows (via="poll") ignored because they are not what the openbid trigger writes.',
    labelNames: ['via'],
  });
  let watch: { close(): Promise<void> } | undefined;
  return {
    storedRequests: createPostgresStoredRequestFetcher({ pool, timeoutMs: slice.timeout_ms }),
    ...(ac.postgres.enabled ? { accounts: createPostgresAccountFetcher({ pool, timeoutMs: slice.timeout_ms }) } : {}),
    watchChanges: (on) => {
      if (!slice.change_notifications && slice.change_poll_interval_seconds === 0) return;
      watch = watchPostgresChanges({
        connectionString: slice.connection_string,
        pool,
        notifications: slice.change_notifications,
        pollIntervalMs: slice.change_poll_interval_seconds * 1000,
        timeoutMs: slice.timeout_ms,
        logger: logger.child({ component: 'postgres-changes' }),
        onInvalid: (via) => ignored.inc({ via }),
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
