import type { Bid, BidRequest, MediaType } from '../../openrtb/types.js';
import { badServerResponse } from '../adapter.js';
import type { RequestData, ResponseData, TypedBid } from '../adapter.js';
import { answerCurrency, decodeBidResponse } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent, isObject } from '../json-guards.js';
import { buyerId, goJsonText, withBuyerMeta } from './bid-ext.js';
import { isVideoImp } from './imp.js';
import { sentImp } from './make-requests.js';

// The members of Go's `openrtb2.Bid`: a bid is rewritten through it, so others (`adm_native`) go.
const BID_KEYS: readonly string[] = [
  'id', 'impid', 'price', 'nurl', 'burl', 'lurl', 'adm', 'adid', 'adomain', 'bundle', 'iurl', 'cid', 'crid', 'tactic', 'cattax', 'cat',
  'attr', 'apis', 'api', 'protocol', 'qagmediarating', 'language', 'langb', 'dealid', 'w', 'h', 'wratio', 'hratio', 'exp', 'dur',
  'mtype', 'slotinpod', 'ext',
];

const cpmOverrideOf = (debug: unknown): number => (isObject(debug) && typeof debug.cpmoverride === 'number' ? debug.cpmoverride : 0);

/** The CPM each imp's params force (`debug.cpmoverride`), by imp id. */
const impOverrides = (request: BidRequest): Map<string, number> => {
  const out = new Map<string, number>();
  for (const imp of request.imp) {
    const bidder = isObject(imp.ext) ? imp.ext.bidder : undefined;
    if (!isAbsent(bidder) && !isObject(bidder)) continue;
    out.set(imp.id, cpmOverrideOf(isObject(bidder) ? bidder.debug : undefined));
  }
  return out;
};

/** The CPM the request forces for Rubicon (`ext.prebid.bidders.rubicon.debug.cpmoverride`), 0 for none. */
const requestOverride = (request: BidRequest): number => {
  const prebid = isObject(request.ext) ? request.ext.prebid : undefined;
  const bidders = isObject(prebid) ? prebid.bidders : undefined;
  const rubicon = isObject(bidders) ? bidders.rubicon : undefined;
  return cpmOverrideOf(isObject(rubicon) ? rubicon.debug : undefined);
};

const onlyBidKeys = (bid: Record<string, unknown>): Bid => {
  const out: Record<string, unknown> = {};
  for (const key of BID_KEYS) if (Object.hasOwn(bid, key)) out[key] = bid[key];
  return out as Bid;
};

/**
 * Reads Rubicon's answer to one call. Every bid has the media type of the call's imp (video,
 * banner, else native). A seat's `buyer` and `seat` go into each bid's `ext.prebid.meta`; a
 * `debug.cpmoverride` (the imp's params, else the request's) replaces the price; bids priced 0
 * are dropped. A bid id `"0"` takes the answer's `bidid`; a bid without `adm` gets its
 * `adm_native` as JSON text. The currency is `cur`, USD when absent.
 */
export const makeBids = (request: BidRequest, call: RequestData, response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  const body = decoded.body as { seatbid?: unknown; bidid?: unknown };
  const seats = Array.isArray(body.seatbid) ? (body.seatbid as unknown[]) : [];
  for (const [s, seat] of seats.entries()) {
    if (isObject(seat) && !isAbsent(seat.buyer) && typeof seat.buyer !== 'string') return { errors: [badServerResponse(`Bad server response: seatbid[${s}].buyer is not a string`)] };
  }
  const imp = sentImp(call.body);
  const type: MediaType = imp === undefined ? 'native' : isVideoImp(imp) ? 'video' : isAbsent(imp.banner) ? 'native' : 'banner';
  const overrides = impOverrides(request);
  const fallback = requestOverride(request);
  const bidId = typeof body.bidid === 'string' ? body.bidid : '';
  const bids: TypedBid[] = [];
  for (const seat of seats) {
    if (!isObject(seat)) continue;
    const buyer = buyerId(seat.buyer);
    const seatName = typeof seat.seat === 'string' ? seat.seat : '';
    for (const raw of Array.isArray(seat.bid) ? seat.bid : []) {
      const bid: Record<string, unknown> = { ...(isObject(raw) ? raw : {}) };
      const ext = withBuyerMeta(bid.ext, buyer, seatName);
      if (ext !== bid.ext) bid.ext = ext;
      const override = overrides.get(typeof bid.impid === 'string' ? bid.impid : '') || fallback;
      if (override > 0) bid.price = override;
      if (typeof bid.price !== 'number' || bid.price === 0) continue;
      if (bid.id === '0') bid.id = bidId;
      if (typeof bid.adm !== 'string' || bid.adm === '') bid.adm = goJsonText(bid.adm_native ?? null);
      bids.push({ bid: onlyBidKeys(bid), type });
    }
  }
  return { response: { currency: answerCurrency(decoded.body), bids }, errors: [] };
};
