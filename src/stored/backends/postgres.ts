import pg from 'pg';
import type { Pool } from 'pg';
import { isAppError } from '../../core/app-error.js';
import type { Logger } from '../../core/logger.js';
import { parseAccountSettings } from '../account.js';
import type { AccountFetcher, AccountSettings } from '../account.js';
import { backendFailure, backendTimeout, untilAborted } from '../errors.js';
import type { StoredRequestFetcher } from '../stored-request-fetcher.js';

export { migrate, MIGRATIONS } from './postgres-schema.js';

export interface PostgresPoolOptions {
  readonly connectionString: string;
  readonly poolSize: number;
  /** Bounds a lookup: waiting for a connection, and the statement (server side and client side). */
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * The connection pool shared by the stored-request and account fetchers. Idle connections that
 * break are logged and replaced, never thrown into the process.
 */
export const createPostgresPool = (opts: PostgresPoolOptions): Pool => {
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.poolSize,
    connectionTimeoutMillis: opts.timeoutMs,
    // The server cancels a statement that overruns; the client gives up on one that never answers.
    statement_timeout: opts.timeoutMs,
    query_timeout: opts.timeoutMs * 2,
    idleTimeoutMillis: 30_000,
    application_name: 'openbid',
  });
  pool.on('error', (err) => opts.logger.warn({ err: { message: err.message } }, 'an idle postgres connection failed; it is replaced on demand'));
  return pool;
};

export interface PostgresFetcherOptions {
  readonly pool: Pool;
  readonly timeoutMs: number;
}

// One statement for both kinds. For each id, the account's own row wins over the shared one
// (`account_id` ''): ordering by account_id DESC puts the non-empty one first.
const STORED_SQL = `
  SELECT 'r' AS kind, id, data FROM (
    SELECT DISTINCT ON (id) id, data::text AS data FROM stored_requests
    WHERE id = ANY($1::text[]) AND account_id IN ('', $3) ORDER BY id, account_id DESC) r
  UNION ALL
  SELECT 'i' AS kind, id, data FROM (
    SELECT DISTINCT ON (id) id, data::text AS data FROM stored_imps
    WHERE id = ANY($2::text[]) AND account_id IN ('', $3) ORDER BY id, account_id DESC) i`;

const ACCOUNT_SQL = 'SELECT config::text AS config FROM accounts WHERE id = $1';

/**
 * Stored requests and imps from the `stored_requests` and `stored_imps` tables (see
 * postgres-schema.ts), one statement per lookup. Without `accountId`, only shared rows match.
 */
export const createPostgresStoredRequestFetcher = (opts: PostgresFetcherOptions): StoredRequestFetcher => ({
  fetchRequests: async (requestIds, impIds, fetchOpts = {}) => {
    const wantRequests = [...new Set(requestIds.filter((id) => id !== ''))];
    const wantImps = [...new Set(impIds.filter((id) => id !== ''))];
    const requests = new Map<string, string>();
    const imps = new Map<string, string>();
    if (wantRequests.length + wantImps.length > 0) {
      const result = await bounded(
        opts.pool.query<{ kind: 'r' | 'i'; id: string; data: string }>({
          name: 'openbid-stored-data',
          text: STORED_SQL,
          values: [wantRequests, wantImps, fetchOpts.accountId ?? ''],
        }),
        opts.timeoutMs,
        fetchOpts.signal,
      );
      for (const row of result.rows) (row.kind === 'r' ? requests : imps).set(row.id, row.data);
    }
    const missing = [...wantRequests.filter((id) => !requests.has(id)), ...wantImps.filter((id) => !imps.has(id))];
    return { requests, imps, missing };
  },
});

/** Accounts from the `accounts` table, each checked against the account schema. */
export const createPostgresAccountFetcher = (opts: PostgresFetcherOptions): AccountFetcher => ({
  fetch: async (id, fetchOpts): Promise<AccountSettings | undefined> => {
    const result = await bounded(opts.pool.query<{ config: string }>({ name: 'openbid-account', text: ACCOUNT_SQL, values: [id] }), opts.timeoutMs, fetchOpts?.signal);
    const row = result.rows[0];
    return row === undefined ? undefined : parseAccountSettings(id, row.config, 'postgres');
  },
});

/**
 * The lookup within `timeoutMs` (and the caller's signal), as an AppError either way. The pool's
 * own timeouts end the abandoned work.
 */
const bounded = async <T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(backendTimeout('postgres', timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([untilAborted(work, signal, 'postgres'), deadline]);
  } catch (err) {
    throw asPostgresError(err, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
};

const TIMEOUT_MESSAGES = ['timeout exceeded when trying to connect', 'Query read timeout', 'Connection terminated due to connection timeout'];

const asPostgresError = (err: unknown, timeoutMs: number): unknown => {
  if (isAppError(err) || !(err instanceof Error)) return err;
  // 57014: query_canceled, what statement_timeout raises.
  if ((err as { code?: unknown }).code === '57014' || TIMEOUT_MESSAGES.some((m) => err.message.includes(m))) return backendTimeout('postgres', timeoutMs);
  return backendFailure('postgres', err.message, err);
};
