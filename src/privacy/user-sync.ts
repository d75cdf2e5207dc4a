import type { MaybePromise } from '../core/maybe-promise.js';
import { createActivityControls } from './activities.js';
import type { AllowActivitiesSetting } from './activities.js';
import type { GppDecoded } from './gpp.js';
import type { AccountPrivacySettings } from './settings.js';
import type { TcfConsent, TcfDecoded } from './tcf-consent.js';
import { purposeOneAllowed } from './tcf-enforcement.js';
import type { EnforceAlgo } from './tcf-enforcement.js';
import type { VendorList, VendorLists } from './vendor-list.js';

/** May the host write its `uids` cookie: yes, no (451), or the consent string does not decode (400). */
export type HostCookieVerdict = { readonly kind: 'allowed' } | { readonly kind: 'denied' } | { readonly kind: 'malformed'; readonly error: string };

/** What `/setuid` asks of privacy, Prebid Server's checks in that endpoint. */
export interface UserSyncPrivacy {
  /** The `syncUser` activity control for this bidder (as the request names it), with the request's GPP section ids. */
  syncUserAllowed(bidder: string, gppSids: readonly number[], account: AccountPrivacySettings | undefined): boolean;
  /**
   * TCF v2 purpose 1 for the host's own vendor id, when GDPR applies (`gdpr`, else the host's
   * default). Answers at once unless the consent names a vendor list version not yet held (full
   * enforcement); never rejects.
   */
  hostCookie(gdpr: 0 | 1 | undefined, consent: string, account: AccountPrivacySettings | undefined): MaybePromise<HostCookieVerdict>;
  /** A `gpp` string decoded (the request's, through the shared bounded decoder). */
  decodeGpp(text: string): GppDecoded;
}

export interface UserSyncPrivacyOptions {
  readonly gdprEnabled: boolean;
  readonly gdprDefault: 0 | 1;
  readonly enforceAlgo: EnforceAlgo;
  /** `privacy.gdpr.host_vendor_id`; 0: the host's cookie is never held back by TCF (Prebid Server). */
  readonly hostVendorId: number;
  readonly allowActivities: AllowActivitiesSetting;
  readonly vendorLists: VendorLists;
  readonly decodeTcf: (text: string) => TcfDecoded;
  readonly decodeGpp: (text: string) => GppDecoded;
  /** The longest wait for a vendor list version fetched on first use. */
  readonly maxWaitMs: number;
}

/** A consent string as an error message quotes it: whole when short, else its start (the caller sent it). */
const shown = (consent: string): string => (consent.length <= 64 ? consent : `${consent.slice(0, 64)}… (${consent.length} characters)`);

const ALLOWED: HostCookieVerdict = Object.freeze({ kind: 'allowed' });
const DENIED: HostCookieVerdict = Object.freeze({ kind: 'denied' });

/**
 * Purpose 1 (store and access information on a device) for the host, as Prebid Server's
 * `HostCookiesAllowed`: vendor exceptions do not apply to the host; full enforcement needs the
 * vendor list the consent names (none to be had: denied); basic reads the consent only. Pure.
 */
export const hostCookieVerdict = (algo: EnforceAlgo, hostVendorId: number, consent: TcfConsent, list: VendorList | undefined): HostCookieVerdict => {
  if (algo === 'full' && list === undefined) return DENIED;
  const vendor = list?.vendor(hostVendorId);
  return purposeOneAllowed(algo, { name: '', vendorId: hostVendorId, vendor, exception: false }, consent) ? ALLOWED : DENIED;
};

export const createUserSyncPrivacy = (opts: UserSyncPrivacyOptions): UserSyncPrivacy => {
  const controlFor = createActivityControls(opts.allowActivities);
  return {
    syncUserAllowed(bidder, gppSids, account) {
      const control = controlFor(account);
      // Prebid Server's /setuid gives the rules the GPP section ids only: no geo, no GPC.
      return control.unrestricted || control.allow('syncUser', { type: 'bidder', name: bidder }, { gppSids, country: '', region: '', gpc: false });
    },
    hostCookie(gdpr, consentText, account) {
      // The host's switch only: Prebid Server reads no account or channel switch here.
      if (!opts.gdprEnabled || opts.hostVendorId === 0) return ALLOWED;
      if ((gdpr ?? opts.gdprDefault) !== 1) return ALLOWED;
      if (consentText === '') return DENIED;
      const decoded = opts.decodeTcf(consentText);
      if ('error' in decoded) return { kind: 'malformed', error: `malformed consent string ${shown(consentText)}: ${decoded.error}` };
      const consent = decoded.consent;
      const algo = account?.gdpr?.enforce_algo ?? opts.enforceAlgo;
      if (algo === 'basic') return hostCookieVerdict(algo, opts.hostVendorId, consent, undefined);
      const held = opts.vendorLists.get(consent.vendorListVersion);
      if (held !== undefined) return hostCookieVerdict(algo, opts.hostVendorId, consent, held);
      return opts.vendorLists
        .load(consent.vendorListVersion, AbortSignal.timeout(Math.max(1, opts.maxWaitMs)))
        .then((loaded) => hostCookieVerdict(algo, opts.hostVendorId, consent, loaded ?? opts.vendorLists.latest()))
        .catch(() => DENIED);
    },
    decodeGpp: (text) => opts.decodeGpp(text),
  };
};
