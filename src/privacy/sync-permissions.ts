import { AppError, ErrorCode } from '../core/app-error.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { createActivityControls } from './activities.js';
import type { ActivityFacts } from './activities.js';
import { GppSection } from './gpp.js';
import type { GppDecoded } from './gpp.js';
import { effectivePrivacy } from './settings.js';
import type { AccountPrivacySettings, HostPrivacySettings } from './settings.js';
import type { TcfDecoded } from './tcf-consent.js';
import { purposeOneAllowed } from './tcf-enforcement.js';
import { parseUsPrivacy } from './us-privacy.js';
import type { VendorList, VendorLists } from './vendor-list.js';

/** The privacy fields of a `/cookie_sync` request, read but not judged. */
export interface SyncPrivacyInput {
  /** `gdpr` of the request, or from `gpp_sid` (section 2 named or not); `undefined`: not said. */
  readonly gdpr: 0 | 1 | undefined;
  readonly gdprConsent: string;
  readonly usPrivacy: string;
  readonly gpp: string;
  readonly gppSids: readonly number[];
  readonly account: AccountPrivacySettings | undefined;
  /** The longest wait for a vendor list version fetched on first use. */
  readonly maxWaitMs: number;
}

/** The privacy decisions of one sync request. */
export interface SyncPrivacy {
  /** The consent the sync URLs carry: the GPP TCF EU section when there is one, else `gdpr_consent`. */
  readonly gdprConsent: string;
  /** The US Privacy string the URLs carry (the GPP section's, else the request's); empty when invalid. */
  readonly usPrivacy: string;
  /** GDPR applies (signalled, or the default when not). */
  readonly gdprApplies: boolean;
  /** TCF purpose 1 for the host's vendor (`privacy.gdpr.host_vendor_id`; 0 always allows). */
  readonly hostCookieAllowed: boolean;
  /** The `syncUser` activity allows this bidder. */
  activityAllows(bidder: string): boolean;
  /** TCF purpose 1 for the bidder's vendor, and no US opt-out (when CCPA is enforced). */
  bidderAllowed(bidder: string, gvlVendorId: number | undefined): boolean;
}

export interface SyncPrivacyOptions {
  readonly host: HostPrivacySettings;
  readonly hostVendorId: number;
  readonly vendorLists: VendorLists;
  readonly decoders: { readonly tcf: (text: string) => TcfDecoded; readonly gpp: (text: string) => GppDecoded };
}

/** Port: privacy for user syncs. `begin` throws `BAD_REQUEST` for a GPP string that does not decode or disagrees with `us_privacy`, as Prebid Server refuses them. */
export interface SyncPrivacyChecker {
  begin(input: SyncPrivacyInput): MaybePromise<SyncPrivacy>;
}

/** User sync privacy as Prebid Server's `/cookie_sync` decides it (see docs/user-sync.md). */
export const createSyncPrivacyChecker = (opts: SyncPrivacyOptions): SyncPrivacyChecker => {
  const controlFor = createActivityControls(opts.host.allowActivities);

  return {
    begin(input) {
      let gdprConsent = input.gdprConsent;
      let uspFromGpp = '';
      let gppUsOptOut = false;
      if (input.gpp !== '') {
        const d = opts.decoders.gpp(input.gpp);
        if ('error' in d) throw new AppError(ErrorCode.BAD_REQUEST, `gpp is not a valid GPP string: ${d.error}`);
        if (d.gpp.tcfEu !== undefined) gdprConsent = d.gpp.tcfEu;
        if (input.gppSids.includes(GppSection.USP_V1)) uspFromGpp = d.gpp.usPrivacy ?? '';
        for (const [sid, s] of d.gpp.us) if (input.gppSids.includes(sid) && s.optOut) gppUsOptOut = true;
      }
      let usPrivacy = uspFromGpp;
      if (input.usPrivacy !== '') {
        if (usPrivacy === '') usPrivacy = input.usPrivacy;
        else if (usPrivacy !== input.usPrivacy) throw new AppError(ErrorCode.BAD_REQUEST, 'request.us_privacy consent does not match uspv1');
      }
      const usp = usPrivacy === '' ? undefined : parseUsPrivacy(usPrivacy);
      if (usp !== undefined && 'error' in usp) usPrivacy = '';

      const eff = effectivePrivacy(opts.host, input.account, 'web');
      const gdprApplies = eff.gdprEnabled && (input.gdpr ?? eff.gdprDefault) === 1;
      const usOptOut = eff.ccpaEnforced && ((usp !== undefined && !('error' in usp) && usp.optOutSale) || gppUsOptOut);
      const control = controlFor(input.account);
      const facts: ActivityFacts = { gppSids: input.gppSids, country: '', region: '', gpc: false };

      const decide = (list: VendorList | undefined): SyncPrivacy => {
        const decoded = gdprApplies && gdprConsent !== '' ? opts.decoders.tcf(gdprConsent) : undefined;
        const consent = decoded !== undefined && 'consent' in decoded ? decoded.consent : undefined;
        const latest = opts.vendorLists.latest();
        // Prebid Server's allowSync: no consent, a broken one, or no vendor list to read → no sync.
        const purposeOne = (vendorId: number, exception: boolean): boolean =>
          consent !== undefined &&
          (eff.enforceAlgo === 'basic' || list !== undefined) &&
          purposeOneAllowed(eff.enforceAlgo, { name: '', vendorId, vendor: list?.vendor(vendorId), exception }, consent);
        return {
          gdprConsent,
          usPrivacy,
          gdprApplies,
          hostCookieAllowed: !gdprApplies || opts.hostVendorId === 0 || purposeOne(opts.hostVendorId, false),
          activityAllows: (bidder) => control.unrestricted || control.allow('syncUser', { type: 'bidder', name: bidder }, facts),
          bidderAllowed(bidder, gvlVendorId) {
            if (usOptOut) return false;
            if (!gdprApplies) return true;
            // A bidder without a GVL id, or with one the newest list lacks, may not sync.
            if (gvlVendorId === undefined || (latest !== undefined && latest.vendor(gvlVendorId) === undefined)) return false;
            return purposeOne(gvlVendorId, eff.vendorExceptions.has(bidder));
          },
        };
      };

      const tcf = gdprApplies && gdprConsent !== '' ? opts.decoders.tcf(gdprConsent) : undefined;
      if (tcf === undefined || 'error' in tcf || eff.enforceAlgo !== 'full') return decide(undefined);
      const version = tcf.consent.vendorListVersion;
      const held = opts.vendorLists.get(version);
      if (held !== undefined) return decide(held);
      return opts.vendorLists.load(version, AbortSignal.timeout(Math.max(1, input.maxWaitMs))).then((loaded) => decide(loaded));
    },
  };
};
