import type { Bid, MediaType } from '../../openrtb/types.js';
import { BidderErrorCode, badServerResponse } from '../adapter.js';
import type { BidderError, ResponseData } from '../adapter.js';
import { decodeBidResponse, inUsd, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent, isObject } from '../json-guards.js';

const MEDIA_TYPES: ReadonlySet<string> = new Set<MediaType>(['banner', 'video', 'audio', 'native']);

/**
 * A bid's media type from its `ext.prebid.type`, or the error Prebid Server gives: a bid without
 * a readable `ext.prebid` cannot be typed (code 3), a type that is no media type is invalid (an
 * untyped error there, code 999 here).
 */
export const bidMediaType = (bid: Bid): MediaType | BidderError => {
  const ext: unknown = bid.ext;
  const prebid = isObject(ext) ? ext.prebid : undefined;
  const type = isObject(prebid) ? prebid.type : undefined;
  if (!isObject(prebid) || (!isAbsent(type) && typeof type !== 'string')) {
    return badServerResponse(`Failed to parse bid mediatype for impression "${typeof bid.impid === 'string' ? bid.impid : ''}"`);
  }
  const name = typeof type === 'string' ? type : '';
  if (MEDIA_TYPES.has(name)) return name as MediaType;
  return { code: BidderErrorCode.UNKNOWN, message: `invalid BidType: ${name}` };
};

/**
 * Reads Sharethrough's answer to one call: each bid typed by its `ext.prebid.type` and kept as
 * sent; a bid that cannot be typed is dropped with the error {@link bidMediaType} gives. Bids
 * are always in USD: Sharethrough's `cur` is not read, as in Prebid Server.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  const read = readBids(decoded.body, (bid, errors) => {
    const type = bidMediaType(bid);
    if (typeof type !== 'string') {
      errors.push(type);
      return undefined;
    }
    return { bid, type };
  });
  return inUsd(read);
};
