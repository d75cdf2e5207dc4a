import type { Bid, MediaType } from '../openrtb/types.js';

/** A valid bid as the exchange carries it: priced in the auction's currency, adjusted. */
export interface AuctionBid {
  /** The bidder code (seat) it answers for. */
  readonly bidder: string;
  /** The bid with `price` converted to the auction's currency and adjusted. */
  readonly bid: Bid;
  readonly type: MediaType;
  /** The price and currency the bidder sent. */
  readonly originalPrice: number;
  readonly originalCurrency: string;
  readonly dealPriority?: number;
  readonly video?: { readonly duration?: number; readonly primaryCategory?: string };
}
