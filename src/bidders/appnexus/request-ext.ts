import type { App, BidRequest, Source } from '../../openrtb/types.js';
import { isAbsent, isObject } from '../json-guards.js';
import { goKeyCompare } from '../go-text.js';

/** `ext.appnexus` of the request AppNexus receives; fields left out when unset, as Go omits them. */
export interface AppnexusRequestExt {
  include_brand_category?: boolean;
  brand_category_uniqueness?: boolean;
  is_amp?: number;
  hb_source?: number;
  adpod_id?: string;
}

/** Prebid Server's default `platform_id` for AppNexus: the header-bidding source it reports. */
export const HB_SOURCE = 5;

/**
 * The request's `ext` as a list of members, so that a key such as `__proto__` stays a key. No
 * ext, or `null`, is an empty one; anything but an object cannot be read.
 */
export const requestExtEntries = (ext: unknown): [string, unknown][] | { error: string } => {
  if (isAbsent(ext)) return [];
  if (!isObject(ext)) return { error: 'request.ext must be an object' };
  return Object.entries(ext);
};

/**
 * `displaymanagerver` for imps whose SDK left it empty: `<source>-<version>` from
 * `app.ext.prebid`, when both are strings (even empty ones, as Prebid Server reads them).
 */
export const displayManagerVersion = (app: App | null | undefined): string => {
  const prebid = isObject(app) && isObject(app.ext) ? app.ext.prebid : undefined;
  if (!isObject(prebid) || typeof prebid.source !== 'string' || typeof prebid.version !== 'string') return '';
  return `${prebid.source}-${prebid.version}`;
};

/** Whether the publisher asked for brand categories (`ext.prebid.targeting.includebrandcategory` is an object). */
const wantsBrandCategory = (prebid: unknown): boolean => isObject(prebid) && isObject(prebid.targeting) && isObject(prebid.targeting.includebrandcategory);

/**
 * `ext.appnexus` for AppNexus: the fields Prebid Server knows of the request's own `ext.appnexus`
 * (others are dropped), brand categories and their uniqueness switched on when the publisher asked
 * for categories, `is_amp` for AMP auctions, and the header-bidding source. A known field of the
 * wrong type fails the request, as Go's decoding does.
 */
export const appnexusRequestExt = (ext: ReadonlyMap<string, unknown>, isAmp: boolean): { ext: AppnexusRequestExt } | { error: string } => {
  const own = ext.get('appnexus');
  const out: AppnexusRequestExt = {};
  if (!isAbsent(own)) {
    if (!isObject(own)) return { error: 'request.ext.appnexus must be an object' };
    for (const name of ['include_brand_category', 'brand_category_uniqueness'] as const) {
      const v = own[name];
      if (isAbsent(v)) continue;
      if (typeof v !== 'boolean') return { error: `request.ext.appnexus.${name} must be a boolean` };
      out[name] = v;
    }
    for (const name of ['is_amp', 'hb_source'] as const) {
      if (!isAbsent(own[name]) && !Number.isInteger(own[name])) return { error: `request.ext.appnexus.${name} must be an integer` };
    }
    if (!isAbsent(own.adpod_id) && typeof own.adpod_id !== 'string') return { error: 'request.ext.appnexus.adpod_id must be a string' };
    if (typeof own.adpod_id === 'string' && own.adpod_id !== '') out.adpod_id = own.adpod_id;
  }
  if (wantsBrandCategory(ext.get('prebid'))) {
    out.include_brand_category = true;
    out.brand_category_uniqueness = true;
  }
  // Go writes the fields in this order; is_amp and hb_source are always this call's own.
  return {
    ext: {
      ...(out.include_brand_category !== undefined ? { include_brand_category: out.include_brand_category } : {}),
      ...(out.brand_category_uniqueness !== undefined ? { brand_category_uniqueness: out.brand_category_uniqueness } : {}),
      ...(isAmp ? { is_amp: 1 } : {}),
      hb_source: HB_SOURCE,
      ...(out.adpod_id !== undefined ? { adpod_id: out.adpod_id } : {}),
    },
  };
};

/**
 * OpenRTB 2.5's supply chain (`source.ext.schain`) moves to `ext.schain`, where AppNexus reads it
 * (replacing one there). `source.ext` keeps its other members, or goes when none is left.
 */
export const moveSupplyChain = (source: Source | null | undefined, ext: Map<string, unknown>): { source?: Source } | { error: string } => {
  if (isAbsent(source) || isAbsent(source.ext)) return {};
  if (!isObject(source.ext)) return { error: 'request.source.ext must be an object' };
  if (!Object.hasOwn(source.ext, 'schain')) return {};
  const rest = Object.entries(source.ext).filter(([k]) => k !== 'schain');
  ext.set('schain', source.ext.schain);
  const { ext: _moved, ...moved } = source;
  return { source: rest.length > 0 ? { ...moved, ext: Object.fromEntries(rest) } : moved };
};

/** The request ext as Go writes a map: members sorted by key (byte order). */
export const sortedExt = (ext: ReadonlyMap<string, unknown>): BidRequest['ext'] =>
  Object.fromEntries([...ext].sort(([a], [b]) => goKeyCompare(a, b)));
