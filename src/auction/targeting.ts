import type { AuctionBid } from './auction-bid.js';
import { isDeal } from './ranking.js';
import type { ImpRanking } from './ranking.js';

/** The targeting settings of a request (`ext.prebid.targeting`) with Prebid Server's defaults. */
export interface TargetingOptions {
  readonly includeWinners: boolean;
  readonly includeBidderKeys: boolean;
  readonly includeFormat: boolean;
  readonly alwaysIncludeDeals: boolean;
  /** Replaces `hb` at the start of every key. */
  readonly prefix: string;
  /** `hb_env`: `amp` for AMP, `mobile-app` for app requests; absent otherwise. */
  readonly env?: string;
  /** Keys are cut to this many characters (Prebid's ad servers limit key length). */
  readonly maxKeyLength: number;
}

/** What caching gave a bid: ids of its cached JSON and VAST, and the cache's public host and path. */
export interface BidCacheIds {
  readonly cacheId?: string;
  readonly vastCacheId?: string;
}

export interface CacheLocation {
  readonly host: string;
  readonly path: string;
}

/** The bids that carry targeting: each imp's winner and, with bidder keys (or as a deal), each bidder's best. */
export const bidsWithTargeting = (rankings: readonly ImpRanking[], opts: TargetingOptions): AuctionBid[] => {
  const out: AuctionBid[] = [];
  for (const r of rankings) {
    for (const b of r.topByBidder) {
      const winner = b === r.winner;
      if ((winner && opts.includeWinners) || opts.includeBidderKeys || (opts.alwaysIncludeDeals && isDeal(b))) out.push(b);
    }
  }
  return out;
};

/** The names a targeting key is made of: `hb_<name>`, and `hb_<name>_<bidder>` for bidder keys. */
type KeyName = 'pb' | 'bidder' | 'size' | 'deal' | 'cache_id' | 'uuid' | 'cache_host' | 'cache_path' | 'env' | 'format';
const KEY_NAMES: readonly KeyName[] = ['pb', 'bidder', 'size', 'deal', 'cache_id', 'uuid', 'cache_host', 'cache_path', 'env', 'format'];

/** An auction's targeting key strings, prefixed and cut: the winner's, and each bidder's on first use. */
export interface TargetingKeys {
  readonly winner: Readonly<Record<KeyName, string>>;
  ofBidder(bidder: string): Readonly<Record<KeyName, string>>;
}

/**
 * The key strings for `opts`, made once per auction and per bidder rather than once per bid:
 * building and interning ~16 fresh strings per bid was about half of `bidTargeting`'s time at 60
 * bids (docs/performance.md, "Per imp and per bid"). Holds one entry per bidder seen.
 */
export const targetingKeys = (opts: TargetingOptions): TargetingKeys => {
  const keysOf = (suffix: string): Record<KeyName, string> => {
    const keys = {} as Record<KeyName, string>;
    for (const name of KEY_NAMES) keys[name] = cut(`${opts.prefix}_${name}${suffix}`, opts.maxKeyLength);
    return keys;
  };
  const byBidder = new Map<string, Record<KeyName, string>>();
  return {
    winner: keysOf(''),
    ofBidder: (bidder) => {
      let keys = byBidder.get(bidder);
      if (keys === undefined) byBidder.set(bidder, (keys = keysOf(`_${bidder}`)));
      return keys;
    },
  };
};

/**
 * The targeting key-values of one bid, as Prebid Server writes them in
 * `seatbid[].bid[].ext.prebid.targeting`: the winner's keys (`hb_pb`...) when it won and winners
 * are included, its bidder keys (`hb_pb_<bidder>`...) when bidder keys are included or it is a
 * deal and deals are always included. `undefined` when it gets none. `keys` must be made from
 * the same `opts` (an auction passes one for all its bids).
 */
export const bidTargeting = (
  b: AuctionBid,
  won: boolean,
  priceBucket: string,
  cache: BidCacheIds,
  location: CacheLocation | undefined,
  opts: TargetingOptions,
  keys: TargetingKeys = targetingKeys(opts),
): Record<string, string> | undefined => {
  const winnerKeys = won && opts.includeWinners;
  const bidderKeys = opts.includeBidderKeys || (opts.alwaysIncludeDeals && isDeal(b));
  if (!winnerKeys && !bidderKeys) return undefined;
  const own = bidderKeys ? keys.ofBidder(b.bidder) : undefined;
  const targeting: Record<string, string> = {};
  // Each value under the winner's key, then the bidder's, in this order.
  const set = (name: KeyName, value: string): void => {
    if (winnerKeys) targeting[keys.winner[name]] = value;
    if (own !== undefined) targeting[own[name]] = value;
  };
  set('pb', priceBucket);
  set('bidder', b.bidder);
  const { w, h } = b.bid;
  if (typeof w === 'number' && typeof h === 'number' && w > 0 && h > 0) set('size', `${w}x${h}`);
  if (isDeal(b)) set('deal', b.bid.dealid!);
  if (cache.cacheId !== undefined) set('cache_id', cache.cacheId);
  if (cache.vastCacheId !== undefined) set('uuid', cache.vastCacheId);
  if (location !== undefined && (cache.cacheId !== undefined || cache.vastCacheId !== undefined)) {
    set('cache_host', location.host);
    set('cache_path', location.path);
  }
  if (opts.env !== undefined) set('env', opts.env);
  if (opts.includeFormat) set('format', b.type);
  return targeting;
};

const cut = (key: string, max: number): string => (key.length > max ? key.slice(0, max) : key);
