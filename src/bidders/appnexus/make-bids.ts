import type { Bid, MediaType } from '../../openrtb/types.js';
import { badInput, badServerResponse } from '../adapter.js';
import type { BidderError, BidderResponse, ResponseData, TypedBid } from '../adapter.js';
import { parseBoundedJson } from '../../core/bounded-json.js';
import { IAB_CATEGORY_BY_BRAND_CATEGORY } from './iab-categories.js';

/** `bid_ad_type` → media type; AppNexus's 2 (audio, in its own numbering) is not one it bids with here. */
const BID_AD_TYPES: ReadonlyMap<number, MediaType> = new Map([
  [0, 'banner'],
  [1, 'video'],
  [3, 'native'],
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;

const STRING_FIELDS = ['id', 'impid', 'adid', 'adm', 'nurl', 'burl', 'lurl', 'iurl', 'cid', 'crid', 'dealid', 'bundle'] as const;
const INTEGER_FIELDS = ['w', 'h', 'mtype', 'wratio', 'hratio', 'exp'] as const;

const isStringArray = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');

/**
 * The first field of the answer whose type Prebid Server's decoding of a bid response would
 * refuse (which fails the whole answer there, so it does here); `undefined` when all fit.
 */
const responseProblem = (body: Record<string, unknown>): string | undefined => {
  if (!isAbsent(body.cur) && typeof body.cur !== 'string') return 'cur is not a string';
  if (isAbsent(body.seatbid)) return undefined;
  if (!Array.isArray(body.seatbid)) return 'seatbid is not an array';
  for (const [s, seat] of (body.seatbid as unknown[]).entries()) {
    if (isAbsent(seat)) continue;
    if (!isObject(seat)) return `seatbid[${s}] is not an object`;
    if (isAbsent(seat.bid)) continue;
    if (!Array.isArray(seat.bid)) return `seatbid[${s}].bid is not an array`;
    for (const [b, bid] of (seat.bid as unknown[]).entries()) {
      if (isAbsent(bid)) continue;
      const where = `seatbid[${s}].bid[${b}]`;
      if (!isObject(bid)) return `${where} is not an object`;
      for (const f of STRING_FIELDS) if (!isAbsent(bid[f]) && typeof bid[f] !== 'string') return `${where}.${f} is not a string`;
      for (const f of INTEGER_FIELDS) if (!isAbsent(bid[f]) && !Number.isInteger(bid[f])) return `${where}.${f} is not an integer`;
      if (!isAbsent(bid.price) && typeof bid.price !== 'number') return `${where}.price is not a number`;
      if (!isAbsent(bid.cat) && !isStringArray(bid.cat)) return `${where}.cat is not an array of strings`;
      if (!isAbsent(bid.adomain) && !isStringArray(bid.adomain)) return `${where}.adomain is not an array of strings`;
      if (!isAbsent(bid.attr) && !(Array.isArray(bid.attr) && bid.attr.every((a) => Number.isInteger(a)))) return `${where}.attr is not an array of integers`;
    }
  }
  return undefined;
};

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
  const bid: Bid = { ...raw };
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
export const makeBids = (response: ResponseData): { response?: BidderResponse; errors: BidderError[] } => {
  if (response.status === 204) return { errors: [] };
  const statusMessage = `Unexpected status code: ${response.status}. Run with request.debug = 1 for more info`;
  if (response.status === 400) return { errors: [badInput(statusMessage)] };
  if (response.status !== 200) return { errors: [badServerResponse(statusMessage)] };

  let body: unknown;
  try {
    body = parseBoundedJson(response.body);
  } catch (err) {
    return { errors: [badServerResponse(`Bad server response: ${(err as Error).message}`)] };
  }
  // `null` decodes into an empty answer in Go: no bids, no error.
  if (body === null) return { response: { currency: 'USD', bids: [] }, errors: [] };
  if (!isObject(body)) return { errors: [badServerResponse('Bad server response: not a JSON object')] };
  const problem = responseProblem(body);
  if (problem !== undefined) return { errors: [badServerResponse(`Bad server response: ${problem}`)] };

  const errors: BidderError[] = [];
  const bids: TypedBid[] = [];
  for (const seat of (body.seatbid ?? []) as ({ bid?: (Bid | null)[] | null } | null)[]) {
    for (const raw of seat?.bid ?? []) {
      // A null bid decodes as an empty one in Go, which has no ext.
      const typed = typedBid(raw ?? ({} as Bid), errors);
      if (typed !== undefined) bids.push(typed);
    }
  }
  const currency = typeof body.cur === 'string' && body.cur !== '' ? body.cur : 'USD';
  return { response: { currency, bids }, errors };
};
