import type { Banner, BidRequest, Imp, Open } from '../../openrtb/types.js';
import { copyToExtend, nullProtoRecord, setOwn } from '../../core/own-keys.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { goKeyCompare } from '../go-text.js';
import { isObject } from '../json-guards.js';
import { fitsGoInt, fitsGoSlice, fitsGoString, fitsGoStruct, goField } from './go-fields.js';
import { withIxDiag } from './ixdiag.js';

/** The params as far as the adapter reads them: `siteId` (any spelling) and `sid`, empty when unset. */
export interface IxParams {
  readonly siteId: string;
  readonly sid: string;
}

/** Why Go could not decode `imp.ext.prebid` (the parts of it with a fixed type); `undefined` when it can. */
const impPrebidProblem = (prebid: unknown): string | undefined => {
  if (!fitsGoStruct(prebid)) return 'ext.prebid is not an object';
  if (!isObject(prebid)) return undefined;
  const rewarded = goField(prebid, 'is_rewarded_inventory');
  if (!fitsGoInt(rewarded) || (typeof rewarded === 'number' && Math.abs(rewarded) > 127)) return 'ext.prebid.is_rewarded_inventory is not a small integer';
  if (!fitsGoString(goField(prebid, 'adunitcode'))) return 'ext.prebid.adunitcode is not a string';
  for (const key of ['bidder', 'imp', 'options', 'storedrequest', 'storedauctionresponse', 'floors']) {
    if (!fitsGoStruct(goField(prebid, key))) return `ext.prebid.${key} is not an object`;
  }
  return undefined;
};

/**
 * Reads `imp.ext` as Go decodes it into Index Exchange's params (field names in any case, the
 * last spelling winning): `siteId` and `sid` strings, `size` a list of integers. `null` params
 * read as none; a missing `ext.bidder` or a type that does not fit is an error.
 */
export const readParams = (ext: unknown): IxParams | { error: string } => {
  if (ext === undefined) return { error: 'ext is missing' };
  if (!fitsGoStruct(ext)) return { error: 'ext is not an object' };
  const source = isObject(ext) ? ext : {};
  const prebidProblem = impPrebidProblem(goField(source, 'prebid'));
  if (prebidProblem !== undefined) return { error: prebidProblem };
  const bidder = goField(source, 'bidder');
  if (bidder === undefined) return { error: 'ext.bidder is missing' };
  if (bidder === null) return { siteId: '', sid: '' };
  if (!isObject(bidder)) return { error: 'ext.bidder is not an object' };
  const siteId = goField(bidder, 'siteId');
  const sid = goField(bidder, 'sid');
  if (!fitsGoString(siteId)) return { error: 'ext.bidder.siteId is not a string' };
  if (!fitsGoSlice(goField(bidder, 'size'), (x) => fitsGoInt(x))) return { error: 'ext.bidder.size is not a list of integers' };
  if (!fitsGoString(sid)) return { error: 'ext.bidder.sid is not a string' };
  return { siteId: typeof siteId === 'string' ? siteId : '', sid: typeof sid === 'string' ? sid : '' };
};

/** A size as Go writes a `Format`: zero dimensions are left out. */
const formatOf = (w: number, h: number): Open => ({ ...(w !== 0 ? { w } : {}), ...(h !== 0 ? { h } : {}) });

/**
 * The banner as Index Exchange wants it: without formats but with `w` and `h`, its one format is
 * that size; with exactly one format, `w` and `h` are that format's. Otherwise unchanged.
 */
export const normaliseBanner = (banner: Banner): Banner => {
  const out: Banner = copyToExtend(banner);
  const formats = Array.isArray(banner.format) ? banner.format : [];
  if (formats.length === 0 && typeof banner.w === 'number' && typeof banner.h === 'number') out.format = [formatOf(banner.w, banner.h)];
  const only: unknown = out.format?.length === 1 ? out.format[0] : undefined;
  if (out.format?.length === 1) {
    const w: unknown = isObject(only) ? only.w : undefined;
    const h: unknown = isObject(only) ? only.h : undefined;
    out.w = typeof w === 'number' ? w : 0;
    out.h = typeof h === 'number' ? h : 0;
  }
  return out;
};

/** The imp as Index Exchange gets it: the slot id copied to `ext.sid`, the banner normalised. */
const prepareImp = (imp: Imp, params: IxParams): Imp => {
  const out: Imp = copyToExtend(imp);
  if (params.sid !== '' && isObject(imp.ext)) {
    const ext = nullProtoRecord<unknown>();
    for (const [key, value] of Object.entries(imp.ext)) setOwn(ext, key, value);
    ext.sid = params.sid;
    out.ext = ext;
  }
  if (isObject(imp.banner)) out.banner = normaliseBanner(imp.banner);
  return out;
};

/**
 * `site` or `app` with a publisher (an empty one when it had none) whose `id` is the site id when
 * all imps name the same one; several site ids leave the publisher's id as it was.
 */
const withPublisher = (holder: Open, siteIds: readonly string[]): Open => {
  const publisher: Open = isObject(holder.publisher) ? { ...holder.publisher } : {};
  if (siteIds.length === 1) publisher.id = siteIds[0];
  return { ...holder, publisher };
};

/**
 * One POST of every imp whose params read, as Prebid Server's `ix` adapter: each imp keeps its ext,
 * with `sid` copied up to `ext.sid`, and a banner's single size mirrored in `format` and `w`/`h`;
 * the site id goes to the site's or app's publisher when there is just one (the list goes to
 * `ext.ixdiag.multipleSiteIds` otherwise), and `ext.ixdiag` gets the versions. An imp whose params
 * do not read is left out with a bad-input error; no call when no imp is left.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const errors: BidderError[] = [];
  const imps: Imp[] = [];
  const siteIds = new Set<string>();
  for (const imp of Array.isArray(request.imp) ? request.imp : []) {
    const params = readParams(imp.ext);
    if ('error' in params) {
      errors.push(badInput(`imp ${String(imp.id)}: ${params.error}`));
      continue;
    }
    if (params.siteId !== '') siteIds.add(params.siteId);
    imps.push(prepareImp(imp, params));
  }
  // Go sorts the ids bytewise, so the list reads the same whatever the imps' order.
  const sortedIds = [...siteIds].sort(goKeyCompare);
  const body: BidRequest = { ...request, imp: imps };
  if (isObject(request.site)) body.site = withPublisher(request.site, sortedIds);
  if (isObject(request.app)) body.app = withPublisher(request.app, sortedIds);
  const fields = new Map<string, string>();
  if (sortedIds.length > 1) fields.set('multipleSiteIds', sortedIds.join(', '));
  const ext = withIxDiag(request.ext, fields, context.host.serverVersion);
  if ('error' in ext) errors.push(badInput(ext.error));
  else body.ext = ext.ext;
  if (imps.length === 0) return { requests: [], errors };
  const headers = { 'Content-Type': 'application/json;charset=utf-8', Accept: 'application/json' };
  return { requests: [{ method: 'POST', uri: context.endpoint, body: JSON.stringify(body), headers, impIds: imps.map((imp) => imp.id) }], errors };
};

