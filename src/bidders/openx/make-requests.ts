import type { BidRequest, Imp, ImpExt, Open } from '../../openrtb/types.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { isAbsent, isObject } from '../json-guards.js';
import { goParseFloat } from '../go-text.js';
import { copyToExtend } from '../../core/own-keys.js';

/** Tells OpenX the request comes from Prebid Server (`ext.bc`); OpenX keys its handling on it. */
export const BIDDER_CONFIG = 'hb_pbs_1.0.0';

/** The request-level ext OpenX reads, in place of the request's own. */
export interface OpenxRequestExt extends Open {
  delDomain?: string;
  platform?: string;
  bc: string;
}

/** The bidder params as far as the adapter reads them, once their types are known to fit. */
interface OpenxParams {
  readonly unit?: string;
  readonly delDomain: string;
  readonly platform: string;
  readonly customFloor?: number;
  readonly customParams?: Record<string, unknown>;
}

/** A number given as a JSON number or a string holding one, as Go's `json.Number` takes it. */
const numberText = (v: unknown): string | undefined => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v : undefined);

/**
 * Reads `imp.ext.bidder`. Types that do not fit fail the imp, as Go's decoding does; the params
 * schema has normally refused them already. `null` params read as none, as in Go.
 */
export const readParams = (bidder: unknown): OpenxParams | { error: string } => {
  if (bidder === null) return { delDomain: '', platform: '' };
  if (bidder === undefined) return { error: 'ext.bidder is missing' };
  if (!isObject(bidder)) return { error: 'ext.bidder is not an object' };
  const { unit, delDomain, platform, customFloor, customParams } = bidder;
  if (!isAbsent(unit) && numberText(unit) === undefined) return { error: 'ext.bidder.unit is neither a number nor a string' };
  if (!isAbsent(delDomain) && typeof delDomain !== 'string') return { error: 'ext.bidder.delDomain is not a string' };
  if (!isAbsent(platform) && typeof platform !== 'string') return { error: 'ext.bidder.platform is not a string' };
  if (!isAbsent(customFloor) && numberText(customFloor) === undefined) return { error: 'ext.bidder.customFloor is neither a number nor a string' };
  if (!isAbsent(customParams) && !isObject(customParams)) return { error: 'ext.bidder.customParams is not an object' };
  const floorText = numberText(customFloor);
  // A floor that does not read as a number is ignored, not an error: Go only asks Float64() whether it has one.
  const floor = floorText === undefined ? undefined : goParseFloat(floorText);
  return {
    ...(isAbsent(unit) ? {} : { unit: numberText(unit) }),
    delDomain: typeof delDomain === 'string' ? delDomain : '',
    platform: typeof platform === 'string' ? platform : '',
    ...(floor !== undefined ? { customFloor: floor } : {}),
    ...(isObject(customParams) ? { customParams } : {}),
  };
};

/**
 * The imp's ext as OpenX gets it: the incoming one without `prebid` and `bidder`, with the
 * `customParams` of the bidder params; `undefined` when nothing is left.
 */
const outgoingImpExt = (ext: ImpExt, customParams: Record<string, unknown> | undefined): ImpExt | undefined => {
  // fromEntries defines own properties, so a key named `__proto__` stays a plain key.
  const out: ImpExt = Object.fromEntries(Object.entries(ext).filter(([k]) => k !== 'prebid' && k !== 'bidder' && !(k === 'customParams' && customParams !== undefined)));
  if (customParams !== undefined) out.customParams = customParams;
  return Object.keys(out).length > 0 ? out : undefined;
};

/** One imp made ready for OpenX, with the params that set the request ext; or why it cannot go. */
const prepareImp = (imp: Imp): { imp: Imp; params: OpenxParams } | { error: string } => {
  if (!isAbsent(imp.ext) && !isObject(imp.ext)) return { error: `imp ${imp.id}: ext is not an object` };
  const params = readParams(imp.ext?.bidder);
  if ('error' in params) return { error: `imp ${imp.id}: ${params.error}` };

  const ext = outgoingImpExt(imp.ext ?? {}, params.customParams);
  // Without an ext to send, a copy without it rather than `delete` on a copy: deleting any key
  // but the last turns an object into a slow dictionary in V8. A kept ext keeps its place.
  let out: Imp;
  if (ext === undefined) {
    const { ext: _incoming, ...withoutExt } = imp;
    out = withoutExt;
  } else out = copyToExtend(imp);
  // The unit is the tag id; without one Go writes an empty tag id, which it leaves out.
  if (params.unit !== undefined && params.unit !== '') out.tagid = params.unit;
  else delete out.tagid;
  if ((imp.bidfloor ?? 0) === 0 && params.customFloor !== undefined && params.customFloor > 0) out.bidfloor = params.customFloor;
  if (ext !== undefined) out.ext = ext;

  // OpenX reads rewarded video from video.ext alone; whatever else video.ext held is not sent.
  if (!isAbsent(imp.video)) {
    const { ext: _videoExt, ...video } = imp.video;
    out.video = imp['rwdd'] === 1 ? { ...video, ext: { rewarded: 1 } } : video;
  }
  return { imp: out, params };
};

/**
 * One call for a group of imps: each imp prepared (one that cannot be is left out with a
 * bad-input error), the request's ext replaced by OpenX's. No call when no imp is left.
 */
const makeCall = (request: BidRequest, imps: readonly Imp[], endpoint: string, errors: BidderError[]): RequestData | undefined => {
  const ready: Imp[] = [];
  let last: OpenxParams | undefined;
  for (const imp of imps) {
    const prepared = prepareImp(imp);
    if ('error' in prepared) {
      errors.push(badInput(prepared.error));
      continue;
    }
    ready.push(prepared.imp);
    last = prepared.params;
  }
  if (last === undefined) return undefined;
  // The last imp's delivery domain and platform stand for the whole call, empty ones included.
  const ext: OpenxRequestExt = {
    ...(last.delDomain !== '' ? { delDomain: last.delDomain } : {}),
    ...(last.platform !== '' ? { platform: last.platform } : {}),
    bc: BIDDER_CONFIG,
  };
  const body: BidRequest = { ...request, imp: ready, ext };
  return {
    method: 'POST',
    uri: endpoint,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json;charset=utf-8', Accept: 'application/json' },
    impIds: ready.map((imp) => imp.id),
  };
};

/**
 * OpenX takes one media type per imp and one video imp per call. Banner and native imps go
 * together in a first call; each video imp gets a call of its own. An imp offering several types
 * counts as banner when it has a banner, else as video when it has a video (its other types are
 * still sent: OpenX picks). Imps offering none of the three are not sent.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const bannerAndNative: Imp[] = [];
  const videos: Imp[] = [];
  for (const imp of request.imp) {
    if (!isAbsent(imp.banner)) bannerAndNative.push(imp);
    else if (!isAbsent(imp.video)) videos.push(imp);
    else if (!isAbsent(imp.native)) bannerAndNative.push(imp);
  }
  const errors: BidderError[] = [];
  const requests: RequestData[] = [];
  for (const group of [bannerAndNative, ...videos.map((v) => [v])]) {
    const call = makeCall(request, group, context.endpoint, errors);
    if (call !== undefined) requests.push(call);
  }
  return { requests, errors };
};
