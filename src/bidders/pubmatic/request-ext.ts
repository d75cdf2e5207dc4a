import type { App } from '../../openrtb/types.js';
import { goTrimSpace } from '../go-text.js';
import { isAbsent, isObject } from '../json-guards.js';

/** OpenWrap's profile and version, and the code PubMatic is called under; zeros are left out. */
export interface WrapperExt {
  profile?: number;
  version?: number;
  biddercode?: string;
}

/** The `ext` PubMatic receives in place of the request's own. */
export interface PubmaticRequestExt {
  wrapper?: WrapperExt;
  acat?: string[];
  marketplace?: { allowedbidders: string[] };
}

const isIntegerOrAbsent = (v: unknown): boolean => isAbsent(v) || Number.isInteger(v);

/**
 * A `wrapper` object: `profile` and `version` integers, `biddercode` a string (each may be absent
 * or null). `null` itself is an empty wrapper. Anything else is an error saying why.
 */
export const readWrapper = (value: unknown): { wrapper: WrapperExt } | { error: string } => {
  if (value === null) return { wrapper: {} };
  if (!isObject(value)) return { error: 'wrapper must be an object' };
  if (!isIntegerOrAbsent(value.profile)) return { error: 'wrapper.profile must be an integer' };
  if (!isIntegerOrAbsent(value.version)) return { error: 'wrapper.version must be an integer' };
  if (!isAbsent(value.biddercode) && typeof value.biddercode !== 'string') return { error: 'wrapper.biddercode must be a string' };
  const wrapper: WrapperExt = {};
  if (typeof value.profile === 'number' && value.profile !== 0) wrapper.profile = value.profile;
  if (typeof value.version === 'number' && value.version !== 0) wrapper.version = value.version;
  if (typeof value.biddercode === 'string' && value.biddercode !== '') wrapper.biddercode = value.biddercode;
  return { wrapper };
};

/** The entry of `bidders` for `code`: the exact key first, then one equal to it in any case. */
const bidderEntry = (bidders: Record<string, unknown>, code: string): unknown => {
  if (Object.hasOwn(bidders, code)) return bidders[code];
  const lower = code.toLowerCase();
  const key = Object.keys(bidders).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : bidders[key];
};

/**
 * The bidder codes PubMatic may answer for (`ext.marketplace.allowedbidders`), from the request's
 * `ext.prebid.alternatebiddercodes`: absent without that object; `["all"]` when PubMatic's entry
 * is enabled with no list or `["*"]`; else `pubmatic` plus the listed codes when enabled, just
 * `pubmatic` otherwise. Prebid Server's exchange hands an adapter only its own entry, keyed by the
 * code it runs under, and the adapter looks for `pubmatic`: so an alias never finds one.
 */
export const allowedBidders = (abc: unknown, bidderCode: string): { allowed?: string[] } | { error: string } => {
  if (isAbsent(abc)) return {};
  if (!isObject(abc)) return { error: 'alternatebiddercodes must be an object' };
  if (!isAbsent(abc.enabled) && typeof abc.enabled !== 'boolean') return { error: 'alternatebiddercodes.enabled must be a boolean' };
  if (!isAbsent(abc.bidders) && !isObject(abc.bidders)) return { error: 'alternatebiddercodes.bidders must be an object' };
  const allowed = ['pubmatic'];
  if (abc.enabled !== true || bidderCode !== 'pubmatic' || !isObject(abc.bidders)) return { allowed };
  const entry = bidderEntry(abc.bidders, 'pubmatic');
  if (isAbsent(entry)) return { allowed };
  if (!isObject(entry)) return { error: 'alternatebiddercodes.bidders.pubmatic must be an object' };
  const codes = entry.allowedbiddercodes;
  if (!isAbsent(entry.enabled) && typeof entry.enabled !== 'boolean') return { error: 'alternatebiddercodes.bidders.pubmatic.enabled must be a boolean' };
  if (!isAbsent(codes) && !(Array.isArray(codes) && codes.every((c) => typeof c === 'string'))) {
    return { error: 'alternatebiddercodes.bidders.pubmatic.allowedbiddercodes must be an array of strings' };
  }
  if (entry.enabled !== true) return { allowed };
  if (isAbsent(codes) || (codes.length === 1 && codes[0] === '*')) return { allowed: ['all'] };
  return { allowed: [...allowed, ...codes] };
};

/**
 * What PubMatic takes from the request's ext: `ext.prebid.bidderparams` (Prebid Server's exchange
 * narrows it to this bidder's own params) gives `wrapper` and `acat` (trimmed), and
 * `ext.prebid.alternatebiddercodes` the marketplace. The wrapper always names the bidder code the
 * call is for. With no request ext at all nothing is read, and no wrapper is made here (Prebid
 * Server's adapter does the same; imps may still bring one).
 */
export const readRequestExt = (ext: unknown, bidderCode: string): { ext: PubmaticRequestExt } | { error: string } => {
  if (isAbsent(ext)) return { ext: {} };
  if (!isObject(ext)) return { error: 'error decoding Request.ext : must be an object' };
  const prebid = ext.prebid;
  if (!isAbsent(prebid) && !isObject(prebid)) return { error: 'error decoding Request.ext : prebid must be an object' };
  const params = isObject(prebid) ? prebid.bidderparams : undefined;
  if (!isAbsent(params) && !isObject(params)) return { error: 'ext.prebid.bidderparams must be an object' };

  const out: PubmaticRequestExt = {};
  let wrapper: WrapperExt = {};
  if (isObject(params) && params.wrapper !== undefined) {
    const read = readWrapper(params.wrapper);
    if ('error' in read) return { error: `ext.prebid.bidderparams: ${read.error}` };
    wrapper = read.wrapper;
  }
  // Prebid Server's adapter writes an alias of the request's `ext.prebid.aliases` when there is one
  // (the last; Go's map walk picks any), else `pubmatic`. openbid's exchange keeps `aliases` from
  // bidders, so in an auction this is always the code of the call: `pubmatic`, or the alias it runs as.
  const aliases = isObject(prebid) ? prebid.aliases : undefined;
  const aliasNames = isObject(aliases) ? Object.keys(aliases) : [];
  wrapper.biddercode = aliasNames.at(-1) ?? bidderCode;
  out.wrapper = wrapper;

  if (isObject(params) && params.acat !== undefined && params.acat !== null) {
    const acat = params.acat;
    if (!Array.isArray(acat) || !acat.every((c) => typeof c === 'string')) return { error: 'ext.prebid.bidderparams.acat must be an array of strings' };
    if (acat.length > 0) out.acat = acat.map((c: string) => goTrimSpace(c));
  }

  const market = allowedBidders(isObject(prebid) ? prebid.alternatebiddercodes : undefined, bidderCode);
  if ('error' in market) return { error: `error decoding Request.ext : ${market.error}` };
  if (market.allowed !== undefined) out.marketplace = { allowedbidders: market.allowed };
  return { ext: out };
};

/**
 * The SDK's name and version from `app.ext.prebid.source`/`version`, else `app.ext.source`/
 * `version` (both non-empty strings), for imps whose `displaymanager` the SDK left empty.
 */
export const appDisplayManager = (app: App | null | undefined): { name: string; version: string } | undefined => {
  if (isAbsent(app) || !isObject(app.ext)) return undefined;
  const pair = (o: unknown): { name: string; version: string } | undefined =>
    isObject(o) && typeof o.source === 'string' && o.source !== '' && typeof o.version === 'string' && o.version !== ''
      ? { name: o.source, version: o.version }
      : undefined;
  return pair(app.ext.prebid) ?? pair(app.ext);
};
