import type { TypedBid } from '../bidders/adapter.js';
import type { Imp } from '../openrtb/types.js';
import { impMediaTypes } from '../bidders/openrtb-bids.js';
import { bidExtProblem } from './bid-ext.js';

/** Prebid Server's price rule: a finite number above 0, or 0 with a deal. */
const isUsablePrice = (price: unknown, dealid: unknown): boolean =>
  typeof price === 'number' && Number.isFinite(price) && (price > 0 || (price === 0 && Boolean(dealid)));

/**
 * Why a bid cannot take part in the auction, or `undefined` when it can. Prebid Server's rules:
 * an id, the impid of an imp this bidder was asked for, a positive price (zero only with a deal),
 * a creative id, a media type the imp offered (`mtype` when the bidder set it, else the
 * adapter's type), and an `ext` the answer can carry ({@link bidExtProblem}).
 */
export const invalidBidReason = (typed: TypedBid, impsById: ReadonlyMap<string, Imp>): string | undefined => {
  const bid = typed.bid;
  if (typeof bid.id !== 'string' || bid.id === '') return "bid missing required field 'id'";
  const name = `Bid "${bid.id}"`;
  if (typeof bid.impid !== 'string' || bid.impid === '') return `${name} missing required field 'impid'`;
  const imp = impsById.get(bid.impid);
  if (imp === undefined) return `${name} has impid "${bid.impid}", which is not an imp of the request`;
  if (!isUsablePrice(bid.price, bid.dealid)) return `${name} does not contain a positive (or zero if there is a deal) 'price'`;
  if (typeof bid.crid !== 'string' || bid.crid === '') return `${name} missing creative ID`;
  if (!impMediaTypes(imp).includes(typed.type)) return `${name} is a ${typed.type} bid, but imp "${imp.id}" offers no ${typed.type}`;
  const extProblem = bidExtProblem(bid.ext);
  if (extProblem !== undefined) return `${name}: ${extProblem}`;
  return undefined;
};

/**
 * Why a bid's price, once converted to the auction's `currency` and multiplied by its bidder's
 * adjustment factor, cannot take part, or `undefined` when it can. The rule is the one a bid's own
 * price meets (`invalidBidReason`), checked again because an extreme rate or factor can carry a
 * valid price past the largest number (Infinity) or below the smallest (0).
 */
export const invalidPricedBidReason = (bid: { readonly id: string; readonly price: number; readonly dealid?: string }, currency: string): string | undefined =>
  isUsablePrice(bid.price, bid.dealid) ? undefined : `Bid "${bid.id}" does not contain a positive (or zero if there is a deal) 'price' once converted to ${currency} and adjusted (${bid.price})`;
