import type { AccountFetcher, AccountSettings } from '../account.js';

/** Accounts from the configuration (`accounts.by_id`): a map lookup, nothing to fail. */
export const createConfigAccountFetcher = (byId: Readonly<Record<string, AccountSettings>>): AccountFetcher => {
  const accounts = new Map(Object.entries(byId));
  return { fetch: (id) => accounts.get(id) };
};
