import type { Bid, MediaType } from '../../openrtb/types.js';
import { badServerResponse } from '../adapter.js';
import type { ResponseData } from '../adapter.js';
import { decodeBidResponseUntyped, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isObject } from '../json-guards.js';

/**
 * A bid's media type as Kargo says it in `ext.mediaType`: `video` or `native` when it says so,
 * banner for anything else (no ext, an ext that is not an object, a `mediaType` that is not a
 * string, or names another type).
 */
export const kargoBidType = (bid: Bid): MediaType => {
  const ext: unknown = bid.ext;
  const said = isObject(ext) ? ext.mediaType : undefined;
  return said === 'video' || said === 'native' ? said : 'banner';
};

/**
 * Reads Kargo's answer to its call. A 204 is no bids; any other status but 200 is one code-3
 * error worded as Prebid Server's adapter words it (the exchange normally reports statuses
 * itself). Every bid of every seat is kept as sent, typed by {@link kargoBidType}. The currency is
 * `cur`, USD when absent. An answer that does not decode as an OpenRTB bid response gives no bids
 * and one error, code 999 as Go's decoder error has none.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  if (response.status === 204) return { errors: [] };
  if (response.status !== 200) {
    return { errors: [badServerResponse(`Unexpected status code: ${response.status}. Run with request.debug = 1 for more info.`)] };
  }
  const decoded = decodeBidResponseUntyped(response);
  if ('answer' in decoded) return decoded.answer;
  return readBids(decoded.body, (bid) => ({ bid, type: kargoBidType(bid) }));
};
