import { GppModel } from '@iabgpp/cmpapi';
import { LRUCache } from 'lru-cache';

/** GPP section ids that enforcement reads. */
export const GppSection = { TCF_EU_V2: 2, USP_V1: 6, US_NAT: 7, US_STATE_FIRST: 8, US_STATE_LAST: 23 } as const;

/** One US section (national or state) as enforcement reads it. */
export interface GppUsSection {
  /** The user opted out of sale, sharing or targeted advertising (a field set to 1). */
  readonly optOut: boolean;
  /** The section's `Gpc` flag. */
  readonly gpc: boolean;
}

/** What enforcement reads of a GPP string. */
export interface GppSignals {
  readonly sectionIds: readonly number[];
  /** The TCF EU v2 section re-encoded as a plain TC string, when present. */
  readonly tcfEu?: string;
  /** The US Privacy v1 section as a `us_privacy` string, when present. */
  readonly usPrivacy?: string;
  /** US national (7) and state (8–23) sections by id. */
  readonly us: ReadonlyMap<number, GppUsSection>;
}

export type GppDecoded = { readonly gpp: GppSignals } | { readonly error: string };

const OPT_OUT_FIELDS = ['SaleOptOut', 'SharingOptOut', 'TargetedAdvertisingOptOut'] as const;

const readUs = (model: GppModel, id: number): GppUsSection => {
  let optOut = false;
  for (const f of OPT_OUT_FIELDS) if (model.hasFieldBySectionId(id, f) && model.getFieldValueBySectionId(id, f) === 1) optOut = true;
  const gpc = model.hasFieldBySectionId(id, 'Gpc') && model.getFieldValueBySectionId(id, 'Gpc') === true;
  return { optOut, gpc };
};

/** An entry's bytes, roughly: the string, and what was kept of it (re-encoded sections, ids, the message). */
const gppBytes = (text: string, d: GppDecoded): number =>
  256 + 2 * text.length + ('error' in d ? 2 * d.error.length : 2 * ((d.gpp.tcfEu?.length ?? 0) + (d.gpp.usPrivacy?.length ?? 0)) + 16 * d.gpp.sectionIds.length + 64 * d.gpp.us.size);

const decode = (text: string): GppDecoded => {
  try {
    const model = new GppModel(text);
    const sectionIds = model.getSectionIds() as number[];
    const us = new Map<number, GppUsSection>();
    let tcfEu: string | undefined;
    let usPrivacy: string | undefined;
    for (const id of sectionIds) {
      if (id === GppSection.TCF_EU_V2) tcfEu = model.encodeSectionById(id);
      else if (id === GppSection.USP_V1) usPrivacy = model.encodeSectionById(id);
      else if (id >= GppSection.US_NAT && id <= GppSection.US_STATE_LAST) us.set(id, readUs(model, id));
    }
    return { gpp: { sectionIds, us, ...(tcfEu !== undefined ? { tcfEu } : {}), ...(usPrivacy !== undefined ? { usPrivacy } : {}) } };
  } catch (err) {
    return { error: (err as Error).message };
  }
};

/**
 * Decodes GPP strings with the IAB's `@iabgpp/cmpapi`, remembering the last `maxEntries` strings
 * (failures included), and at most `maxBytes` of them (strings and decoded signals, estimated), as
 * for TCF strings: the strings come from requests.
 */
export const createGppDecoder = (maxEntries = 2000, maxBytes = 32 * 1024 * 1024): ((text: string) => GppDecoded) => {
  const cache = new LRUCache<string, GppDecoded>({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (decoded, text) => gppBytes(text, decoded) });
  return (text) => {
    let hit = cache.get(text);
    if (hit === undefined) {
      hit = decode(text);
      cache.set(text, hit);
    }
    return hit;
  };
};
