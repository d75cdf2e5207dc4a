import { TCString } from '@iabtechlabtcf/core';
import type { TCModel } from '@iabtechlabtcf/core';
import { LRUCache } from 'lru-cache';

/** TCF publisher restriction types, as the consent string encodes them. */
export const Restriction = { NOT_ALLOWED: 0, REQUIRE_CONSENT: 1, REQUIRE_LI: 2 } as const;
export type Restriction = (typeof Restriction)[keyof typeof Restriction];

/** What enforcement reads of a decoded TCF v2 consent string. Read-only; shared across requests. */
export interface TcfConsent {
  /** The Global Vendor List version the CMP used. */
  readonly vendorListVersion: number;
  purposeConsent(purpose: number): boolean;
  /** Legitimate interest transparency established for the purpose (the user did not object). */
  purposeLegitimateInterest(purpose: number): boolean;
  vendorConsent(vendor: number): boolean;
  vendorLegitimateInterest(vendor: number): boolean;
  specialFeatureOptIn(feature: number): boolean;
  /** The publisher's restriction of this purpose for this vendor, when there is one. */
  restriction(purpose: number, vendor: number): Restriction | undefined;
}

const viewOf = (m: TCModel): TcfConsent => {
  // Publisher restrictions are few; read them once into purpose → vendor → type.
  const restrictions = new Map<string, Restriction>();
  const pr = m.publisherRestrictions;
  if (pr.numRestrictions > 0) {
    for (const vendor of pr.getVendors()) {
      for (const r of pr.getRestrictions(vendor)) {
        if (r.purposeId !== undefined) restrictions.set(`${r.purposeId}:${vendor}`, r.restrictionType);
      }
    }
  }
  return {
    vendorListVersion: Number(m.vendorListVersion ?? 0),
    purposeConsent: (p) => m.purposeConsents.has(p),
    purposeLegitimateInterest: (p) => m.purposeLegitimateInterests.has(p),
    vendorConsent: (v) => m.vendorConsents.has(v),
    vendorLegitimateInterest: (v) => m.vendorLegitimateInterests.has(v),
    specialFeatureOptIn: (f) => m.specialFeatureOptins.has(f),
    restriction: (p, v) => restrictions.get(`${p}:${v}`),
  };
};

/** A consent string decoded, or why it could not be. */
export type TcfDecoded = { readonly consent: TcfConsent } | { readonly error: string };

/**
 * Decodes TCF v2 strings with the IAB's `@iabtechlabtcf/core`, remembering the last `maxEntries`
 * strings (failures included), and at most `maxBytes` of them (strings and decoded models,
 * estimated): a CMP hands the same string to every auction of a page view and beyond, and
 * decoding costs far more than a lookup. The strings come from requests, and a range entry of a
 * few bytes decodes to a set of up to 65,535 vendors, so the count alone does not bound memory.
 */
export const createTcfDecoder = (maxEntries = 2000, maxBytes = 32 * 1024 * 1024): ((text: string) => TcfDecoded) => {
  const cache = new LRUCache<string, { decoded: TcfDecoded; bytes: number }>({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (entry) => entry.bytes });
  return (text) => {
    let hit = cache.get(text);
    if (hit === undefined) {
      hit = decode(text);
      cache.set(text, hit);
    }
    return hit.decoded;
  };
};

/** Bytes per member of a decoded vector's set, roughly (a V8 hash-set slot and its number). */
const SET_MEMBER_BYTES = 32;

const decode = (text: string): { decoded: TcfDecoded; bytes: number } => {
  const base = 256 + 2 * text.length;
  try {
    const model = TCString.decode(text);
    if (model.version !== 2) return { decoded: { error: `version ${String(model.version)} is not TCF v2` }, bytes: base };
    const members =
      model.vendorConsents.size + model.vendorLegitimateInterests.size + model.purposeConsents.size + model.purposeLegitimateInterests.size + model.specialFeatureOptins.size +
      model.publisherRestrictions.numRestrictions * (model.publisherRestrictions.getMaxVendorId() + 1);
    return { decoded: { consent: viewOf(model) }, bytes: base + 8192 + SET_MEMBER_BYTES * members };
  } catch (err) {
    const error = (err as Error).message;
    return { decoded: { error }, bytes: base + 2 * error.length };
  }
};
