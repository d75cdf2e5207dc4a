import type { BidRequest, Format, Open } from '../openrtb/types.js';
import type { AmpQuery } from './amp-query.js';
import { JsonTooDeepError, parseBoundedJson } from '../core/bounded-json.js';
import { isObject } from '../core/json-object.js';
import { copyToExtend } from '../core/own-keys.js';

/**
 * `imp[0].banner.format` from the page's sizes, in this order (README, AMP): `ow`+`oh`, `ow`+`h`,
 * `w`+`oh`, `w`+`h` give the first size, `ms` sizes follow; with none of those, a lone `w` or `h`
 * overrides that dimension of every stored format; with nothing, the stored formats stay.
 */
export const ampFormats = (stored: readonly Format[] | undefined, q: AmpQuery): Format[] | undefined => {
  const { width: w, height: h, overrideWidth: ow, overrideHeight: oh } = q;
  const first =
    ow !== undefined && oh !== undefined ? { w: ow, h: oh }
    : ow !== undefined && h !== undefined ? { w: ow, h }
    : w !== undefined && oh !== undefined ? { w, h: oh }
    : w !== undefined && h !== undefined ? { w, h }
    : undefined;
  const replaced = [...(first !== undefined ? [first] : []), ...q.multiSize.map((f) => ({ ...f }))];
  if (replaced.length > 0) return replaced;
  const lone = w !== undefined ? { w } : h !== undefined ? { h } : undefined;
  if (lone === undefined || stored === undefined) return stored === undefined ? undefined : [...stored];
  return stored.map((f) => ({ ...f, ...lone }));
};

/** TCF v2 strings start with version 2 in base64url ('C'); us_privacy is `1` and three of `YN-`. */
const looksLikeTcf2 = (s: string): boolean => /^C[A-Za-z0-9_-]{10,}(\.[A-Za-z0-9_-]+)*$/.test(s);
const looksLikeUsPrivacy = (s: string): boolean => /^1[YNyn-]{3}$/.test(s);

/**
 * Where the consent parameters go, as Prebid Server's AMP endpoint puts them: `consent_type` 2
 * → `user.consent` (TCF v2), 3 → `regs.us_privacy`, 1 (TCF v1, no longer supported) → dropped
 * with a warning; without a type, the string's own form decides. Strings of the wrong form are
 * warnings, never failures; the privacy rules decode them fully later.
 */
const applyConsent = (request: BidRequest, q: AmpQuery, warnings: string[]): void => {
  const consent = q.consent;
  if (consent !== undefined) {
    let kind: 'tcf2' | 'usp' | undefined;
    if (q.consentType === '1') warnings.push('consent_type 1: TCF1 consent is deprecated and no longer supported; the consent string is ignored');
    else if (q.consentType === '2') kind = 'tcf2';
    else if (q.consentType === '3') kind = 'usp';
    else if (q.consentType !== undefined) warnings.push(`consent_type "${q.consentType}" is not one of 1, 2, 3; the consent string is ignored`);
    else kind = looksLikeTcf2(consent) ? 'tcf2' : looksLikeUsPrivacy(consent) ? 'usp' : undefined;
    if (q.consentType === undefined && kind === undefined) warnings.push(`Consent string '${consent}' is not recognized as one of the supported formats CCPA or TCF2.`);
    if (kind === 'tcf2') {
      if (!looksLikeTcf2(consent)) warnings.push(`Consent string '${consent}' is not a valid TCF2 consent string.`);
      request.user = { ...request.user, consent };
    } else if (kind === 'usp') {
      if (!looksLikeUsPrivacy(consent)) warnings.push(`Consent string '${consent}' is not a valid CCPA consent string.`);
      request.regs = { ...request.regs, us_privacy: consent };
    }
  }
  if (q.gdprApplies === 'true' || q.gdprApplies === 'false') {
    request.regs = { ...request.regs, gdpr: q.gdprApplies === 'true' ? 1 : 0 };
  } else if (q.gdprApplies !== undefined && q.gdprApplies !== '') {
    warnings.push(`gdpr_applies "${q.gdprApplies}" is neither true nor false; ignored`);
  }
  if (q.additionalConsent !== undefined) {
    const ext = request.user?.ext ?? {};
    request.user = { ...request.user, ext: { ...ext, ConsentedProvidersSettings: { ...(isObject(ext.ConsentedProvidersSettings) ? ext.ConsentedProvidersSettings : {}), consented_providers: q.additionalConsent } } };
  }
};

