import type { TypedBid } from '../bidders/adapter.js';
import type { Imp } from '../openrtb/types.js';
import { impMediaTypes } from '../bidders/openrtb-bids.js';

/**
 * Why a bid cannot take part in the auction, or `undefined` when it can. Prebid Server's rules:
 * an id, the impid of an imp this bidder was asked for, a positive price (zero only with a deal),
 * a creative id, and a media type the imp offered (`mtype` when the bidder set it, else the
 * adapter's type).
 */
export const invalidBidReason = (typed: TypedBid, impsById: ReadonlyMap<string, Imp>): string | undefined => {
  const bid = typed.bid;
  if (typeof bid.id !== 'string' || bid.id === '') return "bid missing required field 'id'";
  const name = `Bid "${bid.id}"`;
  if (typeof bid.impid !== 'string' || bid.impid === '') return `${name} missing required field 'impid'`;
  const imp = impsById.get(bid.impid);
  if (imp === undefined) return `${name} has impid "${bid.impid}", which is not an imp of the request`;
  if (typeof bid.price !== 'number' || !Number.isFinite(bid.price) || bid.price < 0 || (bid.price === 0 && !bid.dealid)) {
    return `${name} does not contain a positive (or zero if there is a deal) 'price'`;
  }
  if (typeof bid.crid !== 'string' || bid.crid === '') return `${name} missing creative ID`;
  if (!impMediaTypes(imp).includes(typed.type)) return `${name} is a ${typed.type} bid, but imp "${imp.id}" offers no ${typed.type}`;
  return undefined;
};
