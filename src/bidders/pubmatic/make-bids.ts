import type { Bid, MediaType } from '../../openrtb/types.js';
import { badInput, badServerResponse } from '../adapter.js';
import type { BidderError, BidderResponse, ResponseData, TypedBid } from '../adapter.js';
import { rawMember } from './json-raw.js';
import { parseBoundedJson } from '../../core/bounded-json.js';

const MTYPES: Readonly<Record<number, MediaType>> = { 1: 'banner', 2: 'video', 3: 'audio', 4: 'native' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;

/**
 * The fields of PubMatic's answer whose type Prebid Server relies on when it decodes the answer
 * (any of them wrong fails the whole answer there, so it does here). `undefined` when all fit.
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
      for (const field of ['id', 'impid', 'adm', 'crid', 'dealid'] as const) {
        if (!isAbsent(bid[field]) && typeof bid[field] !== 'string') return `${where}.${field} is not a string`;
      }
      if (!isAbsent(bid.price) && typeof bid.price !== 'number') return `${where}.price is not a number`;
      if (!isAbsent(bid.mtype) && !Number.isInteger(bid.mtype)) return `${where}.mtype is not an integer`;
      if (!isAbsent(bid.cat) && !(Array.isArray(bid.cat) && bid.cat.every((c) => typeof c === 'string'))) return `${where}.cat is not an array of strings`;
    }
  }
  return undefined;
};

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
  const bid: Bid = { ...raw };
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
 * entry and native markup unwrapped. The currency is `cur`, USD when absent. Statuses other than
 * 200 are handled as Prebid Server's adapter does, though the exchange normally takes them.
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
      // A null bid decodes as an empty one in Go, which then has no mtype.
      const typed = typedBid(raw ?? ({} as Bid), errors);
      if (typed !== undefined) bids.push(typed);
    }
  }
  const currency = typeof body.cur === 'string' && body.cur !== '' ? body.cur : 'USD';
  return { response: { currency, bids }, errors };
};
