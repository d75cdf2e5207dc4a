import type { Banner, Imp } from '../../openrtb/types.js';
import { parseAdSlot } from './ad-slot.js';
import { goKeyCompare, goParseFloat, goTrimSpace } from '../go-text.js';
import { DCTR_KEY, PM_ZONE_ID_KEY, addFirstPartyData, addKeywords } from './imp-targeting.js';
import type { ImpExtMap } from './imp-targeting.js';
import { readWrapper } from './request-ext.js';
import type { WrapperExt } from './request-ext.js';
import { isAbsent, isObject } from '../json-guards.js';
import { withKeys } from '../../core/own-keys.js';

/** An imp as PubMatic receives it, with what it told about the request. */
export interface ParsedImp {
  readonly imp: Imp;
  /** `publisherId`, trimmed ("" when absent). */
  readonly publisherId: string;
  /** The imp's `wrapper` param, when it was asked for and given. */
  readonly wrapper?: WrapperExt;
}

export interface ParseImpOptions {
  /** Read the `wrapper` param: only until the request has both profile and version. */
  readonly wantWrapper: boolean;
  /** The SDK from `app.ext`, for imps that name no display manager. */
  readonly displayManager?: { readonly name: string; readonly version: string } | undefined;
}

const isEmpty = (v: unknown): boolean => isAbsent(v) || v === '';
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * `banner.w`/`h` are required by PubMatic: when either is missing, the first format gives both. A
 * banner with neither and no format is left as it is (Prebid Server's request validation does not
 * let one through; its adapter would index an empty list).
 */
const sizedBanner = (banner: Banner): Banner => {
  if (!isAbsent(banner.w) && !isAbsent(banner.h)) return banner;
  const first = banner.format?.[0];
  return first === undefined ? banner : withKeys(banner, { w: first.w ?? 0, h: first.h ?? 0 });
};

/**
 * Turns one imp into what PubMatic expects: audio dropped; the SDK's display manager filled in;
 * `adSlot` read into `tagid` (and, for a banner, `w`/`h`); a banner sized from its first format;
 * `kadfloor` raising `bidfloor`; and `imp.ext` replaced by PubMatic's targeting keys plus `ae`,
 * `gpid` and `skadn`. An error (with Prebid Server's wording where it has one) means the imp is not
 * sent; the other imps are.
 */
export const parseImp = (imp: Imp, options: ParseImpOptions): ParsedImp | { error: string } => {
  if (isAbsent(imp.banner) && isAbsent(imp.video) && isAbsent(imp.native)) {
    return { error: `invalid MediaType. PubMatic only supports Banner, Video and Native. Ignoring ImpID=${imp.id}` };
  }
  // Audio is dropped and ext replaced below. A copy without them, rather than `delete` on a
  // copy: deleting any key but the last turns an object into a slow dictionary in V8.
  const { audio: _audio, ext: _ext, ...copy } = imp;
  const out: Imp = copy;

  const dm = options.displayManager;
  if (dm !== undefined && isEmpty(imp['displaymanager']) && isEmpty(imp['displaymanagerver'])) {
    out['displaymanager'] = dm.name;
    out['displaymanagerver'] = dm.version;
  }

  const ext = imp.ext;
  if (!isObject(ext) || ext.bidder === undefined) return { error: `ImpID=${imp.id}: imp.ext.bidder is missing` };
  if (!isAbsent(ext.ae) && !Number.isInteger(ext.ae)) return { error: `ImpID=${imp.id}: imp.ext.ae must be an integer` };
  if (!isAbsent(ext.gpid) && typeof ext.gpid !== 'string') return { error: `ImpID=${imp.id}: imp.ext.gpid must be a string` };
  // The params passed the schema; a null `bidder` reads as no params, as in Go.
  const params: Record<string, unknown> = isObject(ext.bidder) ? ext.bidder : {};

  const publisherId = goTrimSpace(str(params.publisherId));
  let wrapper: WrapperExt | undefined;
  if (options.wantWrapper && params.wrapper !== undefined && params.wrapper !== null) {
    const read = readWrapper(params.wrapper);
    if ('error' in read) return { error: `Error in Wrapper Parameters = ${read.error}  for ImpID = ${imp.id} WrapperExt = ${JSON.stringify(params.wrapper)}` };
    wrapper = read.wrapper;
  }

  const slot = parseAdSlot(str(params.adSlot));
  if ('error' in slot) return { error: slot.error };
  if (slot.slot.tagid !== undefined) out.tagid = slot.slot.tagid;
  // A video's size comes from its player: the adSlot size only applies to a banner.
  if (slot.slot.size !== undefined && !isAbsent(imp.banner)) out.banner = { ...imp.banner, ...slot.slot.size };
  if (!isAbsent(out.banner)) out.banner = sizedBanner(out.banner);

  const kadfloor = str(params.kadfloor);
  if (kadfloor !== '') {
    const floor = goParseFloat(goTrimSpace(kadfloor));
    // The higher of the two floors; an unreadable kadfloor is ignored.
    if (floor !== undefined && floor > (typeof imp.bidfloor === 'number' ? imp.bidfloor : 0)) out.bidfloor = floor;
  }

  const targeting: ImpExtMap = new Map();
  addKeywords(params.keywords, targeting);
  // The direct params win over keywords of the same name.
  if (str(params.dctr) !== '') targeting.set(DCTR_KEY, params.dctr);
  if (str(params.pmzoneid) !== '') targeting.set(PM_ZONE_ID_KEY, params.pmzoneid);
  if (ext.data !== undefined) addFirstPartyData(ext.data, targeting);
  if (typeof ext.ae === 'number' && ext.ae !== 0) targeting.set('ae', ext.ae);
  if (typeof ext.gpid === 'string' && ext.gpid !== '') targeting.set('gpid', ext.gpid);
  if (ext.skadn !== undefined) targeting.set('skadn', ext.skadn);

  // Sorted as Go writes a map, so the body is the same bytes whatever order keys were added in.
  if (targeting.size > 0) out.ext = Object.fromEntries([...targeting].sort(([a], [b]) => goKeyCompare(a, b)));

  return wrapper === undefined ? { imp: out, publisherId } : { imp: out, publisherId, wrapper };
};
