import type { Bid, BidResponse, Imp, MediaType } from '../openrtb/types.js';
import { badServerResponse } from './adapter.js';
import type { BidderError, BidderResponse, TypedBid } from './adapter.js';
import { jsonProblem, parseBoundedJson } from '../core/bounded-json.js';
import { isObject } from './json-guards.js';
import { answerCurrency } from './go-bid-response.js';

const MTYPE: Readonly<Record<number, MediaType>> = { 1: 'banner', 2: 'video', 3: 'audio', 4: 'native' };

/** The media types an imp offers, in OpenRTB's order. */
export const impMediaTypes = (imp: Imp): MediaType[] => {
  const types: MediaType[] = [];
  if (imp.banner !== undefined) types.push('banner');
  if (imp.video !== undefined) types.push('video');
  if (imp.audio !== undefined) types.push('audio');
  if (imp.native !== undefined) types.push('native');
  return types;
};

/**
 * A bid's media type: its `mtype` when set (OpenRTB 2.6), else the imp's only type, else
 * guessed from the markup (VAST is video, a native JSON object is native, anything else banner).
 * `undefined` when `mtype` names no known type.
 */
export const bidMediaType = (bid: Bid, imp: Imp | undefined): MediaType | undefined => {
  if (bid.mtype !== undefined && bid.mtype !== 0) return MTYPE[bid.mtype];
  const offered = imp === undefined ? [] : impMediaTypes(imp);
  if (offered.length === 1) return offered[0];
  const adm = (bid.adm ?? '').trimStart();
  if (offered.includes('video') && /^<(\?xml|VAST)/i.test(adm)) return 'video';
  if (offered.includes('native') && (adm.startsWith('{"native"') || adm.startsWith('{"assets"'))) return 'native';
  return offered.includes('banner') || offered.length === 0 ? 'banner' : offered[0];
};

/**
 * Reads a standard OpenRTB 2.6 bid response (the `generic` adapter's, and the shape most bidders
 * answer in). Bids are typed with {@link bidMediaType} and filed under the bidder's code; a body
 * that is not a bid response is a bad-server-response error.
 */
export const readOpenRtbBids = (body: string, imps: readonly Imp[]): { response?: BidderResponse; errors: BidderError[] } => {
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(body);
  } catch (err) {
    return { errors: [badServerResponse(`Bad server response: ${jsonProblem(err)}`)] };
  }
  if (!isObject(parsed)) return { errors: [badServerResponse('Bad server response: not a JSON object')] };
  const response = parsed as Partial<BidResponse>;
  if (response.seatbid !== undefined && !Array.isArray(response.seatbid)) {
    return { errors: [badServerResponse('Bad server response: seatbid is not an array')] };
  }
  const impsById = new Map(imps.map((imp) => [imp.id, imp]));
  const bids: TypedBid[] = [];
  const errors: BidderError[] = [];
  for (const seat of response.seatbid ?? []) {
    if (!isObject(seat) || !Array.isArray(seat.bid)) {
      errors.push(badServerResponse('Bad server response: a seatbid has no bid array'));
      continue;
    }
    for (const bid of seat.bid as unknown[]) {
      if (!isObject(bid)) {
        errors.push(badServerResponse('Bad server response: a bid is not a JSON object'));
        continue;
      }
      const typed = bid as unknown as Bid;
      const type = bidMediaType(typed, impsById.get(typed.impid));
      if (type === undefined) {
        errors.push(badServerResponse(`Bid "${String(typed.id)}" has an unknown mtype ${String(typed.mtype)}`));
        continue;
      }
      // `seatbid[].seat` is the buyer's seat in OpenRTB (an agency, a DSP account), not a Prebid
      // bidder: the bids stay under the bidder's code, as Prebid Server files them.
      bids.push({ bid: typed, type });
    }
  }
  return { response: { currency: answerCurrency(response), bids }, errors };
};
