import type { Bid, BidRequest, MediaType } from '../../openrtb/types.js';
import { BidderErrorCode, badServerResponse } from '../adapter.js';
import type { BidderError, FledgeAuctionConfig, RequestData, ResponseData, TypedBid } from '../adapter.js';
import { decodeBidResponse, readBids } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isAbsent, isObject } from '../json-guards.js';
import { fitsGoInt, fitsGoString, fitsGoStruct, goField } from './go-fields.js';
import { withMergedImpTrackers } from './native-trackers.js';
import { withKey } from '../../core/own-keys.js';

const MTYPES: ReadonlyMap<unknown, MediaType> = new Map<unknown, MediaType>([
  [1, 'banner'],
  [2, 'video'],
  [3, 'audio'],
  [4, 'native'],
]);
const BID_TYPES: ReadonlySet<string> = new Set(['banner', 'video', 'audio', 'native']);

// Go reports these as plain errors, which carry no code of their own.
const plainError = (message: string): BidderError => ({ code: BidderErrorCode.UNKNOWN, message });

/**
 * `bid.ext.prebid` when `bid.ext` decodes as Prebid's bid ext in Go (the typed fields of
 * `prebid` fit), `undefined` when it does not or has none: the adapter then ignores it.
 */
export const decodedBidPrebid = (ext: unknown): Record<string, unknown> | undefined => {
  if (!isObject(ext)) return undefined;
  const prebid = goField(ext, 'prebid');
  if (!isObject(prebid)) return undefined;
  const video = goField(prebid, 'video');
  const targeting = goField(prebid, 'targeting');
  const fits =
    fitsGoString(goField(prebid, 'type')) &&
    fitsGoString(goField(prebid, 'bidid')) &&
    fitsGoString(goField(prebid, 'targetbiddercode')) &&
    fitsGoInt(goField(prebid, 'dealpriority')) &&
    (isAbsent(goField(prebid, 'dealtiersatisfied')) || typeof goField(prebid, 'dealtiersatisfied') === 'boolean') &&
    ['cache', 'meta', 'events', 'floors'].every((key) => fitsGoStruct(goField(prebid, key))) &&
    (isAbsent(targeting) || (isObject(targeting) && Object.values(targeting).every(fitsGoString))) &&
    fitsGoStruct(video) &&
    (!isObject(video) || (fitsGoInt(goField(video, 'duration')) && fitsGoString(goField(video, 'primary_category')) && fitsGoString(goField(video, 'vasttagid'))));
  return fits ? prebid : undefined;
};

/**
 * A bid's media type: its `mtype`, else a non-empty `ext.prebid.type` (an unknown one is an
 * error), else the type of its imp in the request (banner, video, native, audio: the first the
 * imp offers), else an error.
 */
export const bidType = (bid: Bid, impTypes: ReadonlyMap<string, MediaType>): MediaType | { error: string } => {
  const byMtype = MTYPES.get(bid.mtype);
  if (byMtype !== undefined) return byMtype;
  const declared = decodedBidPrebid(bid.ext)?.type;
  if (typeof declared === 'string' && declared !== '') return BID_TYPES.has(declared) ? (declared as MediaType) : { error: `invalid BidType: ${declared}` };
  return impTypes.get(bid.impid) ?? { error: `unmatched impression id: ${String(bid.impid ?? '')}` };
};

/** Each imp's first media type in Index Exchange's order (banner, video, native, audio), by imp id. */
const impTypesOf = (request: BidRequest): Map<string, MediaType> => {
  const types = new Map<string, MediaType>();
  for (const imp of Array.isArray(request.imp) ? request.imp : []) {
    const type = !isAbsent(imp.banner) ? 'banner' : !isAbsent(imp.video) ? 'video' : !isAbsent(imp.native) ? 'native' : !isAbsent(imp.audio) ? 'audio' : undefined;
    if (type !== undefined) types.set(imp.id, type);
  }
  return types;
};

