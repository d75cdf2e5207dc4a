import { readFileSync } from 'node:fs';
import { GppModel, TcfEuV2, UsNat, UspV1 } from '@iabgpp/cmpapi';
import { GVL, PurposeRestriction, TCModel, TCString } from '@iabtechlabtcf/core';
import type { VendorList } from '@iabtechlabtcf/core';

/*
 * Real consent strings for tests, made with the IAB's own encoders against openbid's small test
 * vendor list (test/fixtures/privacy/vendor-list.json: version 5; vendor-list-v4.json: version 4).
 *   10 consent vendor: purposes 1,2,3,4,7 on consent, special feature 1
 *   20 legitimate-interest vendor: purpose 1 on consent, 2,7,9,10 on legitimate interest
 *   30 flexible vendor: 1,2 consent, 7 LI, 2 and 7 flexible, special feature 1 (not in version 4)
 *   40 deleted from the list
 */

export const VENDOR_LIST_FILE = new URL('../fixtures/privacy/vendor-list.json', import.meta.url).pathname;
export const VENDOR_LIST_V4_FILE = new URL('../fixtures/privacy/vendor-list-v4.json', import.meta.url).pathname;
export const vendorListJson = (file = VENDOR_LIST_FILE): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

export interface TcfChoices {
  readonly purposes?: readonly number[];
  readonly purposeLi?: readonly number[];
  readonly vendors?: readonly number[];
  readonly vendorLi?: readonly number[];
  readonly specialFeatures?: readonly number[];
  /** Publisher restrictions: type 0 not allowed, 1 require consent, 2 require legitimate interest. */
  readonly restrictions?: readonly { vendor: number; purpose: number; type: 0 | 1 | 2 }[];
  /** The vendor list the string is made against (version 5 unless given). */
  readonly listFile?: string;
}

/** A TCF v2 consent string with exactly these choices. */
export const tcfString = (c: TcfChoices): string => {
  const model = new TCModel(new GVL(vendorListJson(c.listFile) as unknown as VendorList));
  model.cmpId = 10;
  model.cmpVersion = 1;
  model.isServiceSpecific = true;
  for (const p of c.purposes ?? []) model.purposeConsents.set(p);
  for (const p of c.purposeLi ?? []) model.purposeLegitimateInterests.set(p);
  for (const v of c.vendors ?? []) model.vendorConsents.set(v);
  for (const v of c.vendorLi ?? []) model.vendorLegitimateInterests.set(v);
  for (const f of c.specialFeatures ?? []) model.specialFeatureOptins.set(f);
  for (const r of c.restrictions ?? []) model.publisherRestrictions.add(r.vendor, new PurposeRestriction(r.purpose, r.type));
  return TCString.encode(model);
};

/** Everything granted to every vendor of the list. */
export const allConsent = (): string =>
  tcfString({ purposes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], purposeLi: [2, 7, 8, 9, 10], vendors: [10, 20, 30], vendorLi: [10, 20, 30], specialFeatures: [1, 2] });

export interface GppSections {
  /** A TC string for the TCF EU v2 section (id 2). */
  readonly tcfEu?: string;
  /** A `us_privacy` string for the US Privacy section (id 6). */
  readonly usp?: string;
  /** US national section (id 7): opt-outs (1 opted out, 2 did not) and the GPC flag. */
  readonly usNat?: { saleOptOut?: 0 | 1 | 2; sharingOptOut?: 0 | 1 | 2; targetedAdvertisingOptOut?: 0 | 1 | 2; gpc?: boolean };
}

/** A GPP string with these sections, from the IAB's GPP encoder. */
export const gppString = (s: GppSections): string => {
  const model = new GppModel();
  if (s.tcfEu !== undefined) model.decodeSection(TcfEuV2.NAME, s.tcfEu);
  if (s.usp !== undefined) {
    model.setFieldValue(UspV1.NAME, 'Notice', s.usp[1]);
    model.setFieldValue(UspV1.NAME, 'OptOutSale', s.usp[2]);
    model.setFieldValue(UspV1.NAME, 'LspaCovered', s.usp[3]);
  }
  if (s.usNat !== undefined) {
    const n = s.usNat;
    model.setFieldValue(UsNat.NAME, 'SaleOptOutNotice', 1);
    model.setFieldValue(UsNat.NAME, 'SaleOptOut', n.saleOptOut ?? 2);
    model.setFieldValue(UsNat.NAME, 'SharingOptOut', n.sharingOptOut ?? 2);
    model.setFieldValue(UsNat.NAME, 'TargetedAdvertisingOptOut', n.targetedAdvertisingOptOut ?? 2);
    if (n.gpc !== undefined) {
      model.setFieldValue(UsNat.NAME, 'GpcSegmentIncluded', true);
      model.setFieldValue(UsNat.NAME, 'Gpc', n.gpc);
    }
  }
  return model.encode();
};

/* Strings written bit by bit: what an attacker sends, which the IAB encoders would not make. */

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const bitsOf = (value: number, width: number): string => value.toString(2).padStart(width, '0');
const base64url = (bits: string): string => {
  const padded = bits + '0'.repeat((6 - (bits.length % 6)) % 6);
  let out = '';
  for (let i = 0; i < padded.length; i += 6) out += BASE64URL[parseInt(padded.slice(i, i + 6), 2)];
  return out;
};

/** A vendor section as written: a bit field of `maxId` bits, or range entries (a pair is a range, a number a single id). */
export type WrittenVendors = { readonly maxId: number; readonly bitField: readonly number[] } | { readonly maxId: number; readonly entries: readonly (number | readonly [number, number])[] };

