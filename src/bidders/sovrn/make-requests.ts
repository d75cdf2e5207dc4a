import type { BidRequest, Imp } from '../../openrtb/types.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { goParseFloat, goTrimSpace } from '../go-text.js';
import { isAbsent, isObject } from '../json-guards.js';
import { withKey } from '../../core/own-keys.js';

/** The bidder params as far as the adapter reads them, once their types are known to fit. */
interface SovrnParams {
  /** `tagid`, else `tagId`; empty when neither is set. */
  readonly tagId: string;
  /** The floor `bidfloor` gives: 0 when absent or unreadable. */
  readonly bidFloor: number;
}

const STRING_KEYS = ['tagid', 'tagId', 'adunitcode'] as const;

/**
 * Reads `imp.ext.bidder` as Go decodes it into Sovrn's params: `tagid`, `tagId` and `adunitcode`
 * must be strings, `bidfloor` may be anything (only a number, or a string that parses as one,
 * counts). `null` params read as none. The params schema has normally refused bad types already.
 */
export const readParams = (ext: unknown): SovrnParams | { error: string } => {
  if (!isAbsent(ext) && !isObject(ext)) return { error: 'imp.ext is not an object' };
  const bidder = isObject(ext) ? ext.bidder : undefined;
  if (bidder === undefined) return { error: 'imp.ext.bidder is missing' };
  if (bidder === null) return { tagId: '', bidFloor: 0 };
  if (!isObject(bidder)) return { error: 'imp.ext.bidder is not an object' };
  for (const key of STRING_KEYS) {
    if (!isAbsent(bidder[key]) && typeof bidder[key] !== 'string') return { error: `imp.ext.bidder.${key} is not a string` };
  }
  const tagid = typeof bidder.tagid === 'string' ? bidder.tagid : '';
  const tagId = typeof bidder.tagId === 'string' ? bidder.tagId : '';
  const floor = bidder.bidfloor;
  const bidFloor = typeof floor === 'number' ? floor : typeof floor === 'string' ? (goParseFloat(floor) ?? 0) : 0;
  return { tagId: tagid !== '' ? tagid : tagId, bidFloor };
};

/**
 * Why Sovrn would refuse a video imp: it needs `mimes`, `protocols` (present, even if empty) and a
 * non-zero `maxduration`. `undefined` for a fit imp or one without video.
 */
const videoProblem = (imp: Imp): string | undefined => {
  const video = imp.video;
  if (isAbsent(video)) return undefined;
  if (isAbsent(video.mimes) || isAbsent(video.maxduration) || video.maxduration === 0 || isAbsent(video.protocols)) return 'Missing required video parameter';
  return undefined;
};

/** The imp as Sovrn gets it (tag id from the params, their floor when the imp has none), or why it cannot go. */
export const prepareImp = (imp: Imp): { imp: Imp } | { error: string } => {
  const params = readParams(imp.ext);
  if ('error' in params) return { error: `imp ${imp.id}: ${params.error}` };
  if (params.tagId === '') return { error: "Missing required parameter 'tagid'" };
  const video = videoProblem(imp);
  if (video !== undefined) return { error: video };
  const out: Imp = withKey(imp, 'tagid', params.tagId);
  if ((imp.bidfloor ?? 0) === 0 && params.bidFloor > 0) out.bidfloor = params.bidFloor;
  return { imp: out };
};

/**
 * The headers Sovrn reads the user from: the device's user agent, IP, language and Do Not Track,
 * and the buyer uid as its `ljt_reader` cookie. Each only when set.
 */
export const sovrnHeaders = (request: BidRequest): Record<string, string> => {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const device = request.device;
  if (isObject(device)) {
    if (typeof device.ua === 'string' && device.ua !== '') headers['User-Agent'] = device.ua;
    if (typeof device.ip === 'string' && device.ip !== '') headers['X-Forwarded-For'] = device.ip;
    if (typeof device.language === 'string' && device.language !== '') headers['Accept-Language'] = device.language;
    if (typeof device.dnt === 'number') headers.DNT = String(device.dnt);
  }
  const buyeruid = isObject(request.user) && typeof request.user.buyeruid === 'string' ? goTrimSpace(request.user.buyeruid) : '';
  if (buyeruid !== '') headers.Cookie = `ljt_reader=${buyeruid}`;
  return headers;
};

/**
 * One POST with every imp Sovrn can take: each gets its tag id and floor from the params; an imp
 * without a tag id, with params of the wrong type, or with a video lacking what Sovrn requires is
 * left out with a bad-input error. No call when no imp is left. The rest of the request goes as
 * it came.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const errors: BidderError[] = [];
  const imps: Imp[] = [];
  for (const imp of request.imp) {
    const prepared = prepareImp(imp);
    if ('error' in prepared) errors.push(badInput(prepared.error));
    else imps.push(prepared.imp);
  }
  if (imps.length === 0) return { requests: [], errors };
  const body: BidRequest = { ...request, imp: imps };
  return {
    requests: [{ method: 'POST', uri: context.endpoint, body: JSON.stringify(body), headers: sovrnHeaders(request), impIds: imps.map((imp) => imp.id) }],
    errors,
  };
};