/** A video bid with its duration from `ext.prebid.video`, and that category when the bid names none. */
const typedVideo = (bid: Bid): TypedBid => {
  const video = goField(decodedBidPrebid(bid.ext) ?? {}, 'video');
  if (!isObject(video)) return { bid, type: 'video' };
  const duration = goField(video, 'duration');
  const category = goField(video, 'primary_category');
  const hasCategory = Array.isArray(bid.cat) && bid.cat.length > 0;
  return {
    bid: hasCategory ? bid : withKey(bid, 'cat', [typeof category === 'string' ? category : '']),
    type: 'video',
    video: { duration: typeof duration === 'number' ? duration : 0 },
  };
};

/**
 * The Protected Audience configs of the answer's `ext.protectedAudienceAuctionConfigs`: each entry
 * with a `config` becomes one for the imp its `bidId` names. `undefined` when the answer lists
 * none; an error when the ext does not decode.
 */
export const readAuctionConfigs = (ext: unknown): { configs?: FledgeAuctionConfig[] } | { error: string } => {
  if (isAbsent(ext)) return {};
  if (!isObject(ext)) return { error: 'ext is not an object' };
  const list = goField(ext, 'protectedAudienceAuctionConfigs');
  if (isAbsent(list)) return {};
  if (!Array.isArray(list)) return { error: 'ext.protectedAudienceAuctionConfigs is not an array' };
  const configs: FledgeAuctionConfig[] = [];
  for (const [i, entry] of (list as unknown[]).entries()) {
    if (isAbsent(entry)) continue;
    if (!isObject(entry)) return { error: `ext.protectedAudienceAuctionConfigs[${i}] is not an object` };
    const bidId = goField(entry, 'bidId');
    if (!fitsGoString(bidId)) return { error: `ext.protectedAudienceAuctionConfigs[${i}].bidId is not a string` };
    const config = goField(entry, 'config');
    if (!isAbsent(config)) configs.push({ impId: typeof bidId === 'string' ? bidId : '', config });
  }
  return { configs };
};

/**
 * Reads Index Exchange's answer as Prebid Server's `ix` adapter: every bid typed by
 * {@link bidType} (an untyped one is dropped with an error); a video bid gets its duration and
 * primary category from `ext.prebid.video`; a native bid's image impression trackers are merged
 * into `imptrackers`. `ext.protectedAudienceAuctionConfigs` become the answer's Protected Audience
 * configs; an ext that does not decode fails the whole answer.
 */
export const makeBids = (request: BidRequest, _call: RequestData, response: ResponseData): AdapterBids => {
  const decoded = decodeBidResponse(response);
  if ('answer' in decoded) {
    // Prebid Server words a body it cannot decode this way.
    const errors = decoded.answer.errors.map((e) => (e.message.startsWith('Bad server response: ') ? badServerResponse(`JSON parsing error: ${e.message.slice(21)}`) : e));
    return { ...decoded.answer, errors };
  }
  const impTypes = impTypesOf(request);
  const read = readBids(decoded.body, (bid, errors): TypedBid | undefined => {
    const type = bidType(bid, impTypes);
    if (typeof type !== 'string') {
      errors.push(plainError(type.error));
      return undefined;
    }
    if (type === 'video') return typedVideo(bid);
    if (type === 'native' && typeof bid.adm === 'string') {
      const adm = withMergedImpTrackers(bid.adm);
      return { bid: adm === bid.adm ? bid : { ...bid, adm }, type };
    }
    return { bid, type };
  });
  const fledge = readAuctionConfigs((decoded.body as { ext?: unknown }).ext);
  if ('error' in fledge) return { errors: [...read.errors, badServerResponse(`Bad server response: ${fledge.error}`)] };
  if (fledge.configs === undefined || read.response === undefined) return read;
  return { response: { ...read.response, fledgeAuctionConfigs: fledge.configs }, errors: read.errors };
};
