import type { BidRequest } from '../openrtb/types.js';
import { GppSection } from './gpp.js';
import type { GppDecoded, GppSignals } from './gpp.js';
import type { TcfConsent, TcfDecoded } from './tcf-consent.js';
import { parseUsPrivacy } from './us-privacy.js';
import { isObject } from '../core/json-object.js';

/** Every privacy signal of one request, read once before the bidders' requests are built. */
export interface PrivacySignals {
  /** `regs.gdpr` (or `regs.ext.gdpr`), else from `regs.gpp_sid` (section 2 present); `undefined` when the request does not say. */
  readonly gdpr: 0 | 1 | undefined;
  /** The TCF v2 consent (`user.consent`, else the GPP TCF EU section); `undefined` when absent or undecodable. */
  readonly tcf: TcfConsent | undefined;
  /** The request carried a TCF string (decodable or not). */
  readonly tcfGiven: boolean;
  /** `us_privacy` (or the GPP US Privacy section) says opt-out of sale. */
  readonly usOptOut: boolean;
  /** A GPP US section named in `regs.gpp_sid` says opt-out. */
  readonly gppUsOptOut: boolean;
  /** `Sec-GPC: 1`, `regs.ext.gpc: "1"`, or a named GPP US section's `Gpc` flag. */
  readonly gpc: boolean;
  readonly coppa: boolean;
  readonly lmt: boolean;
  /** `ext.prebid.nosale`: `'*'` (every bidder) or the bidder codes exempted from US opt-out scrubbing. */
  readonly noSale: '*' | ReadonlySet<string>;
  readonly gppSids: readonly number[];
  readonly country: string;
  readonly region: string;
  /** Strings that did not decode and other problems, for the response's warnings. */
  readonly warnings: readonly string[];
}

export interface SignalDecoders {
  readonly tcf: (text: string) => TcfDecoded;
  readonly gpp: (text: string) => GppDecoded;
}

const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const flag = (v: unknown): 0 | 1 | undefined => (v === 1 || v === '1' ? 1 : v === 0 || v === '0' ? 0 : undefined);

/** The GPP string's signals for the sections `regs.gpp_sid` names (all of them when it names none). */
const readGpp = (text: string | undefined, decode: SignalDecoders['gpp'], warnings: string[]): GppSignals | undefined => {
  if (text === undefined) return undefined;
  const d = decode(text);
  if ('error' in d) {
    warnings.push(`GPP consent string is invalid and will be ignored. (${d.error})`);
    return undefined;
  }
  return d.gpp;
};

/**
 * Reads the request's privacy signals: OpenRTB 2.6 fields first, their 2.5 `ext` forms second,
 * GPP sections when both are absent (as Prebid Server does). A string that does not decode is a
 * warning and counts as absent; nothing here fails the auction.
 */
export const readPrivacySignals = (request: BidRequest, headerGpc: boolean, decoders: SignalDecoders): PrivacySignals => {
  const warnings: string[] = [];
  const regs = request.regs ?? {};
  const regsExt = isObject(regs.ext) ? regs.ext : {};
  const userExt = isObject(request.user?.ext) ? request.user.ext : {};
  const gppSids = Array.isArray(regs.gpp_sid) ? regs.gpp_sid.filter((n): n is number => Number.isInteger(n)) : [];
  const gpp = readGpp(nonEmpty(regs.gpp), decoders.gpp, warnings);
  // Sections apply when gpp_sid names them; a GPP string without gpp_sid applies as a whole.
  const applies = (sid: number): boolean => (gppSids.length > 0 ? gppSids.includes(sid) : gpp?.sectionIds.includes(sid) === true);

  let gdpr = flag(regs.gdpr) ?? flag(regsExt.gdpr);
  if (gdpr === undefined && gppSids.length > 0) gdpr = gppSids.includes(GppSection.TCF_EU_V2) ? 1 : 0;
  else if (gdpr !== undefined && gppSids.length > 0 && (gdpr === 1) !== gppSids.includes(GppSection.TCF_EU_V2)) {
    warnings.push('regs.gdpr signal conflicts with GPP (regs.gpp_sid)');
  }

  const tcfText = nonEmpty(request.user?.consent) ?? nonEmpty(userExt.consent) ?? (applies(GppSection.TCF_EU_V2) ? gpp?.tcfEu : undefined);
  let tcf: TcfConsent | undefined;
  if (tcfText !== undefined) {
    const d = decoders.tcf(tcfText);
    if ('error' in d) warnings.push(`user.consent is not a valid TCF v2 consent string and is treated as no consent: ${d.error}`);
    else tcf = d.consent;
  }

  let usOptOut = false;
  const uspText = nonEmpty(regs.us_privacy) ?? nonEmpty(regsExt.us_privacy) ?? (applies(GppSection.USP_V1) ? gpp?.usPrivacy : undefined);
  if (uspText !== undefined) {
    const usp = parseUsPrivacy(uspText);
    if ('error' in usp) warnings.push(`request.regs.us_privacy ${usp.error}; ignored`);
    else usOptOut = usp.optOutSale;
  }

  let gppUsOptOut = false;
  let gppGpc = false;
  for (const [sid, section] of gpp?.us ?? []) {
    if (!applies(sid)) continue;
    gppUsOptOut ||= section.optOut;
    gppGpc ||= section.gpc;
  }

  const nosaleRaw = request.ext?.prebid?.nosale;
  let noSale: '*' | ReadonlySet<string> = new Set();
  if (Array.isArray(nosaleRaw)) {
    const codes = nosaleRaw.filter((c): c is string => typeof c === 'string');
    if (codes.includes('*') && codes.length > 1) warnings.push('request.ext.prebid.nosale is invalid: can only specify all bidders if no other bidders are provided; ignored');
    else noSale = codes.includes('*') ? '*' : new Set(codes);
  }

  const geo = request.device?.geo;
  return {
    gdpr,
    tcf,
    tcfGiven: tcfText !== undefined,
    usOptOut,
    gppUsOptOut,
    gpc: headerGpc || regsExt.gpc === '1' || regsExt.gpc === 1 || gppGpc,
    coppa: flag(regs.coppa) === 1,
    lmt: flag(request.device?.lmt) === 1,
    noSale,
    gppSids,
    country: typeof geo?.country === 'string' ? geo.country.toUpperCase() : '',
    region: typeof geo?.region === 'string' ? geo.region.toUpperCase() : '',
    warnings,
  };
};
