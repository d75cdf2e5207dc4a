import { AppError, ErrorCode } from '../core/app-error.js';
import type { AccountFetcher } from './account.js';
import type { StoredRequestFetcher } from './stored-request-fetcher.js';

/** The kinds of id the stored-data layer is asked for, as a refusal names them. */
export type IdKind = 'stored request' | 'stored imp' | 'account';

/**
 * Throws `AppError(BAD_REQUEST)` when `id` is longer than `maxLength` characters. The message
 * names the kind and the limit, never the id: echoing a huge id back is what the limit prevents.
 */
export const checkIdLength = (kind: IdKind, id: string, maxLength: number): void => {
  if (id.length > maxLength) throw new AppError(ErrorCode.BAD_REQUEST, `Invalid ${kind} id: longer than the limit of ${maxLength} characters`);
};

/**
 * `fetcher` behind the id limit (`stored_requests.max_id_length`): a lookup naming any id (or
 * scoping account) longer than `maxLength` rejects with `BAD_REQUEST` before any cache or source
 * is asked, so no id beyond the limit is ever held in memory past its request. Ids come straight
 * from requests (`ext.prebid.storedrequest.id`, AMP's `tag_id` and `account`).
 */
export const limitStoredRequestIds = (fetcher: StoredRequestFetcher, maxLength: number): StoredRequestFetcher => ({
  fetchRequests: async (requestIds, impIds, opts) => {
    for (const id of requestIds) checkIdLength('stored request', id, maxLength);
    for (const id of impIds) checkIdLength('stored imp', id, maxLength);
    if (opts?.accountId !== undefined) checkIdLength('account', opts.accountId, maxLength);
    return fetcher.fetchRequests(requestIds, impIds, opts);
  },
});

/**
 * `fetcher` behind the id limit: an account id longer than `maxLength` throws `BAD_REQUEST`
 * directly (the port allows a thrown failure), before any cache or source is asked. Every account
 * lookup (auctions, AMP, `/event`, `/vtrack`) goes through the one fetcher this wraps.
 */
export const limitAccountIds = (fetcher: AccountFetcher, maxLength: number): AccountFetcher => ({
  fetch: (id, opts) => {
    checkIdLength('account', id, maxLength);
    return fetcher.fetch(id, opts);
  },
});
