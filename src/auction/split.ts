import type { Bidder, BidderRegistry } from '../bidders/registry.js';
import { ownValue, setOwn } from '../core/own-keys.js';
import type { BidRequest, Imp, ImpExt, MediaType, Open } from '../openrtb/types.js';
import { isObject } from '../core/json-object.js';

/** One bidder's share of an auction: the request as that bidder sees it. */
export interface BidderShare {
  readonly bidder: Bidder;
  /** The request cut down to this bidder's imps, its params in `imp[].ext.bidder`. */
  readonly request: BidRequest;
}

/** A problem found while splitting, reported per bidder code. */
export interface SplitMessage {
  readonly bidder: string;
  readonly message: string;
}

export interface SplitResult {
  readonly shares: BidderShare[];
  /** Unknown or disabled bidders, dropped with a warning as Prebid Server does. */
  readonly warnings: SplitMessage[];
  /** Bad params (code 2 for that bidder): the imp is not sent to it. */
  readonly errors: SplitMessage[];
}

/**
 * Keys of `imp.ext` that are Prebid's or OpenRTB's own, never a bidder code of the legacy
 * `imp.ext.<bidder>` form.
 */
const RESERVED_IMP_EXT_KEYS = new Set(['prebid', 'bidder', 'skadn', 'gpid', 'tid', 'data', 'context', 'ae', 'all', 'general', 'rewarded', 'ortb2', 'auctionenvironment', 'igs', 'paapi']);

/** `ext.prebid` keys that steer openbid and mean nothing to a bidder. */
const EXCHANGE_ONLY_PREBID_KEYS = new Set(['aliases', 'aliasgvlids', 'targeting', 'cache', 'storedrequest', 'bidadjustmentfactors', 'currency', 'bidderparams', 'page_view_ids', 'nosale']);

/** The bidder codes of an imp with their params: `ext.prebid.bidder`, else the legacy `ext.<code>`. */
export const impBidders = (imp: Imp): [string, unknown][] => {
  const prebid = imp.ext?.prebid?.bidder;
  if (isObject(prebid)) return Object.entries(prebid);
  return Object.entries(imp.ext ?? {}).filter(([k]) => !RESERVED_IMP_EXT_KEYS.has(k));
};

/** `imp.ext` as a bidder receives it: its own params under `bidder`, no other bidder's. */
const impExtFor = (ext: ImpExt | undefined, params: unknown, legacyKeys: readonly string[]): ImpExt => {
  const out: ImpExt = {};
  for (const [k, v] of Object.entries(ext ?? {})) {
    if (k === 'prebid' || legacyKeys.includes(k)) continue;
    setOwn(out, k, v);
  }
  const prebid = ext?.prebid;
  if (prebid !== undefined) {
    const { bidder: _all, storedrequest: _stored, ...rest } = prebid;
    if (Object.keys(rest).length > 0) out.prebid = rest;
  }
  out.bidder = params;
  return out;
};

const MEDIA_TYPES: readonly MediaType[] = ['banner', 'video', 'audio', 'native'];

/** The imp without the media types a bidder does not support; `undefined` when none is left. */
const withSupportedMediaTypes = (imp: Imp, supported: readonly MediaType[]): Imp | undefined => {
  let out: Imp | undefined;
  let left = 0;
  for (const type of MEDIA_TYPES) {
    if (imp[type] === undefined) continue;
    if (supported.includes(type)) {
      left++;
    } else {
      out ??= { ...imp };
      delete out[type];
    }
  }
  return left === 0 ? undefined : (out ?? imp);
};

/**
 * `ext` as a bidder receives it: without openbid's own settings, and with only its own entry of
 * `ext.prebid.bidderparams` (request-level params, as Prebid Server passes them on).
 */
const requestExtFor = (ext: BidRequest['ext'], code: string): BidRequest['ext'] => {
  if (ext?.prebid === undefined) return ext;
  const prebid: Open = {};
  for (const [k, v] of Object.entries(ext.prebid)) if (!EXCHANGE_ONLY_PREBID_KEYS.has(k)) setOwn(prebid, k, v);
  const own = isObject(ext.prebid.bidderparams) ? ownValue(ext.prebid.bidderparams, code) : undefined;
  if (own !== undefined) prebid.bidderparams = own;
  // Of the targeting settings, bidders see only whether brand categories are wanted (as in
  // Prebid Server): adapters such as appnexus ask their server for them then.
  const brandCategory = isObject(ext.prebid.targeting) ? ext.prebid.targeting.includebrandcategory : undefined;
  if (isObject(brandCategory)) prebid.targeting = { includebrandcategory: brandCategory };
  return { ...ext, prebid };
};

