import type { Imp, MediaType } from '../../openrtb/types.js';
import { jsonProblem, parseBoundedJson } from '../../core/bounded-json.js';
import { isAbsent, isObject } from '../json-guards.js';
import type { RubiconParams } from './imp-ext.js';
import { isVideoImp } from './imp.js';
import { withKeys } from '../../core/own-keys.js';

/** The imp as Rubicon takes it for its one media type, and that type. */
export interface MediaImp {
  readonly imp: Imp;
  readonly type: MediaType;
}

const videoImp = (imp: Imp, params: RubiconParams): MediaImp => {
  const { banner: _banner, native: _native, rwdd, ...rest } = imp;
  // Rewarded inventory is told in the video ext, not in imp.rwdd.
  const rewarded = rwdd === 1;
  const ext: Record<string, unknown> = {};
  if (params.video.skip !== 0) ext.skip = params.video.skip;
  if (params.video.skipDelay !== 0) ext.skipdelay = params.video.skipDelay;
  if (rewarded) ext.videotype = 'rewarded';
  ext.rp = params.video.sizeId !== 0 ? { size_id: params.video.sizeId } : {};
  return { imp: withKeys(rest, { ...(rewarded || isAbsent(rwdd) ? {} : { rwdd }), video: withKeys(imp.video ?? {}, { ext }) }), type: 'video' };
};

const bannerImp = (imp: Imp): MediaImp | { error: string } => {
  const banner = imp.banner ?? {};
  const noFormat = !Array.isArray(banner.format) || banner.format.length === 0;
  // Go's condition, with an absent height read as 0 (where Go's adapter would dereference nil).
  if (noFormat && (isAbsent(banner.w) || isAbsent(banner.h) || banner.h === 0)) return { error: 'rubicon imps must have at least one imp.format element' };
  const { video: _video, native: _native, ...rest } = imp;
  return { imp: withKeys(rest, { banner: withKeys(banner, { ext: { rp: { mime: 'text/html' } } }) }), type: 'banner' };
};

/**
 * A native imp: versions 1.0 and 1.1 go as they are; later ones need a request (JSON) with an
 * `eventtrackers` list, a numeric `context` if any and a numeric `plcmttype`, and carry it
 * parsed as `native.request_native`.
 */
const nativeImp = (imp: Imp): MediaImp | { error: string } => {
  const native = imp.native;
  if (!isObject(native)) return { error: 'Native object is not present for request' };
  const { video: _video, ...rest } = imp;
  if (native.ver === '1.0' || native.ver === '1.1') return { imp: rest, type: 'native' };
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(typeof native.request === 'string' ? native.request : '');
  } catch (err) {
    return { error: `native.request: ${jsonProblem(err)}` };
  }
  if (!isAbsent(parsed) && !isObject(parsed)) return { error: 'native.request is not a JSON object' };
  const request = isObject(parsed) ? parsed : {};
  if (!Array.isArray(request.eventtrackers)) return { error: 'Eventtrackers are not present or not of array type' };
  if (!isAbsent(request.context) && typeof request.context !== 'number') return { error: 'Context is not of int type' };
  if (typeof request.plcmttype !== 'number') return { error: 'Plcmttype is not present or not of int type' };
  const withRequest = Object.keys(request).length > 0 ? withKeys(native, { request_native: request }) : native;
  return { imp: withKeys(rest, { native: withRequest }), type: 'native' };
};

/**
 * Keeps one media type of the imp, as Rubicon's adapter chooses it: video (see
 * {@link isVideoImp}; its ext from the `video` params, `rwdd: 1` becoming `videotype: rewarded`),
 * else banner (it needs a format, or a width and height; its ext says the mime is HTML), else
 * native. The other types are dropped.
 */
export const withOneMediaType = (imp: Imp, params: RubiconParams): MediaImp | { error: string } => {
  if (isVideoImp(imp)) return videoImp(imp, params);
  if (!isAbsent(imp.banner)) return bannerImp(imp);
  return nativeImp(imp);
};
