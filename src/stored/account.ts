import { AppError, ErrorCode } from '../core/app-error.js';
import { mapMaybe } from '../core/maybe-promise.js';
import type { MaybePromise } from '../core/maybe-promise.js';

/** An account's effective settings: the configured defaults with the account's own on top. */
export interface Account {
  readonly id: string;
  readonly events: { readonly enabled: boolean };
}

/** What a source knows of one account: any subset of the settings. */
export type AccountSettings = { readonly [K in keyof Omit<Account, 'id'>]?: Partial<Account[K]> };

/**
 * Port: where accounts' own settings come from (configuration now; a database or an HTTP
 * service later).
 *
 * Contract: `fetch` gives the settings of a known account, `undefined` for an unknown one:
 * directly when the source is in process (configuration), else with a promise. It fails (throws,
 * or rejects) with `BACKEND_FAILURE`/`BACKEND_TIMEOUT` only when the source itself fails. Safe
 * for concurrent use; implementations may cache.
 */
export interface AccountFetcher {
  fetch(id: string): MaybePromise<AccountSettings | undefined>;
}

export interface AccountResolverOptions {
  readonly fetcher: AccountFetcher;
  /** `accounts.defaults`: complete settings every account starts from. */
  readonly defaults: Omit<Account, 'id'>;
  /** `accounts.required`: refuse accounts the fetcher does not know. */
  readonly required: boolean;
}

/**
 * Resolves an account id to its effective settings; `UNAUTHORIZED` for an unknown id when accounts
 * are required. Answers (and fails) directly when the fetcher does, else with a promise.
 */
export type AccountResolver = (id: string) => MaybePromise<Account>;

export const createAccountResolver = (opts: AccountResolverOptions): AccountResolver => (id) =>
  mapMaybe(opts.fetcher.fetch(id), (own) => {
    if (own === undefined && opts.required) throw new AppError(ErrorCode.UNAUTHORIZED, `Unauthorized account id: ${id}`);
    return { id, ...mergeSettings(opts.defaults, own ?? {}) };
  });

/** Deep merge: objects key by key, anything else (including arrays) replaced; undefined keeps the default. */
export const mergeSettings = <T>(defaults: T, own: unknown): T => {
  if (!isPlainObject(defaults) || !isPlainObject(own)) return own === undefined ? defaults : (own as T);
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(own)) {
    if (v !== undefined) out[k] = mergeSettings(out[k], v);
  }
  return out as T;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
