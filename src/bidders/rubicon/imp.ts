import type { BidRequest, Imp, Video } from '../../openrtb/types.js';
import { setOwn, withKeys } from '../../core/own-keys.js';
import type { RequestContext } from '../adapter.js';
import { isAbsent, isObject } from '../json-guards.js';
import type { RubiconImpExt } from './imp-ext.js';
import { addFirstPartyData, startTarget } from './targeting.js';
import type { Target } from './targeting.js';

const member = (obj: unknown, key: string): unknown => (isObject(obj) ? obj[key] : undefined);

/**
 * The imps Rubicon is sent for one imp: the imp itself, or, when its params say
 * `bidonmultiformat`, one copy per media type it offers (banner, video, native, audio, in that
 * order), each without the others.
 */
export const splitImp = (imp: Imp, bidOnMultiformat: boolean): Imp[] => {
  if (!bidOnMultiformat) return [imp];
  const { banner, video, native, audio, ...rest } = imp;
  const parts: Imp[] = [];
  if (!isAbsent(banner)) parts.push(withKeys(rest, { banner }));
  if (!isAbsent(video)) parts.push(withKeys(rest, { video }));
  if (!isAbsent(native)) parts.push(withKeys(rest, { native }));
  if (!isAbsent(audio)) parts.push(withKeys(rest, { audio }));
  return parts;
};

/** What the host and request add to each imp's target. */
export interface TargetFacts {
  readonly login: string;
  readonly version: string;
  readonly externalUrl: string;
}

const readAdData = (data: unknown): { pbadslot: string; adServerName: string; adSlot: string } | { error: string } => {
  if (isAbsent(data)) return { pbadslot: '', adServerName: '', adSlot: '' };
  if (!isObject(data)) return { error: 'imp.ext.data is not an object' };
  const { pbadslot, adserver } = data;
  if (!isAbsent(pbadslot) && typeof pbadslot !== 'string') return { error: 'imp.ext.data.pbadslot is not a string' };
  if (!isAbsent(adserver) && !isObject(adserver)) return { error: 'imp.ext.data.adserver is not an object' };
  const name = member(adserver, 'name');
  const slot = member(adserver, 'adslot');
  if (!isAbsent(name) && typeof name !== 'string') return { error: 'imp.ext.data.adserver.name is not a string' };
  if (!isAbsent(slot) && typeof slot !== 'string') return { error: 'imp.ext.data.adserver.adslot is not a string' };
  return { pbadslot: pbadslot ?? '', adServerName: (name as string | undefined) ?? '', adSlot: (slot as string | undefined) ?? '' };
};

/**
 * The imp's `rp.target`, built as Rubicon's adapter builds it, later sources overriding earlier
 * keys: the imp's own `ext.rp.target`, the `inventory` params, the site's `ext.data` and page (or
 * the app's `ext.data`), the imp's `ext.data`; then `pbadslot` (or, failing it, the GAM ad slot as
 * `dfp_ad_unit_code`), the `keywords` params, and the host's login, version and URL.
 */
export const impTarget = (imp: Imp, ext: RubiconImpExt, request: BidRequest, facts: TargetFacts): { target: Target } | { error: string } => {
  const started = startTarget(member(member(imp.ext, 'rp'), 'target'), 'imp.ext.rp.target');
  if ('error' in started) return started;
  const target = started.target;
  const sourced: [unknown, string][] = [[ext.bidder.inventory, 'imp.ext.bidder.inventory']];
  if (isObject(request.site)) sourced.push([member(request.site.ext, 'data'), 'site.ext.data']);
  else sourced.push([member(request.app?.ext, 'data'), 'app.ext.data']);
  for (const [source, where] of sourced) {
    const problem = addFirstPartyData(source, target, where);
    if (problem !== undefined) return { error: problem };
  }
  if (isObject(request.site) && typeof request.site.page === 'string' && request.site.page !== '') target.page = [request.site.page];
  const problem = addFirstPartyData(ext.data, target, 'imp.ext.data');
  if (problem !== undefined) return { error: problem };
  const ad = readAdData(ext.data);
  if ('error' in ad) return ad;
  if (ad.pbadslot !== '') target.pbadslot = ad.pbadslot;
  else if (ad.adServerName === 'gam' && ad.adSlot !== '') target.dfp_ad_unit_code = ad.adSlot;
  if (ext.bidder.keywords.length > 0) setOwn(target, 'keywords', ext.bidder.keywords);
  target.pbs_login = facts.login;
  target.pbs_version = facts.version;
  target.pbs_url = facts.externalUrl;
  return { target };
};

/** The imp ext Rubicon reads: zone, target, an empty track, and the forwarded gpid, skadn, tid, maxbids. */
export const rubiconImpExt = (ext: RubiconImpExt, zoneId: number, target: Target, maxBids: number | undefined): Record<string, unknown> => {
  const out: Record<string, unknown> = { rp: { zone_id: zoneId, target, track: { mint: '', mint_version: '' } } };
  if (ext.gpid !== '') out.gpid = ext.gpid;
  if (ext.skadn !== undefined) out.skadn = ext.skadn;
  if (ext.tid !== '') out.tid = ext.tid;
  if (maxBids !== undefined) out.maxbids = maxBids;
  return out;
};

/**
 * The imp's floor in USD: a positive floor in another currency is converted (an error when no
 * rate allows it); `bidfloorcur`, when set, becomes USD. A zero floor is not sent; a negative one
 * stays as it came.
 */
export const withUsdFloor = (imp: Imp, context: RequestContext): { imp: Imp } | { error: string } => {
  const floor = typeof imp.bidfloor === 'number' ? imp.bidfloor : 0;
  const cur = typeof imp.bidfloorcur === 'string' ? imp.bidfloorcur : '';
  let resolved = floor;
  if (floor > 0 && cur !== '' && cur.toUpperCase() !== 'USD') {
    try {
      resolved = context.convertCurrency(floor, cur, 'USD');
    } catch {
      return { error: `Unable to convert provided bid floor currency from ${cur} to USD` };
    }
  }
  if (resolved < 0) return { imp };
  const { bidfloor: _floor, ...rest } = imp;
  return { imp: { ...rest, ...(resolved !== 0 ? { bidfloor: resolved } : {}), ...(cur !== '' ? { bidfloorcur: 'USD' } : {}) } };
};

/** Go's test of a video Rubicon can take as such next to a banner: mimes, protocols, duration and linearity set. */
const isFullVideo = (video: Video): boolean =>
  !isAbsent(video.mimes) && !isAbsent(video.protocols) && !isAbsent(video.maxduration) && video.maxduration !== 0 && !isAbsent(video.linearity) && video.linearity !== 0;

/** An imp goes to Rubicon as video when it has one and no banner, or a full video beside a banner. */
export const isVideoImp = (imp: Imp): boolean => isObject(imp.video) && (isAbsent(imp.banner) || isFullVideo(imp.video));
