import type { AuctionBid } from './auction-bid.js';

/**
 * Whether `a` beats `b` for an imp: with `preferDeals`, any deal beats any bid without one (then
 * the higher deal priority, then price); otherwise the higher price. A tie keeps the bid already
 * held, so the earlier bidder in the request wins it: deterministic, where Prebid Server's map
 * order makes it random.
 */
export const beats = (a: AuctionBid, b: AuctionBid, preferDeals: boolean): boolean => {
  if (preferDeals) {
    const aDeal = isDeal(a);
    const bDeal = isDeal(b);
    if (aDeal !== bDeal) return aDeal;
    if (aDeal && (a.dealPriority ?? 0) !== (b.dealPriority ?? 0)) return (a.dealPriority ?? 0) > (b.dealPriority ?? 0);
  }
  return a.bid.price > b.bid.price;
};

export const isDeal = (b: AuctionBid): boolean => typeof b.bid.dealid === 'string' && b.bid.dealid !== '';

/** Per imp: each bidder's best bid (in bidder order), and the winner among them. */
export interface ImpRanking {
  readonly impId: string;
  readonly topByBidder: AuctionBid[];
  readonly winner: AuctionBid;
}

/** Ranks the valid bids of an auction per imp, in the request's imp order. */
export const rankBids = (impIds: readonly string[], bids: readonly AuctionBid[], preferDeals: boolean): ImpRanking[] => {
  const byImp = new Map<string, Map<string, AuctionBid>>();
  for (const b of bids) {
    let top = byImp.get(b.bid.impid);
    if (top === undefined) byImp.set(b.bid.impid, (top = new Map<string, AuctionBid>()));
    const held = top.get(b.bidder);
    if (held === undefined || beats(b, held, preferDeals)) top.set(b.bidder, b);
  }
  const rankings: ImpRanking[] = [];
  for (const impId of impIds) {
    const top = byImp.get(impId);
    if (top === undefined) continue;
    const topByBidder = [...top.values()];
    let winner = topByBidder[0]!;
    for (const b of topByBidder) if (beats(b, winner, preferDeals)) winner = b;
    rankings.push({ impId, topByBidder, winner });
  }
  return rankings;
};