/** Names the bidders past the limit: the first few, and how many more (a request may name thousands). */
const notCalledWarning = (codes: ReadonlySet<string>, max: number): string => {
  const NAMED = 10;
  const named = [...codes].slice(0, NAMED).join(', ');
  const more = codes.size > NAMED ? ` and ${codes.size - NAMED} more` : '';
  return `bidders not called, as a request may call at most ${max}: ${named}${more}`;
};

/**
 * Splits a validated request per bidder, in the order bidders first appear across imps. Each
 * bidder sees only its imps, each with its own params in `imp.ext.bidder`; request aliases
 * (`ext.prebid.aliases`) resolve to their adapter and keep their own code. A bidder whose params
 * fail its schema loses that imp (an error for that bidder); unknown and disabled bidders are
 * dropped with a warning. Once `maxBidders` bidders are to be called, any further bidder is not
 * (one `general` warning names them): one request must not fan out into thousands of calls.
 */
export const splitByBidder = (request: BidRequest, registry: BidderRegistry, maxBidders = Infinity): SplitResult => {
  const aliases = request.ext?.prebid?.aliases;
  // Own keys only: a bidder code such as `constructor` must not find an inherited member.
  const aliasOf = (code: string): string | undefined => ownValue(aliases, code);
  const resolved = new Map<string, Bidder | undefined>();
  const resolve = (code: string): Bidder | undefined => {
    if (!resolved.has(code)) {
      const target = aliasOf(code);
      resolved.set(code, typeof target === 'string' && target !== code ? registry.alias(code, target) : registry.get(code));
    }
    return resolved.get(code);
  };

  const impsByBidder = new Map<string, Imp[]>();
  const warnings: SplitMessage[] = [];
  const errors: SplitMessage[] = [];
  const warned = new Set<string>();
  const notCalled = new Set<string>();
  // As Prebid Server: a dooh request is dooh whatever else it has, then app, then site.
  const channel = request.dooh !== undefined ? 'dooh' : request.app !== undefined ? 'app' : 'site';
  for (const imp of request.imp) {
    const entries = impBidders(imp);
    const legacy = imp.ext?.prebid?.bidder === undefined ? entries.map(([k]) => k) : [];
    for (const [code, params] of entries) {
      if (impsByBidder.size >= maxBidders && !impsByBidder.has(code)) {
        notCalled.add(code);
        continue;
      }
      const bidder = resolve(code);
      if (bidder === undefined) {
        if (!warned.has(code)) {
          warned.add(code);
          const why = registry.isDisabled(aliasOf(code) ?? code) ? 'is disabled on this server' : 'is not a known bidder. Did you forget an alias in request.ext.prebid.aliases?';
          warnings.push({ bidder: code, message: `bidder ${code} ${why}` });
        }
        continue;
      }
      const problems = bidder.checkParams(params);
      if (problems.length > 0) {
        errors.push({ bidder: code, message: `request.imp[${request.imp.indexOf(imp)}].ext.prebid.bidder.${code} failed validation.\n${problems.join('\n')}` });
        continue;
      }
      const supported = bidder.capabilities[channel];
      if (supported === undefined) {
        if (!warned.has(code)) {
          warned.add(code);
          warnings.push({ bidder: code, message: `this bidder does not support ${channel} requests` });
        }
        continue;
      }
      const offered = withSupportedMediaTypes(imp, supported);
      if (offered === undefined) {
        warnings.push({ bidder: code, message: `request.imp[${request.imp.indexOf(imp)}] offers no media type ${code} supports (${supported.join(', ')}); not sent to it` });
        continue;
      }
      let list = impsByBidder.get(code);
      if (list === undefined) impsByBidder.set(code, (list = []));
      list.push({ ...offered, ext: impExtFor(imp.ext, params, legacy) });
    }
  }

  if (notCalled.size > 0) warnings.push({ bidder: 'general', message: notCalledWarning(notCalled, maxBidders) });

  const shares: BidderShare[] = [];
  for (const [code, imps] of impsByBidder) {
    const bidder = resolve(code)!;
    const cut: BidRequest = { ...request, imp: imps };
    const ext = requestExtFor(request.ext, code);
    if (ext === undefined) delete cut.ext;
    else cut.ext = ext;
    shares.push({ bidder, request: cut });
  }
  return { shares, warnings, errors };
};
