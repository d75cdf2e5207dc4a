import type { Bid, MediaType } from '../../openrtb/types.js';
import { BidderErrorCode } from '../adapter.js';
import type { ResponseData } from '../adapter.js';
import { decodeBidResponse, decodeBidResponseUntyped, inUsd, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';

// Media.net marks banner, video and native; any other mtype (none, audio) is an error.
const MTYPES: Readonly<Record<number, MediaType>> = { 1: 'banner', 2: 'video', 4: 'native' };

/**
 * Reads Media.net's answer for its call. 204 is no bids; 400 (bad input) and other statuses but
 * 200 (bad server response) are worded as Prebid Server words them, though the exchange normally
 * reports statuses itself. Each bid is kept as sent, typed by its `mtype`; a bid with another
 * `mtype` is left out with an error naming its imp. The currency is always USD: Prebid Server's
 * adapter does not read the answer's `cur`. Errors Go raises without a type (an answer that does
 * not decode, an unknown `mtype`) carry code 999, as they do there.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  const decoded = response.status === 200 ? decodeBidResponseUntyped(response) : decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  const read = readBids(decoded.body, (bid: Bid, errors) => {
    const type = MTYPES[bid.mtype ?? 0];
    if (type !== undefined) return { bid, type };
    errors.push({ code: BidderErrorCode.UNKNOWN, message: `Unable to fetch mediaType for imp: ${String(bid.impid ?? '')}` });
    return undefined;
  });
  return inUsd(read);
};