/** The fields of a TCF v2 core segment, written as given (no checks: any value its width holds). */
export interface WrittenTcf {
  readonly version?: number;
  readonly cmpId?: number;
  readonly vendorListVersion?: number;
  readonly purposes?: readonly number[];
  readonly purposeLi?: readonly number[];
  readonly specialFeatures?: readonly number[];
  readonly vendors: WrittenVendors;
  readonly vendorLi: WrittenVendors;
  readonly restrictions: readonly { readonly purpose: number; readonly type: number; readonly entries: readonly (number | readonly [number, number])[] }[];
  /** Further segments, appended after a `.` each. */
  readonly segments?: readonly string[];
}

const flagBits = (set: readonly number[] | undefined, width: number): string => Array.from({ length: width }, (_, i) => (set?.includes(i + 1) === true ? '1' : '0')).join('');
const entryBits = (e: number | readonly [number, number]): string => (typeof e === 'number' ? '0' + bitsOf(e, 16) : '1' + bitsOf(e[0], 16) + bitsOf(e[1], 16));
const vendorBits = (v: WrittenVendors): string =>
  bitsOf(v.maxId, 16) + ('bitField' in v ? '0' + flagBits(v.bitField, v.maxId) : '1' + bitsOf(v.entries.length, 12) + v.entries.map(entryBits).join(''));

/** The bits of a TCF v2 core segment with these fields (created 2020, CMP 10 unless given, language and country EN/DE). */
export const tcfBits = (t: WrittenTcf): string =>
  bitsOf(t.version ?? 2, 6) + bitsOf(16_000_000_000, 36) + bitsOf(16_000_000_000, 36) + bitsOf(t.cmpId ?? 10, 12) + bitsOf(1, 12) + bitsOf(1, 6) + bitsOf(4 * 64 + 13, 12) +
  bitsOf(t.vendorListVersion ?? 5, 12) + bitsOf(2, 6) + '1' + '0' + flagBits(t.specialFeatures, 12) + flagBits(t.purposes, 24) + flagBits(t.purposeLi, 24) + '0' + bitsOf(3 * 64 + 4, 12) +
  vendorBits(t.vendors) + vendorBits(t.vendorLi) +
  bitsOf(t.restrictions.length, 12) + t.restrictions.map((r) => bitsOf(r.purpose, 6) + bitsOf(r.type, 2) + bitsOf(r.entries.length, 12) + r.entries.map(entryBits).join('')).join('');

/** A TCF v2 string with these fields, written bit by bit. */
export const writtenTcf = (t: WrittenTcf): string => [base64url(tcfBits(t)), ...(t.segments ?? [])].join('.');

/**
 * A valid TCF v2 consent string of about `length` characters whose publisher-restrictions section
 * holds as many range entries over every vendor (1–65,535) as fit: a decoder that expands ranges
 * does 65,535 steps per 33 bits of input. Restrictions cycle over purposes 1–10 and the three types.
 * Each `variant` (0–4000, the CMP id) is another string, as an attacker changes one character to
 * miss a decoder's cache.
 */
export const craftedTcf = (length: number, variant = 0): string => {
  const all: readonly [number, number] = [1, 65535];
  const base = { cmpId: 10 + variant, purposes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], vendors: { maxId: 65535, entries: [all] }, vendorLi: { maxId: 65535, entries: [all] } };
  const fixedBits = tcfBits({ ...base, restrictions: [] }).length;
  let entries = Math.max(1, Math.floor((length * 6 - fixedBits) / 33));
  const restrictions = [];
  for (let r = 0; entries > 0; r++) {
    const n = Math.min(4095, entries);
    entries -= n;
    restrictions.push({ purpose: (r % 10) + 1, type: r % 3, entries: Array.from({ length: n }, () => all) });
  }
  return writtenTcf({ ...base, restrictions });
};

/** Zeckendorf bits of `n` (least significant first) and the closing 1: GPP's Fibonacci integer. */
const fibonacciBits = (n: number): string => {
  const fib = [1, 2];
  while (fib[fib.length - 1]! + fib[fib.length - 2]! <= n) fib.push(fib[fib.length - 1]! + fib[fib.length - 2]!);
  const bits = Array.from(fib, () => '0');
  let rest = n;
  for (let i = fib.length - 1; i >= 0; i--) {
    if (rest >= fib[i]!) {
      bits[i] = '1';
      rest -= fib[i]!;
    }
  }
  return bits.join('').replace(/0+$/, '') + '1';
};

/** A GPP header (type 3, version 1) naming these section ids: a number, or a range as a pair. */
export const gppHeader = (ids: readonly (number | readonly [number, number])[]): string => {
  let offset = 0;
  let bits = bitsOf(3, 6) + bitsOf(1, 6) + bitsOf(ids.length, 12);
  for (const id of ids) {
    const [start, end] = typeof id === 'number' ? [id, id] : id;
    bits += typeof id === 'number' ? '0' + fibonacciBits(start - offset) : '1' + fibonacciBits(start - offset) + fibonacciBits(end - start);
    offset = end;
  }
  return base64url(bits);
};

/** A GPP string whose only section is this TCF EU v2 string (section id 2). */
export const gppWithTcf = (tcf: string): string => `${gppHeader([2])}~${tcf}`;

/**
 * A GPP string of a dozen characters whose header names the section ids 2 to `lastId` as one
 * range, and which carries one section: a decoder that expands the range before counting the
 * sections does `lastId` steps and holds as many numbers. Each `variant` is another string.
 */
export const gppHeaderRangeBomb = (lastId: number, variant = 0): string => `${gppHeader([[2, lastId]])}~1YNN${variant === 0 ? '' : variant}`;
