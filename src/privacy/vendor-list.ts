import { isObject } from '../core/json-object.js';
/** What the Global Vendor List declares of one vendor: the legal bases it claims per purpose. */
export interface VendorDeclaration {
  /** Purposes it processes on consent (flexible purposes included: either basis may apply). */
  readonly consentPurposes: ReadonlySet<number>;
  /** Purposes it processes on legitimate interest (flexible purposes included). */
  readonly legitimateInterestPurposes: ReadonlySet<number>;
  readonly specialFeatures: ReadonlySet<number>;
}

/** One version of the Global Vendor List, reduced to what enforcement reads. Immutable. */
export interface VendorList {
  readonly specVersion: number;
  readonly version: number;
  vendor(id: number): VendorDeclaration | undefined;
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : []);

/**
 * A vendor list from its JSON (the IAB's `vendor-list.json` format, specification 2 or 3).
 * Throws an `Error` saying what is wrong when it is not one. The IAB library's own `GVL` class is
 * not used here: it keeps every list it sees in a process-wide cache with no bound, and a full
 * list is about a megabyte; this keeps only the vendors' declared purposes.
 */
export const parseVendorList = (json: unknown): VendorList => {
  if (!isObject(json)) throw new Error('a vendor list must be a JSON object');
  const { vendorListVersion, gvlSpecificationVersion, vendors } = json;
  if (!Number.isInteger(vendorListVersion) || (vendorListVersion as number) < 1) throw new Error('vendorListVersion must be a positive integer');
  if (!isObject(vendors)) throw new Error('vendors must be an object');
  const byId = new Map<number, VendorDeclaration>();
  for (const [key, v] of Object.entries(vendors)) {
    const id = Number(key);
    if (!Number.isInteger(id) || !isObject(v)) continue;
    // A vendor deleted from the list no longer has a legal basis for anything.
    if (v.deletedDate !== undefined && v.deletedDate !== null) continue;
    const flexible = ids(v.flexiblePurposes);
    byId.set(id, {
      consentPurposes: new Set([...ids(v.purposes), ...flexible]),
      legitimateInterestPurposes: new Set([...ids(v.legIntPurposes), ...flexible]),
      specialFeatures: new Set(ids(v.specialFeatures)),
    });
  }
  return {
    specVersion: Number.isInteger(gvlSpecificationVersion) ? (gvlSpecificationVersion as number) : 2,
    version: vendorListVersion as number,
    vendor: (id) => byId.get(id),
  };
};

/**
 * Port: the vendor lists this server knows, by version.
 *
 * Contract: `get` answers at once with a held version, else `undefined` (never does I/O).
 * `load` answers a version, fetching it on first use when the backend can (one fetch per version
 * in flight, shared; a version that could not be had is not asked for again for a while); it
 * never rejects and resolves `undefined` when the version cannot be had before `signal` aborts.
 * `latest` is the newest list held (the configured file, or the last good copy of the URL).
 * Safe for concurrent use. `close` stops refreshing.
 */
export interface VendorLists {
  get(version: number): VendorList | undefined;
  load(version: number, signal: AbortSignal): Promise<VendorList | undefined>;
  latest(): VendorList | undefined;
  close(): Promise<void>;
}

/** No vendor list configured: every lookup misses (see `docs/privacy.md` for what that means). */
export const noVendorLists: VendorLists = {
  get: () => undefined,
  load: () => Promise.resolve(undefined),
  latest: () => undefined,
  close: () => Promise.resolve(),
};
