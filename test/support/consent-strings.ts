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
