import type { Account } from '../stored/account.js';
import type { AuctionAccount } from './exchange.js';

/**
 * The exchange's view of an account, computed once per account object: the account resolver
 * answers the same object for as long as an account's settings are unchanged, so a WeakMap keyed
 * by it costs one lookup per auction and lets a replaced account's view be collected.
 */
export const createAuctionAccountView = (): ((account: Account) => AuctionAccount) => {
  const views = new WeakMap<Account, AuctionAccount>();
  return (account) => {
    let view = views.get(account);
    if (view === undefined) {
      const { auction } = account;
      view = {
        id: account.id,
        priceGranularity: auction.price_granularity,
        cacheTtl: { bannerSeconds: auction.banner_cache_ttl_seconds, videoSeconds: auction.video_cache_ttl_seconds },
        debugAllowed: auction.debug_allow,
        targetingPrefix: auction.targeting_prefix,
        privacy: account.privacy,
      };
      views.set(account, view);
    }
    return view;
  };
};
