import type { Bid, MediaType } from '../../openrtb/types.js';
import { badServerResponse } from '../adapter.js';
import type { BidderError, ResponseData, TypedBid } from '../adapter.js';
import { decodeBidResponse, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { IAB_CATEGORY_BY_BRAND_CATEGORY } from './iab-categories.js';
import { isAbsent, isObject } from '../json-guards.js';
import { copyToExtend } from '../../core/own-keys.js';

/** `bid_ad_type` → media type; AppNexus's 2 (audio, in its own numbering) is not one it bids with here. */
const BID_AD_TYPES: ReadonlyMap<number, MediaType> = new Map([
  [0, 'banner'],
  [1, 'video'],
  [3, 'native'],
]);

/** What AppNexus says of a bid in `bid.ext.appnexus`; absent numbers are 0, as Go reads them. */
interface AppnexusBidExt {
  readonly bidAdType: number;
  readonly brandCategoryId: number;
  readonly dealPriority: number;
  readonly duration?: number;
}

const integerAt = (o: Record<string, unknown>, name: string, where: string): number => {
  const v = o[name];
  if (isAbsent(v)) return 0;
  if (!Number.isInteger(v)) throw new Error(`${where}.${name} is not an integer`);
  return v as number;
};

const objectAt = (o: Record<string, unknown>, name: string, where: string): Record<string, unknown> => {
  const v = o[name];
  if (isAbsent(v)) return {};
  if (!isObject(v)) throw new Error(`${where}.${name} is not an object`);
  return v;
};

/**
 * Reads `bid.ext.appnexus`. A bid without an ext is refused (Go cannot decode nothing); `null`
 * reads as an empty ext, so as a banner. A field of the wrong type refuses the bid.
 */
const readBidExt = (bid: Bid): AppnexusBidExt | { error: string } => {
  const ext: unknown = bid.ext;
  if (ext === undefined) return { error: `bid ${String(bid.id)}: ext is missing` };
  if (ext !== null && !isObject(ext)) return { error: `bid ${String(bid.id)}: ext is not an object` };
  try {
    const appnexus = objectAt(ext ?? {}, 'appnexus', 'ext');
    const video = objectAt(objectAt(appnexus, 'creative_info', 'ext.appnexus'), 'video', 'ext.appnexus.creative_info');
    integerAt(appnexus, 'brand_id', 'ext.appnexus');
    const duration = integerAt(video, 'duration', 'ext.appnexus.creative_info.video');
    return {
      bidAdType: integerAt(appnexus, 'bid_ad_type', 'ext.appnexus'),
      brandCategoryId: integerAt(appnexus, 'brand_category_id', 'ext.appnexus'),
      dealPriority: integerAt(appnexus, 'deal_priority', 'ext.appnexus'),
      ...(isAbsent(video.duration) ? {} : { duration }),
    };
  } catch (err) {
    return { error: `bid ${String(bid.id)}: ${(err as Error).message}` };
  }
};

/**
 * One bid as the exchange takes it. Its type comes from `bid_ad_type`; its category from the brand
 * category when AppNexus maps that to an IAB one, and when it does not, a bid naming several
 * categories gets none (the exchange then rejects it when categories are required, as Prebid
 * Server does: a bid must have one primary category).
 */
const typedBid = (raw: Bid, errors: BidderError[]): TypedBid | undefined => {
  const ext = readBidExt(raw);
  if ('error' in ext) {
    errors.push(badServerResponse(ext.error));
    return undefined;
  }
  const type = BID_AD_TYPES.get(ext.bidAdType);
  if (type === undefined) {
    errors.push(badServerResponse(`Unrecognized bid_ad_type in response from appnexus: ${ext.bidAdType}`));
    return undefined;
  }
  const bid: Bid = copyToExtend(raw);
  const category = IAB_CATEGORY_BY_BRAND_CATEGORY.get(ext.brandCategoryId);
  if (category !== undefined) bid.cat = [category];
  else if (Array.isArray(bid.cat) && bid.cat.length > 1) bid.cat = [];
  return {
    bid,
    type,
    ...(ext.dealPriority !== 0 ? { dealPriority: ext.dealPriority } : {}),
    ...(type === 'video' && ext.duration !== undefined ? { video: { duration: ext.duration } } : {}),
  };
};

/**
 * Reads AppNexus's answer: every bid of every seat, typed by `ext.appnexus.bid_ad_type`, with
 * its deal priority and (for video) the creative's duration; the currency is `cur`, USD when
 * absent. Statuses other than 200 are handled as Prebid Server's adapter does, though the
 * exchange normally takes them.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  return readBids(decoded.body, typedBid);
};
