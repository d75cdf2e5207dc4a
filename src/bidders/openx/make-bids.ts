import type { Bid, BidRequest, Imp, MediaType, Open } from '../../openrtb/types.js';
import type { ResponseData, TypedBid } from '../adapter.js';
import { answerCurrency, decodeBidResponse, readBids } from '../go-bid-response.js';
import { fledgeConfigsInExt, withFledgeConfigs } from '../fledge-configs.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent, isObject } from '../json-guards.js';
import { goAtoi } from '../go-text.js';
import { withKeys } from '../../core/own-keys.js';

// OpenX marks banner, video and native; anything else (audio included) is typed by the imp.
const MTYPES: Readonly<Record<number, MediaType>> = { 1: 'banner', 2: 'video', 4: 'native' };

/**
 * The media type of a bid for an imp, when `mtype` does not say: banner whenever the imp has a
 * banner (OpenX does not do in-banner video), else video, else native; banner for an imp the
 * request does not have.
 */
export const impMediaType = (impId: string, imps: readonly Imp[]): MediaType => {
  const imp = imps.find((i) => i.id === impId);
  if (imp === undefined || !isAbsent(imp.banner)) return 'banner';
  if (!isAbsent(imp.video)) return 'video';
  if (!isAbsent(imp.native)) return 'native';
  return 'banner';
};

/** Buyer data OpenX puts in `bid.ext`, as the `ext.prebid.meta` ids Prebid names them. */
export interface OpenxBidMeta {
  networkId?: number;
  advertiserId?: number;
  brandId?: number;
}

// An int64 written as a JSON string (Go's `,string` option): digits only, a leading minus allowed.
const QUOTED_INT = /^-?(0|[1-9]\d*)$/;

/** An int64 written as a JSON string; `undefined` when absent, `false` when it does not read. */
const quotedInt = (v: unknown): number | undefined | false => {
  if (isAbsent(v)) return undefined;
  if (typeof v !== 'string' || !QUOTED_INT.test(v)) return false;
  return goAtoi(v) ?? false;
};

/**
 * `ext.dsp_id` (network), `ext.buyer_id` (advertiser) and `ext.brand_id` (brand), integers written
 * as strings. `dsp_id` or `brand_id` not such a string makes the ext unreadable and gives no meta,
 * as does a `buyer_id` that is not a string; a `buyer_id` string that is not an integer only counts
 * as no advertiser. No meta either when none of the three is positive. Zeros are left out.
 */
export const bidMeta = (ext: unknown): OpenxBidMeta | undefined => {
  if (!isObject(ext)) return undefined;
  const networkId = quotedInt(ext.dsp_id);
  const brandId = quotedInt(ext.brand_id);
  if (networkId === false || brandId === false) return undefined;
  const buyer = ext.buyer_id;
  if (!isAbsent(buyer) && typeof buyer !== 'string') return undefined;
  const advertiserId = typeof buyer === 'string' ? (goAtoi(buyer) ?? 0) : 0;
  if (advertiserId <= 0 && (networkId ?? 0) <= 0 && (brandId ?? 0) <= 0) return undefined;
  return {
    ...(networkId ? { networkId } : {}),
    ...(advertiserId ? { advertiserId } : {}),
    ...(brandId ? { brandId } : {}),
  };
};

/**
 * The bid with OpenX's buyer ids in `ext.prebid.meta`, where the auction response carries them
 * (the adapter contract has no field of its own for them). Like Prebid Server's exchange, meta
 * the adapter finds replaces any `ext.prebid.meta` the bid came with.
 */
const withMeta = (bid: Bid, meta: OpenxBidMeta | undefined): Bid => {
  if (meta === undefined || !isObject(bid.ext)) return bid;
  const ext: Open = bid.ext;
  const prebid: Open = isObject(ext.prebid) ? withKeys(ext.prebid, { meta }) : { meta };
  return { ...bid, ext: withKeys(ext, { prebid }) };
};

/** One bid of the answer as the exchange takes it. */
const typedBid = (raw: Bid, imps: readonly Imp[]): TypedBid => {
  const type = MTYPES[raw.mtype ?? 0] ?? impMediaType(raw.impid, imps);
  const duration = typeof raw['dur'] === 'number' ? raw['dur'] : 0;
  const primaryCategory = raw.cat?.[0] ?? '';
  return {
    bid: withMeta(raw, bidMeta(raw.ext)),
    type,
    ...(duration !== 0 || primaryCategory !== ''
      ? { video: { ...(duration !== 0 ? { duration } : {}), ...(primaryCategory !== '' ? { primaryCategory } : {}) } }
      : {}),
  };
};

/**
 * Reads OpenX's answer for one call. Every bid is kept as sent (but for buyer ids added as
 * `ext.prebid.meta`), typed by `mtype` or else by its imp in `request`; its duration and first
 * category go along as video data; Protected Audience configs come from `ext.fledge_auction_configs`. The currency is `cur`, USD when absent. An answer that does not
 * decode as an OpenRTB bid response gives no bids and one error. Statuses other than 200 are
 * answered as Prebid Server's adapter does, though the exchange normally handles them itself.
 */
export const makeBids = (request: BidRequest, response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  // Every bid is kept: a null one (empty in Go) is dropped later by the exchange for its missing id.
  const read = readBids(decoded.body, (bid) => typedBid(bid, request.imp));
  return withFledgeConfigs(read, fledgeConfigsInExt(decoded.body.ext), answerCurrency(decoded.body));
};
