import type { FetchOptions } from './account.js';

/** Per-lookup options of `StoredRequestFetcher`. */
export interface StoredFetchOptions extends FetchOptions {
  /**
   * The account the ids belong to (AMP's `account`): a source that scopes ids by account (Postgres)
   * prefers the account's own entry, then one shared by every account. Sources that do not scope
   * (files, HTTP) ignore it.
   */
  readonly accountId?: string;
}

/** What a lookup found: JSON text by id, and the ids no source has. */
export interface StoredData {
  /** Stored requests by id, as JSON text (an object), exactly as stored where the source allows. */
  readonly requests: ReadonlyMap<string, string>;
  /** Stored imps by id, as JSON text (an object). */
  readonly imps: ReadonlyMap<string, string>;
  /** Ids found nowhere: request ids first, then imp ids, each once, in the order asked. */
  readonly missing: readonly string[];
}

/**
 * Port: stored requests (`ext.prebid.storedrequest.id`, AMP's `tag_id`) and stored imps
 * (`imp[].ext.prebid.storedrequest.id`) by id.
 *
 * Contract: one call looks up every id it is given (duplicates and empty ids are ignored) and
 * answers each as found (its JSON text; text, so caches hold immutable strings and nothing is
 * re-serialised per request) or missing. A missing id is data, not an error. Failures reject:
 * `BACKEND_FAILURE` when the source fails (down, bad answer), `BACKEND_TIMEOUT` when it does not
 * answer within its time budget or `opts.signal` aborts first. Safe for concurrent calls;
 * implementations may cache and share lookups.
 */
export interface StoredRequestFetcher {
  fetchRequests(requestIds: readonly string[], impIds: readonly string[], opts?: StoredFetchOptions): Promise<StoredData>;
}

/** A source that can be closed (watchers, connection pools). */
export interface Closable {
  close(): Promise<void>;
}

/** A lookup with nothing found: every id missing. */
export const nothingFound = (requestIds: readonly string[], impIds: readonly string[]): StoredData => ({
  requests: new Map(),
  imps: new Map(),
  missing: [...new Set(requestIds.filter((id) => id !== ''))].concat([...new Set(impIds.filter((id) => id !== ''))]),
});
