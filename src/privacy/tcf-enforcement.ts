import { Restriction } from './tcf-consent.js';
import type { TcfConsent } from './tcf-consent.js';
import type { VendorDeclaration } from './vendor-list.js';

/** What GDPR lets one bidder have in an auction (Prebid Server's `AuctionPermissions`). */
export interface GdprPermissions {
  /** Purpose 2 has a legal basis: the bidder may be called. */
  readonly allowBidRequest: boolean;
  /** Special feature 1: precise geolocation may be passed. */
  readonly passGeo: boolean;
  /**
   * Purpose 4 (personalised advertising profiles) has a legal basis: user ids, eids and device ids
   * may be passed. This is Prebid Server Java's rule; Prebid Server Go accepts any purpose 2–10,
   * which with purpose 2 always enforced holds for every bidder it calls, so ids were never held back.
   */
  readonly passId: boolean;
}

export const ALLOW_ALL: GdprPermissions = Object.freeze({ allowBidRequest: true, passGeo: true, passId: true });

/**
 * Without a consent to read (none, undecodable, or no vendor list for full enforcement): what
 * Prebid Server grants with purpose 2 and special feature 1 enforced, as they always are here.
 */
export const DEFAULT_PERMISSIONS: GdprPermissions = Object.freeze({ allowBidRequest: false, passGeo: false, passId: false });

/**
 * `full` reads the vendor's declarations in the Global Vendor List as well as the consent;
 * `basic` reads the consent only (Prebid Server's two TCF enforcement algorithms).
 */
export type EnforceAlgo = 'full' | 'basic';

export interface VendorFacts {
  /** The bidder code, for vendor exceptions. */
  readonly name: string;
  /** GVL id; 0 when the bidder has none or it is not in the list. */
  readonly vendorId: number;
  /** Its declarations; `undefined` when not in the list (or no list: `basic` needs none). */
  readonly vendor: VendorDeclaration | undefined;
  /** Listed in `vendor_exceptions`: purposes and special feature 1 are not enforced for it. */
  readonly exception: boolean;
}

/**
 * Full enforcement of one purpose: the publisher may forbid it or require a basis; otherwise
 * consent (vendor declares consent, user gave purpose and vendor consent) or legitimate interest
 * (vendor declares it, user did not object to purpose or vendor) is enough.
 */
const fullLegalBasis = (purpose: number, v: VendorFacts, c: TcfConsent): boolean => {
  const restriction = c.restriction(purpose, v.vendorId);
  if (restriction === Restriction.NOT_ALLOWED) return false;
  if (v.exception) return true;
  const consent = v.vendor !== undefined && v.vendor.consentPurposes.has(purpose) && c.purposeConsent(purpose) && c.vendorConsent(v.vendorId);
  const li = v.vendor !== undefined && v.vendor.legitimateInterestPurposes.has(purpose) && c.purposeLegitimateInterest(purpose) && c.vendorLegitimateInterest(v.vendorId);
  if (restriction === Restriction.REQUIRE_CONSENT) return consent;
  if (restriction === Restriction.REQUIRE_LI) return li;
  return consent || li;
};

/**
 * Basic enforcement of one purpose: purpose consent and vendor consent; legitimate interest
 * transparency counts where Prebid Server lets it (purpose 2).
 */
const basicLegalBasis = (purpose: number, v: VendorFacts, c: TcfConsent, allowLi: boolean): boolean => {
  if (v.exception) return true;
  if (allowLi && c.purposeLegitimateInterest(purpose)) return true;
  if (!c.purposeConsent(purpose)) return false;
  return c.vendorConsent(v.vendorId);
};

/** One bidder's permissions under a decoded consent. Pure. */
export const gdprPermissions = (algo: EnforceAlgo, v: VendorFacts, c: TcfConsent): GdprPermissions => {
  const legal = (purpose: number): boolean => (algo === 'full' ? fullLegalBasis(purpose, v, c) : basicLegalBasis(purpose, v, c, purpose === 2));
  // Basic enforcement reads no vendor list: the user's opt-in to special feature 1 is enough.
  const geoDeclared = algo === 'basic' || (v.vendor?.specialFeatures.has(1) ?? false);
  return {
    allowBidRequest: legal(2),
    passGeo: v.exception || (c.specialFeatureOptIn(1) && geoDeclared),
    passId: legal(4),
  };
};

/**
 * Purpose 1 (store and access information on a device) for one vendor under a decoded consent:
 * whether a user sync may run for it (Prebid Server's `allowSync`), for a bidder's vendor or the
 * host's. Full enforcement as for any purpose; basic, purpose and vendor consent (purpose 1 has no
 * legitimate interest basis). Pure.
 */
export const purposeOneAllowed = (algo: EnforceAlgo, v: VendorFacts, c: TcfConsent): boolean => (algo === 'full' ? fullLegalBasis(1, v, c) : basicLegalBasis(1, v, c, false));
