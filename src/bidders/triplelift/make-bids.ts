import type { MediaType } from '../../openrtb/types.js';
import { BidderErrorCode } from '../adapter.js';
import type { ResponseData, TypedBid } from '../adapter.js';
import { decodeBidResponse, inUsd, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent, isObject } from '../json-guards.js';

// TripleLift's formats that are video; every other format is a banner.
const VIDEO_FORMATS: ReadonlySet<number> = new Set([11, 12, 17]);

/**
 * A bid's type from its `ext.triplelift_pb.format`, or why the ext does not read as Go decodes
 * it: the ext must be an object (a bid without one fails too), `triplelift_pb` an object or
 * null, `format` an integer or null.
 */
export const bidType = (ext: unknown): MediaType | { error: string } => {
  if (!isObject(ext)) return { error: `bid.ext is ${ext === undefined ? 'missing' : 'not an object'}` };
  const pb = ext.triplelift_pb;
  if (!isAbsent(pb) && !isObject(pb)) return { error: 'bid.ext.triplelift_pb is not an object' };
  const format = isObject(pb) ? pb.format : undefined;
  if (!isAbsent(format) && !Number.isInteger(format)) return { error: 'bid.ext.triplelift_pb.format is not an integer' };
  return typeof format === 'number' && VIDEO_FORMATS.has(format) ? 'video' : 'banner';
};

/**
 * Reads TripleLift's answer to one call: every bid is kept as sent, typed by its
 * `ext.triplelift_pb.format` (11, 12 and 17 are video, anything else banner); a bid whose ext
 * does not read is dropped with an error (code 999, as Prebid Server reports it). Bids are always
 * in USD, whatever `cur` says.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  const read = readBids(decoded.body, (bid, errors): TypedBid | undefined => {
    const type = bidType(bid.ext);
    if (typeof type === 'string') return { bid, type };
    errors.push({ code: BidderErrorCode.UNKNOWN, message: type.error });
    return undefined;
  });
  return inUsd(read);
};
