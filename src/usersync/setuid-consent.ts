import type { GppDecoded } from '../privacy/gpp.js';
import { GppSection } from '../privacy/gpp.js';

/** A query parameter's first value, `undefined` when absent. */
export type QueryParam = (name: string) => string | undefined;

/** GDPR as `/setuid` was told it: the signal (`undefined`: not said) and the TCF v2 consent string ('' when none). */
export interface SetuidGdpr {
  readonly gdpr: 0 | 1 | undefined;
  readonly consent: string;
}

/**
 * `gpp_sid` as Prebid Server reads it: comma-separated integers of -128..127 (Go's 8-bit
 * `ParseInt`, an optional sign, no spaces); '' is no ids; anything else `undefined`.
 */
export const parseGppSids = (text: string): number[] | undefined => {
  if (text === '') return [];
  const out: number[] = [];
  for (const part of text.split(',')) {
    if (!/^[+-]?\d+$/.test(part)) return undefined;
    const n = Number(part);
    if (n < -128 || n > 127) return undefined;
    out.push(n);
  }
  return out;
};

/**
 * The GDPR signal and consent of a `/setuid` query, in Prebid Server's order: `gpp_sid` and the
 * TCF EU section of `gpp` first; the legacy `gdpr` and `gdpr_consent` only where GPP says neither
 * (`gdpr` is then checked to be 0 or 1). A signal of 1 needs a consent. Errors carry Prebid
 * Server's messages (a `gpp` that does not decode, the decoder's own).
 */
export const readSetuidGdpr = (q: QueryParam, decodeGpp: (text: string) => GppDecoded): SetuidGdpr | { readonly error: string } => {
  let gppSignal: 0 | 1 | undefined;
  const sidText = q('gpp_sid') ?? '';
  if (sidText !== '') {
    const sids = parseGppSids(sidText);
    if (sids === undefined) return { error: `Error parsing gpp_sid: ${sidText} is not a list of integers` };
    if (sids.length > 0) gppSignal = sids.includes(GppSection.TCF_EU_V2) ? 1 : 0;
  }
  let gppConsent = '';
  const gppText = q('gpp') ?? '';
  if (gppText !== '') {
    const decoded = decodeGpp(gppText);
    if ('error' in decoded) return { error: `error parsing GPP string: ${decoded.error}` };
    gppConsent = decoded.gpp.tcfEu ?? '';
  }

  let legacySignal: 0 | 1 | undefined;
  const gdprText = q('gdpr') ?? '';
  // A gdpr beside a GPP signal is ignored (Prebid Server warns), even when it is not 0 or 1.
  if (gdprText !== '' && gppSignal === undefined) {
    if (gdprText !== '0' && gdprText !== '1') return { error: `the gdpr query param must be either 0 or 1. You gave ${gdprText}` };
    legacySignal = gdprText === '1' ? 1 : 0;
  }
  const legacyConsent = gppConsent === '' ? (q('gdpr_consent') ?? '') : '';

  // The legacy pair is used only when GPP gave neither a signal nor a consent.
  const out: SetuidGdpr = gppConsent === '' && gppSignal === undefined ? { gdpr: legacySignal, consent: legacyConsent } : { gdpr: gppSignal, consent: gppConsent };
  if (out.consent === '' && out.gdpr === 1) return { error: 'GDPR consent is required when gdpr signal equals 1' };
  return out;
};
