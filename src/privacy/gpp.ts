import { GppModel, Sections } from '@iabgpp/cmpapi';
import { LRUCache } from 'lru-cache';
import { BitReader } from './bit-reader.js';
import { DEFAULT_MAX_CONSENT_LENGTH } from './tcf-consent.js';

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
  /** The TCF EU v2 section: a TC string, as the GPP string carries it (decoded, when it is used, as any TC string). */
  readonly tcfEu?: string;
  /** The US Privacy v1 section: a `us_privacy` string, as carried. */
  readonly usPrivacy?: string;
  /** US national (7) and state (8–23) sections by id. */
  readonly us: ReadonlyMap<number, GppUsSection>;
}

/** A GPP string decoded, or why it could not be (in openbid's words, never a library's). */
export type GppDecoded = { readonly gpp: GppSignals } | { readonly error: string };

const OPT_OUT_FIELDS = ['SaleOptOut', 'SharingOptOut', 'TargetedAdvertisingOptOut'] as const;

/** The largest section id read from a header: ids are small (27 today), and a bound keeps Fibonacci values exact. */
const MAX_SECTION_ID = 4096;

/**
 * The header's section ids (type 3, version 1, then a Fibonacci range), read only while they
 * can still match the `sections` carried: a range is expanded id by id, so an id past that count
 * stops the reading, whatever width the range claims (linear in the string, by construction).
 */
const readHeader = (header: string, sections: number): number[] | { readonly error: string } => {
  const r = BitReader.of(header);
  if (r === undefined || !r.has(24)) return { error: 'its header is not a GPP header' };
  if (r.int(6) !== 3 || r.int(6) !== 1) return { error: 'its header is not a GPP version 1 header' };
  const entries = r.int(12);
  const ids: number[] = [];
  let offset = 0;
  for (let i = 0; i < entries; i++) {
    if (!r.has(1)) return { error: 'its header ends within its section ids' };
    const isRange = r.bit();
    const start = r.fibonacci(MAX_SECTION_ID);
    if (start === undefined || offset + start > MAX_SECTION_ID) return { error: 'its header has a section id it cannot read' };
    const end = isRange ? r.fibonacci(MAX_SECTION_ID) : 0;
    if (end === undefined || offset + start + end > MAX_SECTION_ID) return { error: 'its header has a section id it cannot read' };
    for (let id = offset + start; id <= offset + start + end; id++) {
      if (ids.length === sections) return { error: `its header names more sections than the ${sections} it carries` };
      ids.push(id);
    }
    offset += start + end;
  }
  if (ids.length !== sections) return { error: `its header names ${ids.length} of the ${sections} sections it carries` };
  return ids;
};

/** A US section read with the IAB's library (fixed-width fields: linear in the section's length), or `undefined` when it does not decode. */
const readUs = (id: number, text: string): GppUsSection | undefined => {
  const name = Sections.SECTION_ID_NAME_MAP.get(id);
  if (name === undefined) return undefined;
  try {
    const model = new GppModel();
    model.decodeSection(name, text);
    let optOut = false;
    for (const f of OPT_OUT_FIELDS) if (model.hasFieldBySectionId(id, f) && model.getFieldValueBySectionId(id, f) === 1) optOut = true;
    const gpc = model.hasFieldBySectionId(id, 'Gpc') && model.getFieldValueBySectionId(id, 'Gpc') === true;
    return { optOut, gpc };
  } catch {
    // The library's message quotes the section; the caller's error names the section instead.
    return undefined;
  }
};

/**
 * A GPP string read as Prebid Server reads one: the header's section ids, which must match the
 * sections carried; the TCF EU v2 and US Privacy sections kept as strings (decoded where they are
 * used); US national and state sections decoded; other sections (TCF Canada, …) kept unread.
 */
export const decodeGppString = (text: string): GppDecoded => {
  const parts = text.split('~');
  const ids = readHeader(parts[0]!, parts.length - 1);
  if ('error' in ids) return ids;
  const us = new Map<number, GppUsSection>();
  let tcfEu: string | undefined;
  let usPrivacy: string | undefined;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const section = parts[i + 1]!;
    if (section.trim() === '') return { error: `its section ${id} is empty` };
    if (id === GppSection.TCF_EU_V2) tcfEu = section;
    else if (id === GppSection.USP_V1) usPrivacy = section;
    else if (id >= GppSection.US_NAT && id <= GppSection.US_STATE_LAST) {
      const read = readUs(id, section);
      if (read === undefined) return { error: `its section ${id} does not decode` };
      us.set(id, read);
    }
  }
  return { gpp: { sectionIds: ids, us, ...(tcfEu !== undefined ? { tcfEu } : {}), ...(usPrivacy !== undefined ? { usPrivacy } : {}) } };
};

/** An entry's bytes, roughly: the string, and what was kept of it (sections, ids, the message). */
const gppBytes = (text: string, d: GppDecoded): number =>
  256 + 2 * text.length + ('error' in d ? 2 * d.error.length : 2 * ((d.gpp.tcfEu?.length ?? 0) + (d.gpp.usPrivacy?.length ?? 0)) + 16 * d.gpp.sectionIds.length + 64 * d.gpp.us.size);

export interface GppDecoderOptions {
  /** Longer strings are not decoded: they are invalid (`privacy.max_consent_length`). */
  readonly maxLength?: number;
  readonly maxEntries?: number;
  readonly maxBytes?: number;
}

/**
 * Decodes GPP strings (`decodeGppString`), refusing those over `maxLength` characters before
 * reading them, and remembering the last `maxEntries` strings (failures included), and at most
 * `maxBytes` of them (strings and decoded signals, estimated), as for TCF strings: the strings
 * come from requests.
 */
export const createGppDecoder = (opts: GppDecoderOptions = {}): ((text: string) => GppDecoded) => {
  const maxLength = opts.maxLength ?? DEFAULT_MAX_CONSENT_LENGTH;
  const tooLong: GppDecoded = Object.freeze({ error: `it is longer than ${maxLength} characters` });
  const cache = new LRUCache<string, GppDecoded>({ max: opts.maxEntries ?? 2000, maxSize: opts.maxBytes ?? 32 * 1024 * 1024, sizeCalculation: (decoded, text) => gppBytes(text, decoded) });
  return (text) => {
    if (text.length > maxLength) return tooLong;
    let hit = cache.get(text);
    if (hit === undefined) {
      hit = decodeGppString(text);
      cache.set(text, hit);
    }
    return hit;
  };
};
