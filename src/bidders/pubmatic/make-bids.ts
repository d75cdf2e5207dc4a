import type { Bid, MediaType } from '../../openrtb/types.js';
import { badServerResponse } from '../adapter.js';
import type { BidderError, ResponseData, TypedBid } from '../adapter.js';
import { answerCurrency, decodeBidResponse, readBids } from '../go-bid-response.js';
import { fledgeConfigsInExt, withFledgeConfigs } from '../fledge-configs.js';
import type { AdapterBids } from '../go-bid-response.js';
import { rawMember } from './json-raw.js';
import { isAbsent, isObject } from '../json-guards.js';
import { copyToExtend } from '../../core/own-keys.js';

const MTYPES: Readonly<Record<number, MediaType>> = { 1: 'banner', 2: 'video', 3: 'audio', 4: 'native' };

/** What PubMatic says of a bid in `bid.ext`, when that reads. */
interface PubmaticBidExt {
  readonly marketplace?: string;
  readonly prebiddealpriority?: number;
  readonly duration?: number;
}

/**
 * Reads `bid.ext`. A missing ext is an error though the bid stands: Prebid Server decodes a bid's
 * ext unconditionally and reports the failure, and PubMatic's answers always carry one, so its
 * absence is worth a word. A field of the wrong type makes the whole ext unusable, as in Go.
 */
const readBidExt = (bid: Bid): PubmaticBidExt | { error: string } | undefined => {
  const ext: unknown = bid.ext;
  const fail = (why: string): { error: string } => ({ error: `bid ${String(bid.id)} for imp ${String(bid.impid)}: ${why}` });
  if (ext === undefined) return fail('ext is missing');
  if (ext === null) return undefined;
  if (!isObject(ext)) return fail('ext is not an object');
  const { marketplace, prebiddealpriority, ibv, video } = ext;
  if (!isAbsent(marketplace) && typeof marketplace !== 'string') return fail('ext.marketplace is not a string');
  if (!isAbsent(prebiddealpriority) && !Number.isInteger(prebiddealpriority)) return fail('ext.prebiddealpriority is not an integer');
  if (!isAbsent(ibv) && typeof ibv !== 'boolean') return fail('ext.ibv is not a boolean');
  if (!isAbsent(video) && !isObject(video)) return fail('ext.video is not an object');
  const duration = isObject(video) ? video.duration : undefined;
  if (!isAbsent(duration) && !Number.isInteger(duration)) return fail('ext.video.duration is not an integer');
  return {
    ...(typeof marketplace === 'string' ? { marketplace } : {}),
    ...(typeof prebiddealpriority === 'number' ? { prebiddealpriority } : {}),
    ...(typeof duration === 'number' ? { duration } : {}),
  };
};

/**
 * Native markup arrives wrapped as `{"native": {...}}`; the page wants what is inside, as written.
 * Markup that is not a JSON object is kept as it is, with an error.
 */
export const nativeAdm = (adm: string): { adm: string } | { error: string } => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(adm);
  } catch {
    return { error: 'unable to unmarshal native adm' };
  }
  if (parsed === null) return { adm };
  if (!isObject(parsed)) return { error: 'unable to unmarshal native adm' };
  if (!Object.hasOwn(parsed, 'native')) return { adm };
  return { adm: rawMember(adm, 'native') ?? adm };
};

/** One bid of PubMatic's answer as the exchange takes it, or why it is dropped. */
const typedBid = (raw: Bid, errors: BidderError[]): TypedBid | undefined => {
  const bid: Bid = copyToExtend(raw);
  // Only the primary category goes on.
  if (Array.isArray(bid.cat) && bid.cat.length > 1) bid.cat = bid.cat.slice(0, 1);
  const type = MTYPES[bid.mtype ?? 0];
  if (type === undefined) {
    errors.push(badServerResponse(`failed to parse bid mtype (${bid.mtype ?? 0}) for impression id ${bid.impid ?? ''}`));
    return undefined;
  }
  const ext = readBidExt(bid);
  if (ext !== undefined && 'error' in ext) errors.push(badServerResponse(ext.error));
  const known = ext !== undefined && !('error' in ext) ? ext : {};
  if (type === 'native') {
    const native = nativeAdm(bid.adm ?? '');
    if ('error' in native) errors.push(badServerResponse(native.error));
    else bid.adm = native.adm;
  }
  // A marketplace bid (an alternate bidder code PubMatic answers for) goes under that seat.
  return {
    bid,
    type,
    ...(known.marketplace !== undefined && known.marketplace !== '' ? { seat: known.marketplace } : {}),
    ...(known.prebiddealpriority !== undefined && known.prebiddealpriority > 0 ? { dealPriority: known.prebiddealpriority } : {}),
    ...(known.duration !== undefined ? { video: { duration: known.duration } } : {}),
  };
};

/**
 * Reads PubMatic's answer. Bids are typed by `mtype` only (a bid without a known one is dropped
 * with an error); the rest of each bid is as PubMatic sent it, but for `cat` cut to its first
 * entry and native markup unwrapped; Protected Audience configs come from `ext.fledge_auction_configs`. The currency is `cur`, USD when absent. Statuses other than
 * 200 are handled as Prebid Server's adapter does, though the exchange normally takes them.
 */
export const makeBids = (response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) return decoded.answer;
  return withFledgeConfigs(readBids(decoded.body, typedBid), fledgeConfigsInExt(decoded.body.ext), answerCurrency(decoded.body));
};
