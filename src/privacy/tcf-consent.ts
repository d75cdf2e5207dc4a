import { LRUCache } from 'lru-cache';
import { BitReader } from './bit-reader.js';
import { bitFieldIds, RangeList } from './id-ranges.js';
import type { IdRanges } from './id-ranges.js';

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
  /**
   * The publisher's restriction of this purpose for this vendor, when there is one; of several,
   * the one Prebid Server checks first (not allowed, then require consent, then require
   * legitimate interest).
   */
  restriction(purpose: number, vendor: number): Restriction | undefined;
}

/** A consent string decoded, or why it could not be (in openbid's words, never a library's). */
export type TcfDecoded = { readonly consent: TcfConsent } | { readonly error: string };

/** The core segment's fields before the vendor sections, version included (TCF v2: 213 bits). */
const HEADER_BITS = 213;

type Failure = { readonly error: string };
const fail = (error: string): Failure => ({ error });

/** One range entry (a single id, or a start and an end), checked: ids from 1, an end not before its start. */
const readEntry = (r: BitReader, list: RangeList, where: string): Failure | undefined => {
  if (!r.has(17)) return fail(`it ends within ${where}`);
  const isRange = r.bit();
  const start = r.int(16);
  if (isRange && !r.has(16)) return fail(`it ends within ${where}`);
  const end = isRange ? r.int(16) : start;
  if (start === 0) return fail(`${where} names vendor 0`);
  if (end < start) return fail(`${where} has a range that ends before it starts`);
  list.add(start, end);
  return undefined;
};

/** A vendor section (consents or legitimate interests): a max id, then a bit field or range entries. */
const readVendors = (r: BitReader, where: string): IdRanges | Failure => {
  if (!r.has(17)) return fail(`it ends within ${where}`);
  const maxId = r.int(16);
  if (!r.bit()) {
    if (!r.has(maxId)) return fail(`it ends within ${where}`);
    const bits = new Uint8Array(Math.ceil(maxId / 8));
    for (let i = 0; i < maxId; i++) if (r.bit()) bits[i >> 3]! |= 0x80 >> (i & 7);
    return bitFieldIds(bits, maxId);
  }
  if (!r.has(12)) return fail(`it ends within ${where}`);
  const entries = r.int(12);
  const list = new RangeList();
  for (let i = 0; i < entries; i++) {
    const failed = readEntry(r, list, where);
    if (failed !== undefined) return failed;
  }
  return list.seal();
};

/** The publisher restrictions: purpose and type → the vendors' ranges (the same pair twice: their union). */
const readRestrictions = (r: BitReader): Map<number, IdRanges> | Failure => {
  const where = 'its publisher restrictions';
  if (!r.has(12)) return fail(`it ends before ${where}`);
  const count = r.int(12);
  const lists = new Map<number, RangeList>();
  for (let i = 0; i < count; i++) {
    if (!r.has(20)) return fail(`it ends within ${where}`);
    const purpose = r.int(6);
    const type = r.int(2);
    const entries = r.int(12);
    if (purpose === 0) return fail(`${where} name purpose 0`);
    if (type === 3) return fail(`${where} use type 3, which TCF does not define`);
    const key = purpose * 4 + type;
    const list = lists.get(key) ?? new RangeList();
    lists.set(key, list);
    for (let j = 0; j < entries; j++) {
      const failed = readEntry(r, list, where);
      if (failed !== undefined) return failed;
    }
  }
  return new Map(Array.from(lists, ([key, list]) => [key, list.seal()]));
};

/** Bit `n` (from 1, most significant first) of a `width`-bit field (width ≤ 24). */
const flag = (field: number, width: number, n: number): boolean => n >= 1 && n <= width && ((field >>> (width - n)) & 1) === 1;

/** The restriction Prebid Server checks first: not allowed, then require consent, then require legitimate interest. */
const restrictionOf = (restrictions: ReadonlyMap<number, IdRanges>, purpose: number, vendor: number): Restriction | undefined => {
  if (restrictions.size === 0) return undefined;
  if (restrictions.get(purpose * 4 + Restriction.NOT_ALLOWED)?.has(vendor) === true) return Restriction.NOT_ALLOWED;
  if (restrictions.get(purpose * 4 + Restriction.REQUIRE_CONSENT)?.has(vendor) === true) return Restriction.REQUIRE_CONSENT;
  if (restrictions.get(purpose * 4 + Restriction.REQUIRE_LI)?.has(vendor) === true) return Restriction.REQUIRE_LI;
  return undefined;
};

