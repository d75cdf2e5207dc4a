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

/**
 * The targeting key-values of one bid, as Prebid Server writes them in
 * `seatbid[].bid[].ext.prebid.targeting`: the winner's keys (`hb_pb`...) when it won and winners
 * are included, its bidder keys (`hb_pb_<bidder>`...) when bidder keys are included or it is a
 * deal and deals are always included. `undefined` when it gets none.
 */
export const bidTargeting = (
  b: AuctionBid,
  won: boolean,
  priceBucket: string,
  cache: BidCacheIds,
  location: CacheLocation | undefined,
  opts: TargetingOptions,
): Record<string, string> | undefined => {
  const winnerKeys = won && opts.includeWinners;
  const bidderKeys = opts.includeBidderKeys || (opts.alwaysIncludeDeals && isDeal(b));
  if (!winnerKeys && !bidderKeys) return undefined;
  const values: [string, string][] = [
    ['pb', priceBucket],
    ['bidder', b.bidder],
  ];
  const { w, h } = b.bid;
  if (typeof w === 'number' && typeof h === 'number' && w > 0 && h > 0) values.push(['size', `${w}x${h}`]);
  if (isDeal(b)) values.push(['deal', b.bid.dealid!]);
  if (cache.cacheId !== undefined) values.push(['cache_id', cache.cacheId]);
  if (cache.vastCacheId !== undefined) values.push(['uuid', cache.vastCacheId]);
  if (location !== undefined && (cache.cacheId !== undefined || cache.vastCacheId !== undefined)) {
    values.push(['cache_host', location.host], ['cache_path', location.path]);
  }
  if (opts.env !== undefined) values.push(['env', opts.env]);
  if (opts.includeFormat) values.push(['format', b.type]);

  const targeting: Record<string, string> = {};
  for (const [name, value] of values) {
    const key = `${opts.prefix}_${name}`;
    if (winnerKeys) targeting[cut(key, opts.maxKeyLength)] = value;
    if (bidderKeys) targeting[cut(`${key}_${b.bidder}`, opts.maxKeyLength)] = value;
  }
  return targeting;
};

const cut = (key: string, max: number): string => (key.length > max ? key.slice(0, max) : key);
