import type { Bid, MediaType } from '../../openrtb/types.js';
import { BidderErrorCode } from '../adapter.js';
import type { ResponseData } from '../adapter.js';
import { decodeBidResponse, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';

const MTYPE_TYPES: ReadonlyMap<number, MediaType> = new Map<number, MediaType>([
  [1, 'banner'],
  [2, 'video'],
  [3, 'audio'],
  [4, 'native'],
]);

/** A bid's media type from its `mtype`: banner when it has none or names no known type. */
export const bidType = (bid: Bid): MediaType => (typeof bid.mtype === 'number' ? MTYPE_TYPES.get(bid.mtype) : undefined) ?? 'banner';

/**
 * Reads Equativ's answer to its call: every bid as sent, typed by {@link bidType}. The currency
 * is USD whatever `cur` says, as Prebid Server's adapter never reads it. An answer that does not
 * decode as an OpenRTB bid response gives no bids and one error, code 999 as Go's decoder error
 * carries none.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) {
    return { ...decoded.answer, errors: decoded.answer.errors.map((e) => ({ code: BidderErrorCode.UNKNOWN, message: e.message })) };
  }
  const read = readBids(decoded.body, (bid) => ({ bid, type: bidType(bid) }));
  return read.response === undefined ? read : { ...read, response: { ...read.response, currency: 'USD' } };
};
