import type { BidRequest, Imp, Video } from '../../openrtb/types.js';
import { badInput, BidderErrorCode } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { isAbsent, isObject } from '../json-guards.js';
import { ttxRequestExt } from './request-ext.js';
import { copyToExtend } from '../../core/own-keys.js';

/** The bidder params as Go decodes them: absent or null strings are empty. */
export interface TtxParams {
  readonly productId: string;
  readonly siteId: string;
  readonly zoneId: string;
}

const PARAM_KEYS = ['productId', 'siteId', 'zoneId'] as const;
const fitsInt8 = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= -128 && (v as number) <= 127;

/**
 * Reads `imp.ext` as Prebid Server's adapter decodes it: an object (its `prebid` an object, its
 * `ae` a small integer when present) with a `bidder` that is null or an object whose
 * `productId`, `siteId` and `zoneId` are strings.
 */
export const readParams = (ext: unknown): TtxParams | { error: string } => {
  if (ext === undefined) return { error: 'imp.ext is missing' };
  if (ext !== null && !isObject(ext)) return { error: 'imp.ext is not an object' };
  const obj = ext ?? {};
  if (!isAbsent(obj.prebid) && !isObject(obj.prebid)) return { error: 'imp.ext.prebid is not an object' };
  if (!isAbsent(obj.ae) && !fitsInt8(obj.ae)) return { error: 'imp.ext.ae is not a small integer' };
  const bidder = obj.bidder;
  if (bidder === undefined) return { error: 'imp.ext.bidder is missing' };
  const params = { productId: '', siteId: '', zoneId: '' };
  if (bidder === null) return params;
  if (!isObject(bidder)) return { error: 'imp.ext.bidder is not an object' };
  for (const key of PARAM_KEYS) {
    const v = bidder[key];
    if (isAbsent(v)) continue;
    if (typeof v !== 'string') return { error: `imp.ext.bidder.${key} is not a string` };
    params[key] = v;
  }
  return params;
};

const VIDEO_PROBLEM = 'One or more invalid or missing video field(s) w, h, protocols, mimes, playbackmethod';

/**
 * The video as 33Across takes it: it needs a non-zero `w` and `h`, and `protocols`, `mimes` and
 * `playbackmethod` (present, even if empty). An instream video without `startdelay` gets 0
 * (pre-roll). A copy; `undefined` when the video does not fit.
 */
export const ttxVideo = (video: Video, prod: string): Video | undefined => {
  const { w, h, protocols, mimes, playbackmethod } = video;
  if (isAbsent(w) || w === 0 || isAbsent(h) || h === 0 || isAbsent(protocols) || isAbsent(mimes) || isAbsent(playbackmethod)) return undefined;
  const copy: Video = copyToExtend(video);
  if (prod === 'instream' && isAbsent(copy.startdelay)) copy.startdelay = 0;
  return copy;
};

/**
 * The imp as 33Across gets it: its whole `ext` replaced by `{ttx: {prod, zoneid}}` (`zoneid` the
 * zone id, else the site id, left out when both are empty), its video checked by
 * {@link ttxVideo}. An imp without banner and video, or whose ext does not read, cannot go.
 */
export const prepareImp = (imp: Imp): { imp: Imp; group: string } | { error: string } => {
  if (isAbsent(imp.banner) && isAbsent(imp.video)) return { error: `Imp ID ${imp.id} must have at least one of [Banner, Video] defined` };
  const params = readParams(imp.ext);
  if ('error' in params) return params;
  const zoneid = params.zoneId !== '' ? params.zoneId : params.siteId;
  const out: Imp = { ...imp, ext: { ttx: { prod: params.productId, ...(zoneid !== '' ? { zoneid } : {}) } } };
  if (!isAbsent(imp.video)) {
    const video = ttxVideo(imp.video, params.productId);
    if (video === undefined) return { error: VIDEO_PROBLEM };
    out.video = video;
  }
  // Prebid Server groups by the two values run together, so "ab"+"c" and "a"+"bc" share a call.
  return { imp: out, group: params.productId + zoneid };
};

/**
 * One POST per product and zone (imps sharing both go together, in the order they came), each
 * with the request ext 33Across reads (`ext.ttx.caller`, see `ttxRequestExt`; a request ext that
 * does not decode is a code-999 error and the calls go without ext). An imp that cannot go is
 * left out with a bad-input error.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const errors: BidderError[] = [];
  const ext = ttxRequestExt(request.ext);
  if ('error' in ext) errors.push({ code: BidderErrorCode.UNKNOWN, message: ext.error });
  const groups = new Map<string, Imp[]>();
  for (const imp of Array.isArray(request.imp) ? request.imp : []) {
    const prepared = prepareImp(imp);
    if ('error' in prepared) {
      errors.push(badInput(prepared.error));
      continue;
    }
    const group = groups.get(prepared.group);
    if (group === undefined) groups.set(prepared.group, [prepared.imp]);
    else group.push(prepared.imp);
  }
  const { ext: _dropped, ...rest } = request;
  const base: BidRequest = 'error' in ext ? rest : { ...rest, ext: ext.ext };
  const requests = [...groups.values()].map(
    (imps): RequestData => ({
      method: 'POST',
      uri: context.endpoint,
      body: JSON.stringify({ ...base, imp: imps }),
      headers: { 'Content-Type': 'application/json;charset=utf-8' },
      impIds: imps.map((imp) => imp.id),
    }),
  );
  return { requests, errors };
};