/** `targeting`: a JSON object of first-party data for `imp[0].ext.data`; anything else is a warning. */
const targetingData = (text: string | undefined, warnings: string[]): Open | undefined => {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = parseBoundedJson(text);
    if (isObject(parsed)) return parsed;
  } catch (err) {
    if (err instanceof JsonTooDeepError) {
      warnings.push(`targeting: ${err.message}; ignored`);
      return undefined;
    }
  }
  warnings.push('targeting: not a JSON object; ignored');
  return undefined;
};

/**
 * The AMP request: the stored request with the page's query applied, as Prebid Server's AMP
 * endpoint does, and AMP's own settings: `imp[0].secure = 1`, targeting with winners' and
 * bidders' keys, bid caching, channel `amp`. `stored` has been checked (one imp, no app) and is
 * not modified.
 */
export const buildAmpRequest = (stored: BidRequest, q: AmpQuery, freshId: () => string): { request: BidRequest; warnings: string[] } => {
  const warnings: string[] = [];
  // Copies that gain keys are made with copyToExtend, not spreads: it is faster in Node 20 (see there).
  const request = copyToExtend(stored);
  if (request.id === '{{UUID}}') request.id = freshId();

  const imp = copyToExtend(stored.imp[0]!);
  imp.secure = 1;
  if (imp.banner !== undefined) {
    const format = ampFormats(imp.banner.format, q);
    imp.banner = format === undefined ? { ...imp.banner } : { ...imp.banner, format };
  }
  if (q.slot !== undefined) imp.tagid = q.slot;
  const data = targetingData(q.targeting, warnings);
  if (data !== undefined) imp.ext = { ...imp.ext, data: { ...imp.ext?.data, ...data } };
  request.imp = [imp];

  const site = copyToExtend(request.site ?? {});
  if (q.curl !== undefined) {
    site.page = q.curl;
    try {
      site.domain = new URL(q.curl).hostname;
    } catch {
      warnings.push(`curl: "${q.curl}" is not a URL; site.domain is left as it was`);
    }
  }
  // Every AMP request says it is one (Prebid Server's `site.ext.amp`), whatever the stored request holds.
  site.ext = { ...site.ext, amp: 1 };
  if (q.account !== undefined) site.publisher = { ...site.publisher, id: q.account };
  request.site = site;
  applyConsent(request, q, warnings);

  // AMP needs the winner's keys, every bidder's keys and cached bids; a stored request that says
  // otherwise (an explicit `false`) is the publisher's choice and is kept.
  const ext = copyToExtend(request.ext ?? {});
  const prebid = copyToExtend(ext.prebid ?? {});
  prebid.targeting = { ...prebid.targeting, includewinners: prebid.targeting?.includewinners ?? true, includebidderkeys: prebid.targeting?.includebidderkeys ?? true };
  prebid.cache = { ...prebid.cache, bids: prebid.cache?.bids ?? {} };
  prebid.channel = { name: 'amp' };
  if (q.debug) prebid.debug = true;
  ext.prebid = prebid;
  request.ext = ext;
  return { request, warnings };
};

/**
 * The bound AMP puts on `tmax`, besides the stored `tmax` and the server's cap: the smaller of the
 * AMP default timeout and the page's `timeout` (its RTC `timeoutMillis`).
 */
export const ampTmaxLimit = (q: AmpQuery, defaultMs: number): number => (q.timeoutMs !== undefined ? Math.min(q.timeoutMs, defaultMs) : defaultMs);
