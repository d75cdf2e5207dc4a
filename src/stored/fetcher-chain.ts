import { AppError, ErrorCode } from '../core/app-error.js';
import { throttledLog } from '../core/log-throttle.js';
import type { Logger } from '../core/logger.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { AccountFetcher, AccountSettings, FetchOptions } from './account.js';
import { asBackendError, backendTimeout, isInvalidStoredData } from './errors.js';
import type { StoredData, StoredFetchOptions, StoredRequestFetcher } from './stored-request-fetcher.js';

/** A source in a chain, with the name its failures are logged under. */
export interface ChainLink<F> {
  readonly name: string;
  readonly fetcher: F;
}

interface Failure {
  readonly name: string;
  readonly error: AppError;
}

/**
 * The sources in their configured order: each asked only for what the ones before it did not
 * have; the first that has an id answers for it. A source that fails or times out is logged
 * (throttled) and the next one is asked. What no source has is missing, unless a source failed:
 * the id may live there, so the lookup fails (`chainFailure`) rather than call it missing.
 * Stored data that breaks the rules (`InvalidStoredData`) fails the lookup at once: it is wrong,
 * not unreachable.
 */
export const createStoredRequestChain = (links: readonly ChainLink<StoredRequestFetcher>[], logger: Logger): StoredRequestFetcher => {
  const report = failureLog(links, logger);
  return {
    fetchRequests: async (requestIds, impIds, opts: StoredFetchOptions = {}) => {
      let wantRequests = unique(requestIds);
      let wantImps = unique(impIds);
      const requests = new Map<string, string>();
      const imps = new Map<string, string>();
      const failures: Failure[] = [];
      for (const link of links) {
        if (wantRequests.length === 0 && wantImps.length === 0) break;
        if (opts.signal?.aborted) throw backendTimeout('stored requests');
        let found: StoredData;
        try {
          found = await link.fetcher.fetchRequests(wantRequests, wantImps, opts);
        } catch (err) {
          if (isInvalidStoredData(err)) throw err;
          failures.push({ name: link.name, error: asBackendError(link.name, err) });
          report(link.name, failures.at(-1)?.error);
          continue;
        }
        for (const id of wantRequests) take(found.requests, requests, id);
        for (const id of wantImps) take(found.imps, imps, id);
        wantRequests = wantRequests.filter((id) => !requests.has(id));
        wantImps = wantImps.filter((id) => !imps.has(id));
      }
      if ((wantRequests.length > 0 || wantImps.length > 0) && failures.length > 0) throw chainFailure('stored requests', failures);
      return { requests, imps, missing: [...wantRequests, ...wantImps] };
    },
  };
};

/**
 * Accounts from the sources in order, as `createStoredRequestChain` does for stored requests.
 * Answers directly while the sources do (configuration, a cache): the `/event` path stays
 * promise-free.
 */
export const createAccountChain = (links: readonly ChainLink<AccountFetcher>[], logger: Logger): AccountFetcher => {
  const report = failureLog(links, logger);
  const ask = (i: number, id: string, opts: FetchOptions | undefined, failures: Failure[]): MaybePromise<AccountSettings | undefined> => {
    const link = links[i];
    if (link === undefined) {
      if (failures.length > 0) throw chainFailure('accounts', failures);
      return undefined;
    }
    if (opts?.signal?.aborted) throw backendTimeout('accounts');
    const failed = (err: unknown): MaybePromise<AccountSettings | undefined> => {
      if (isInvalidStoredData(err)) throw err;
      const error = asBackendError(link.name, err);
      failures.push({ name: link.name, error });
      report(link.name, error);
      return ask(i + 1, id, opts, failures);
    };
    let answer: MaybePromise<AccountSettings | undefined>;
    try {
      answer = link.fetcher.fetch(id, opts);
    } catch (err) {
      return failed(err);
    }
    if (answer instanceof Promise) return answer.then((found) => (found === undefined ? ask(i + 1, id, opts, failures) : found), failed);
    return answer === undefined ? ask(i + 1, id, opts, failures) : answer;
  };
  return { fetch: (id, opts) => ask(0, id, opts, []) };
};

/** Every source that could have answered failed: a timeout if they all timed out, else a failure. */
const chainFailure = (what: string, failures: readonly Failure[]): AppError => {
  const allTimedOut = failures.every((f) => f.error.code === ErrorCode.BACKEND_TIMEOUT);
  const names = failures.map((f) => f.name).join(', ');
  return new AppError(allTimedOut ? ErrorCode.BACKEND_TIMEOUT : ErrorCode.BACKEND_FAILURE, `${what} unavailable: ${names} failed`, { cause: failures[0]?.error });
};

/** One throttled warning per source: a dead backend under load must not flood the log. */
const failureLog = (links: readonly ChainLink<unknown>[], logger: Logger): ((name: string, error: AppError | undefined) => void) => {
  const throttles = new Map(links.map((l) => [l.name, throttledLog()]));
  return (name, error) =>
    throttles.get(name)?.((suppressed) => logger.warn({ source: name, code: error?.code, err: error, suppressed }, 'stored data source failed; asking the next one'));
};

const unique = (ids: readonly string[]): string[] => [...new Set(ids.filter((id) => id !== ''))];

const take = (from: ReadonlyMap<string, string>, to: Map<string, string>, id: string): void => {
  const text = from.get(id);
  if (text !== undefined) to.set(id, text);
};
