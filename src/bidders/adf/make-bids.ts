import type { Bid, MediaType } from '../../openrtb/types.js';
import { badInput, badServerResponse, BidderErrorCode } from '../adapter.js';
import type { BidderError, ResponseData } from '../adapter.js';
import { decodeBidResponseUntyped, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent, isObject } from '../json-guards.js';

const BID_TYPES: ReadonlySet<string> = new Set<MediaType>(['banner', 'video', 'audio', 'native']);

/**
 * A bid's media type, from `ext.prebid.type` alone (Adform always says). A bid whose ext has no
 * readable `prebid` object is refused naming its imp; a type Prebid does not know is refused
 * naming the type. Both are plain errors in Go, so they carry no code of their own (999).
 */
export const bidType = (bid: Bid): MediaType | BidderError => {
  const ext: unknown = bid.ext;
  const prebid = isObject(ext) ? ext.prebid : undefined;
  // A `type` that is not a string fails Go's decoding of the whole ext, as a missing prebid does.
  if (!isObject(prebid) || (!isAbsent(prebid.type) && typeof prebid.type !== 'string')) {
    return { code: BidderErrorCode.BAD_SERVER_RESPONSE, message: `Failed to parse impression "${String(bid.impid ?? '')}" mediatype` };
  }
  const type = typeof prebid.type === 'string' ? prebid.type : '';
  if (BID_TYPES.has(type)) return type as MediaType;
  return { code: BidderErrorCode.UNKNOWN, message: `invalid BidType: ${type}` };
};

/**
 * Reads Adform's answer for its call. 204 is no bids; 400 and any other status but 200 are
 * worded as Prebid Server's adapter words them (the exchange normally reports statuses itself).
 * Every bid is kept as sent, typed by {@link bidType}; one that has no type is left out with an
 * error. The currency is `cur`, USD when absent (Go leaves it empty, which its exchange reads as
 * USD). An answer that does not decode as an OpenRTB bid response gives no bids and one error,
 * code 999 as Go's decoder error has none.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  if (response.status === 400) return { errors: [badInput('Unexpected status code: 400. Bad request from publisher.')] };
  if (response.status !== 200 && response.status !== 204) return { errors: [badServerResponse(`Unexpected status code: ${response.status}.`)] };
  const decoded = decodeBidResponseUntyped(response);
  if ('answer' in decoded) return decoded.answer;
  return readBids(decoded.body, (bid, errors) => {
    const type = bidType(bid);
    if (typeof type === 'string') return { bid, type };
    errors.push(type);
    return undefined;
  });
};
