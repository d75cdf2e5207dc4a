import type { Bid, MediaType } from '../../openrtb/types.js';
import { badServerResponse } from '../adapter.js';
import type { BidderError, ResponseData, TypedBid } from '../adapter.js';
import { answerCurrency, decodeBidResponse } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent, isObject } from '../json-guards.js';
import { readFledgeAuctionConfigs } from './fledge.js';
import { goField } from './go-field.js';

const MEDIA_TYPES: ReadonlySet<string> = new Set<MediaType>(['banner', 'video', 'audio', 'native']);

/**
 * A bid's `ext.prebid.type` as Go decodes `ext` into Criteo's bid ext: `false` when it does not
 * decode (no ext at all, or a member of the wrong type), `''` when it decodes without a type.
 * `ext.prebid.networkName` must be a string too, though only the type is used.
 */
export const bidExtType = (ext: unknown): string | false => {
  // Go decodes a missing ext from empty text, which fails; `null` decodes to nothing.
  if (ext === undefined) return false;
  if (ext === null) return '';
  if (!isObject(ext)) return false;
  const prebid = goField(ext, 'prebid');
  if (isAbsent(prebid)) return '';
  if (!isObject(prebid)) return false;
  const type = goField(prebid, 'type');
  const networkName = goField(prebid, 'networkName');
  if (!isAbsent(networkName) && typeof networkName !== 'string') return false;
  if (isAbsent(type)) return '';
  return typeof type === 'string' ? type : false;
};

const missingType = (bid: Bid): BidderError => badServerResponse(`Missing ext.prebid.type in bid for impression : ${typeof bid.impid === 'string' ? bid.impid : ''}.`);

/**
 * Reads Criteo's answer to the call: each bid is typed by its `ext.prebid.type` and kept as sent.
 * A bid whose ext does not decode fails the whole answer (no bids, one code-3 error), as in
 * Prebid Server; a bid whose type is empty or no media type openbid knows is dropped alone, with
 * the same error. The answer's `ext.igi` gives its Protected Audience configs. The currency is
 * `cur`, USD when absent.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  const body = decoded.body;
  const errors: BidderError[] = [];
  const bids: TypedBid[] = [];
  for (const seat of body.seatbid ?? []) {
    for (const raw of seat?.bid ?? []) {
      // A null bid decodes as an empty one in Go, without an ext.
      const bid = (raw ?? {}) as Bid;
      const type = bidExtType(bid.ext);
      if (type === false) return { errors: [missingType(bid)] };
      if (!MEDIA_TYPES.has(type)) {
        errors.push(missingType(bid));
        continue;
      }
      bids.push({ bid, type: type as MediaType });
    }
  }
  const fledgeAuctionConfigs = readFledgeAuctionConfigs((body as { ext?: unknown }).ext);
  return {
    response: { currency: answerCurrency(body), bids, ...(fledgeAuctionConfigs !== undefined ? { fledgeAuctionConfigs } : {}) },
    errors,
  };
};