/**
 * Decodes a TCF v2 string's core segment (the segments after a `.` are not read, as Prebid Server
 * reads none): one pass over its bits, each range entry kept as a pair whatever its width, so the
 * cost and the memory are linear in the string's length. Accepts what the IAB's decoder accepts,
 * except a vendor id 0 (Prebid Server refuses it too). `bytes`: what the result holds, roughly.
 */
export const decodeTcfString = (text: string): { readonly consent: TcfConsent; readonly bytes: number } | Failure => {
  const dot = text.indexOf('.');
  const core = dot < 0 ? text : text.slice(0, dot);
  const r = BitReader.of(core);
  if (r === undefined || core === '') return fail('it is not base64url');
  const version = r.int(6);
  if (version !== 2) return fail(`version ${version} is not TCF v2`);
  if (!r.has(HEADER_BITS - 6)) return fail('it ends within its header');
  r.position += 36 + 36 + 12 + 12 + 6 + 12; // created … consent language: enforcement reads none of them
  const vendorListVersion = r.int(12);
  r.position += 6 + 1 + 1; // policy version, service specific, non-standard texts
  const specialFeatures = r.int(12);
  const purposes = r.int(24);
  const purposesLi = r.int(24);
  r.position += 1 + 12; // purpose one treatment, publisher country
  const consents = readVendors(r, 'its vendor consents');
  if ('error' in consents) return consents;
  const li = readVendors(r, 'its vendor legitimate interests');
  if ('error' in li) return li;
  const restrictions = readRestrictions(r);
  if ('error' in restrictions) return restrictions;
  let bytes = 512 + consents.bytes + li.bytes;
  for (const ranges of restrictions.values()) bytes += 64 + ranges.bytes;
  const consent: TcfConsent = {
    vendorListVersion,
    purposeConsent: (p) => flag(purposes, 24, p),
    purposeLegitimateInterest: (p) => flag(purposesLi, 24, p),
    vendorConsent: (v) => consents.has(v),
    vendorLegitimateInterest: (v) => li.has(v),
    specialFeatureOptIn: (f) => flag(specialFeatures, 12, f),
    restriction: (p, v) => restrictionOf(restrictions, p, v),
  };
  return { consent, bytes };
};

/** `privacy.max_consent_length`'s default: the longest consent string decoded. */
export const DEFAULT_MAX_CONSENT_LENGTH = 16384;

export interface TcfDecoderOptions {
  /** Longer strings are not decoded: they are invalid (`privacy.max_consent_length`). */
  readonly maxLength?: number;
  readonly maxEntries?: number;
  readonly maxBytes?: number;
}

/**
 * Decodes TCF v2 strings (`decodeTcfString`), refusing those over `maxLength` characters before
 * reading them, and remembering the last `maxEntries` strings (failures included), and at most
 * `maxBytes` of them (strings and decoded consents, estimated): a CMP hands the same string to
 * every auction of a page view and beyond. A decode costs at most a few microseconds per
 * character of the string (docs/privacy.md), so `maxLength` bounds every decode's time.
 */
export const createTcfDecoder = (opts: TcfDecoderOptions = {}): ((text: string) => TcfDecoded) => {
  const maxLength = opts.maxLength ?? DEFAULT_MAX_CONSENT_LENGTH;
  const tooLong: TcfDecoded = Object.freeze({ error: `it is longer than ${maxLength} characters` });
  const cache = new LRUCache<string, { decoded: TcfDecoded; bytes: number }>({
    max: opts.maxEntries ?? 2000,
    maxSize: opts.maxBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (entry) => entry.bytes,
  });
  return (text) => {
    if (text.length > maxLength) return tooLong;
    let hit = cache.get(text);
    if (hit === undefined) {
      const result = decodeTcfString(text);
      const base = 256 + 2 * text.length;
      hit = 'error' in result ? { decoded: result, bytes: base + 2 * result.error.length } : { decoded: { consent: result.consent }, bytes: base + result.bytes };
      cache.set(text, hit);
    }
    return hit.decoded;
  };
};
