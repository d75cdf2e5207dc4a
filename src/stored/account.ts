import { AppError, ErrorCode } from '../core/app-error.js';
import { mapMaybe } from '../core/maybe-promise.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { accountSettingsProblems } from './account-schema.js';
import type { Account, AccountDefaults, AccountSettings } from './account-schema.js';
import { deepFreeze } from './deep-freeze.js';
import { InvalidStoredData } from './errors.js';
import { isObject } from '../core/json-object.js';

export type { Account, AccountDefaults, AccountSettings } from './account-schema.js';

/** Per-lookup options of the stored-data ports. */
export interface FetchOptions {
  /** Gives up (rejecting with `BACKEND_TIMEOUT`) when this aborts, e.g. at the auction's deadline. */
  readonly signal?: AbortSignal;
}

/**
 * Port: where accounts' own settings come from (configuration, files, Postgres, an HTTP service;
 * a chain of them behind a cache).
 *
 * Contract: `fetch` gives the settings of a known account, checked against the account schema
 * (`AccountSettingsSchema`), or `undefined` for an unknown one. It answers directly when it can
 * (configuration, a cache hit: the `/event` path then costs no promise), else with a promise: the
 * one read port of this folder that keeps `MaybePromise`, because it is on the hot path.
 * Failures (thrown, or rejected): `BACKEND_FAILURE` when the source fails or holds settings that
 * break the schema (the message names every problem; such settings are never used),
 * `BACKEND_TIMEOUT` when it does not answer in time. The returned object is shared and must not
 * be modified. Safe for concurrent use.
 */
export interface AccountFetcher {
  fetch(id: string, opts?: FetchOptions): MaybePromise<AccountSettings | undefined>;
}

export interface AccountResolverOptions {
  readonly fetcher: AccountFetcher;
  /** `accounts.defaults`: complete settings every account starts from. */
  readonly defaults: AccountDefaults;
  /** `accounts.required`: refuse accounts the fetcher does not know. */
  readonly required: boolean;
}

/**
 * Resolves an account id to its effective settings; `UNAUTHORIZED` for an unknown id when accounts
 * are required. Answers (and fails) directly when the fetcher does, else with a promise. The
 * account is shared and frozen.
 */
export type AccountResolver = (id: string, opts?: FetchOptions) => MaybePromise<Account>;

/**
 * The merged account is computed once per fetched settings object (the fetcher's cache, or the
 * configuration, hands out the same object while it holds it), not per request: a hot account
 * costs a map lookup. Unknown accounts get the defaults with their id.
 */
export const createAccountResolver = (opts: AccountResolverOptions): AccountResolver => {
  const merged = new WeakMap<AccountSettings, Account>();
  const defaults = deepFreeze({ ...opts.defaults });
  return (id, fetchOpts) =>
    mapMaybe(opts.fetcher.fetch(id, fetchOpts), (own) => {
      if (own === undefined) {
        if (opts.required) throw new AppError(ErrorCode.UNAUTHORIZED, `Unauthorized account id: ${id}`);
        return Object.freeze({ id, ...defaults });
      }
      const known = merged.get(own);
      // One settings object serves one id in practice; a second id sharing it is merged anew.
      if (known !== undefined && known.id === id) return known;
      const account = deepFreeze({ id, ...mergeSettings(defaults, own) });
      merged.set(own, account);
      return account;
    });
};

/**
 * A source's settings of one account, checked against the schema: an `InvalidStoredData`
 * (`BACKEND_FAILURE`) naming every problem when they break it, so they are never used. `source`
 * names where they came from (`file`, `postgres`, `http`) for whoever fixes them.
 */
export const checkedAccountSettings = (id: string, value: unknown, source: string): AccountSettings => {
  const problems = accountSettingsProblems(value);
  if (problems.length > 0) throw new InvalidStoredData(`account '${id}' from ${source} has invalid settings: ${problems.join('; ')}`);
  return deepFreeze(value as AccountSettings);
};

/** `checkedAccountSettings` of JSON text. */
export const parseAccountSettings = (id: string, text: string, source: string): AccountSettings => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidStoredData(`account '${id}' from ${source} is not valid JSON`);
  }
  return checkedAccountSettings(id, value, source);
};

/** Deep merge: objects key by key, anything else (including arrays) replaced; undefined keeps the default. */
export const mergeSettings = <T>(defaults: T, own: unknown): T => {
  if (!isObject(defaults) || !isObject(own)) return own === undefined ? defaults : (own as T);
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(own)) {
    if (v !== undefined) out[k] = mergeSettings(out[k], v);
  }
  return out as T;
};

