import type { Bid, BidRequest, MediaType } from '../../openrtb/types.js';
import { badInput } from '../adapter.js';
import type { RequestData, ResponseData, TypedBid } from '../adapter.js';
import { decodeBidResponse, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent } from '../json-guards.js';
import { goQueryUnescape } from './query-unescape.js';

/**
 * Reads Sovrn's answer to one call. Sovrn URL-encodes its markup: each bid's `adm` is decoded
 * (`+` and `%XX`), and a bid whose `adm` does not decode is dropped without an error. A bid is
 * video when its imp has a video, banner otherwise; a bid for an imp the call did not carry is
 * dropped with a bad-input error. The currency is `cur`, USD when absent.
 */
export const makeBids = (request: BidRequest, call: RequestData, response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  // Only the imps sent in this call count, as Prebid Server's adapter looks them up in the request it cut down.
  const sent = new Set(call.impIds);
  return readBids(decoded.body, (raw, errors): TypedBid | undefined => {
    const adm = goQueryUnescape(raw.adm ?? '');
    if (adm === undefined) return undefined;
    const imp = sent.has(raw.impid) ? request.imp.find((i) => i.id === raw.impid) : undefined;
    if (imp === undefined) {
      errors.push(badInput(`Imp ID ${raw.impid ?? ''} in bid didn't match with any imp in the original request`));
      return undefined;
    }
    const type: MediaType = isAbsent(imp.video) ? 'banner' : 'video';
    const bid: Bid = raw.adm === undefined || raw.adm === null ? raw : { ...raw, adm };
    return { bid, type };
  });
};
