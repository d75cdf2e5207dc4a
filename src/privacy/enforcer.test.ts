import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BidRequest } from '../openrtb/types.js';
import { allConsent, gppString, tcfString, vendorListJson } from '../../test/support/consent-strings.js';
import type { AllowActivitiesSetting } from './activities.js';
import { createPrivacyEnforcer } from './enforcer.js';
import type { AuctionPrivacy, PrivacyBidder } from './enforcer.js';
import type { AccountPrivacySettings, HostPrivacySettings } from './settings.js';
import { parseVendorList } from './vendor-list.js';
import type { VendorLists } from './vendor-list.js';

const HOST: HostPrivacySettings = {
  gdpr: { enabled: true, channelEnabled: {}, defaultValue: 0, enforceAlgo: 'full', vendorExceptions: [] },
  ccpa: { enforce: true, channelEnabled: {} },
  lmt: { enforce: true },
  ipv4KeepBits: 24,
  ipv6KeepBits: 56,
  allowActivities: {},
};

// Bidders by GVL id: 10 consent vendor, 20 legitimate-interest vendor, 30 flexible, 99 not in the list, none, 40 deleted.
const BIDDERS: PrivacyBidder[] = [
  { code: 'cons', gvlVendorId: 10 },
  { code: 'legint', gvlVendorId: 20 },
  { code: 'flex', gvlVendorId: 30 },
  { code: 'unlisted', gvlVendorId: 99 },
  { code: 'nogvl' },
  { code: 'deleted', gvlVendorId: 40 },
];

const BASE: BidRequest = {
  id: 'r1',
  imp: [{ id: 'i1', banner: { format: [{ w: 300, h: 250 }] }, ext: { tid: 'imp-tid' } }],
  site: { page: 'https://example.com/' },
  source: { tid: 'src-tid' },
  device: { ua: 'UA', ip: '203.0.113.77', ipv6: '2001:db8:1234:5678:9abc::1', ifa: 'ifa-1', didsha1: 'd1', geo: { lat: 51.23456, lon: 7.98765, country: 'DEU' } },
  user: { id: 'u1', buyeruid: 'b1', yob: 1980, gender: 'F', keywords: 'k', data: [{ id: 'd' }], eids: [{ source: 's.com', uids: [{ id: 'e1' }] }], ext: { eids: [{ source: 'x' }], data: { a: 1 } } },
};

/** What a bidder received, reduced to what the rules change. */
type Seen = 'blocked' | { ids: boolean; fpd: boolean; eids: boolean; preciseGeo: boolean; ip: string; tid: boolean; geo: boolean };

const seen = (p: AuctionPrivacy, b: PrivacyBidder, request: BidRequest): Seen => {
  const d = p.bidder(b);
  if (!d.allowed) return 'blocked';
  const r = d.scrub(request);
  return {
    ids: r.user?.id !== undefined && r.user.buyeruid !== undefined && r.device?.ifa !== undefined && r.device.didsha1 !== undefined,
    fpd: r.user?.keywords !== undefined && r.user.data !== undefined && r.user.ext?.data !== undefined,
    eids: r.user?.eids !== undefined && r.user.ext?.eids !== undefined,
    preciseGeo: r.device?.geo?.lat === 51.23456 && r.device.ip === '203.0.113.77',
    ip: `${r.device?.ip} ${r.device?.ipv6}`,
    tid: r.source?.tid !== undefined && r.imp[0]!.ext?.tid !== undefined,
    geo: r.device?.geo?.country !== undefined,
  };
};

const FULL = { ids: true, fpd: true, eids: true, preciseGeo: true, ip: '203.0.113.77 2001:db8:1234:5678:9abc::1', tid: true, geo: true };
const MASKED_IP = '203.0.113.0 2001:db8:1234:5600::';
const NO_GEO = { ...FULL, preciseGeo: false, ip: MASKED_IP };
const NO_IDS = { ...FULL, ids: false, eids: false };
const US_SCRUBBED = { ...FULL, ids: false, eids: false, preciseGeo: false, ip: MASKED_IP };

/** The test list (version 5) held in memory; other versions cannot be had. */
const TEST_LIST = parseVendorList(vendorListJson());
const vendorLists = (): Promise<VendorLists> =>
  Promise.resolve({ get: (v) => (v === 5 ? TEST_LIST : undefined), load: (v) => Promise.resolve(v === 5 ? TEST_LIST : undefined), latest: () => TEST_LIST, close: () => Promise.resolve() });

interface Case {
  readonly name: string;
  readonly request: BidRequest;
  readonly expect: Readonly<Record<string, Seen>>;
  readonly gpc?: boolean;
  readonly host?: Partial<HostPrivacySettings>;
  readonly account?: AccountPrivacySettings;
  readonly channel?: 'amp' | 'web' | 'app';
  readonly warning?: RegExp;
}

const gdpr = (consent: string | undefined, extra: Partial<BidRequest> = {}): BidRequest => ({ ...BASE, regs: { gdpr: 1 }, user: { ...BASE.user, ...(consent !== undefined ? { consent } : {}) }, ...extra });
const consentWith = (c: Parameters<typeof tcfString>[0]): string => tcfString({ vendors: [10, 20, 30], vendorLi: [10, 20, 30], ...c });

const CASES: Case[] = [
  { name: 'no signals: every bidder gets everything', request: BASE, expect: { cons: FULL, nogvl: FULL, unlisted: FULL } },
  {
    name: 'GDPR, everything granted: listed vendors called; not in the list, no GVL id, deleted: blocked; special feature 1 only for vendors declaring it',
    request: gdpr(allConsent()),
    expect: { cons: FULL, legint: { ...NO_GEO, ids: false, eids: false }, flex: NO_IDS, unlisted: 'blocked', nogvl: 'blocked', deleted: 'blocked' },
  },
  { name: 'GDPR without a consent string: default permissions block every bidder', request: gdpr(undefined), expect: { cons: 'blocked', legint: 'blocked' } },
  {
    name: 'GDPR with an undecodable consent string: a warning, treated as no consent',
    request: gdpr('not-a-consent-string'),
    expect: { cons: 'blocked' },
    warning: /not a valid TCF v2 consent string/,
  },
  { name: 'regs.gdpr 0: no enforcement', request: { ...gdpr(tcfString({})), regs: { gdpr: 0 } }, expect: { cons: FULL, nogvl: FULL } },
  { name: 'regs.gdpr unknown, default_value 1: enforced', request: { ...gdpr(tcfString({})), regs: {} }, host: { gdpr: { ...HOST.gdpr, defaultValue: 1 } }, expect: { cons: 'blocked' } },
  { name: 'regs.gdpr unknown, default_value 0: not enforced', request: { ...gdpr(tcfString({})), regs: {} }, expect: { cons: FULL } },
  { name: 'regs.ext.gdpr (OpenRTB 2.5) is read too', request: { ...gdpr(tcfString({})), regs: { ext: { gdpr: 1 } } }, expect: { cons: 'blocked' } },
  // Purpose 2: the bidder is called at all.
  { name: 'purpose 2 consent off: consent vendor blocked', request: gdpr(consentWith({ purposes: [1, 3, 4], specialFeatures: [1] })), expect: { cons: 'blocked', flex: 'blocked' } },
  { name: 'purpose 2 consent on, vendor consent off: blocked', request: gdpr(tcfString({ purposes: [2, 4], vendors: [30], specialFeatures: [1] })), expect: { cons: 'blocked', flex: NO_IDS } },
  { name: 'purpose 2 on, 4 off: called, ids and eids removed', request: gdpr(consentWith({ purposes: [2], specialFeatures: [1] })), expect: { cons: NO_IDS } },
  { name: 'purpose 2 and 4 on, special feature 1 off: ip masked, geo rounded', request: gdpr(consentWith({ purposes: [2, 4] })), expect: { cons: NO_GEO } },
  // Legitimate interest.
  { name: 'legitimate interest on purpose 2: LI vendor called without consent', request: gdpr(consentWith({ purposeLi: [2] })), expect: { legint: { ...NO_GEO, ids: false, eids: false }, cons: 'blocked' } },
  { name: 'user objected to purpose 2 LI: LI vendor blocked', request: gdpr(consentWith({ purposes: [2] })), expect: { legint: 'blocked' } },
  { name: 'vendor LI off: LI vendor blocked', request: gdpr(tcfString({ purposeLi: [2], vendors: [20] })), expect: { legint: 'blocked' } },
  // Publisher restrictions.
  { name: 'publisher restriction: purpose 2 not allowed for vendor 10', request: gdpr(tcfString({ purposes: [2, 4], vendors: [10], restrictions: [{ vendor: 10, purpose: 2, type: 0 }] })), expect: { cons: 'blocked' } },
  {
    name: 'publisher restriction: flexible vendor required to use LI on purpose 2, which the user gave',
    request: gdpr(tcfString({ purposeLi: [2], vendorLi: [30], restrictions: [{ vendor: 30, purpose: 2, type: 2 }] })),
    expect: { flex: { ...NO_GEO, ids: false, eids: false } },
  },
  { name: 'publisher restriction: flexible vendor required to use LI, the user gave consent only', request: gdpr(tcfString({ purposes: [2], vendors: [30], restrictions: [{ vendor: 30, purpose: 2, type: 2 }] })), expect: { flex: 'blocked' } },
  // Switches.
  { name: 'gdpr.enabled false: nothing enforced', request: gdpr(tcfString({})), host: { gdpr: { ...HOST.gdpr, enabled: false } }, expect: { cons: FULL } },
  { name: 'account turns GDPR off for amp only: amp not enforced', request: gdpr(tcfString({})), channel: 'amp', account: { gdpr: { channel_enabled: { amp: false } } }, expect: { cons: FULL } },
  { name: 'account turns GDPR off for amp only: web enforced', request: gdpr(tcfString({})), channel: 'web', account: { gdpr: { channel_enabled: { amp: false } } }, expect: { cons: 'blocked' } },
  { name: 'vendor exception: a bidder without a GVL id is called', request: gdpr(allConsent()), host: { gdpr: { ...HOST.gdpr, vendorExceptions: ['nogvl'] } }, expect: { nogvl: FULL } },
  {
    name: 'basic enforcement: the consent alone decides, not the vendor’s declarations',
    request: gdpr(tcfString({ purposes: [2, 4], vendors: [20, 99], specialFeatures: [1] })),
    account: { gdpr: { enforce_algo: 'basic' } },
    expect: { legint: FULL, cons: 'blocked', unlisted: 'blocked' },
  },
  { name: 'full enforcement of the same consent reads the declarations', request: gdpr(tcfString({ purposes: [2, 4], vendors: [20], specialFeatures: [1] })), expect: { legint: 'blocked' } },
  { name: 'request alias GVL id (ext.prebid.aliasgvlids)', request: gdpr(allConsent(), { ext: { prebid: { aliasgvlids: { nogvl: 10 } } } }), expect: { nogvl: FULL } },
  // US privacy.
  { name: 'us_privacy opt-out: every bidder scrubbed', request: { ...BASE, regs: { us_privacy: '1YYN' } }, expect: { cons: US_SCRUBBED, nogvl: US_SCRUBBED } },
  { name: 'us_privacy no opt-out', request: { ...BASE, regs: { us_privacy: '1YNN' } }, expect: { cons: FULL } },
  { name: 'us_privacy opt-out with nosale for one bidder', request: { ...BASE, regs: { us_privacy: '1YYN' }, ext: { prebid: { nosale: ['cons'] } } }, expect: { cons: FULL, nogvl: US_SCRUBBED } },
  { name: 'us_privacy opt-out with nosale *', request: { ...BASE, regs: { us_privacy: '1YYN' }, ext: { prebid: { nosale: ['*'] } } }, expect: { cons: FULL, nogvl: FULL } },
  { name: 'us_privacy opt-out, ccpa.enforce false', request: { ...BASE, regs: { us_privacy: '1YYN' } }, host: { ccpa: { enforce: false, channelEnabled: {} } }, expect: { cons: FULL } },
  { name: 'us_privacy opt-out, account ccpa.enabled false', request: { ...BASE, regs: { us_privacy: '1YYN' } }, account: { ccpa: { enabled: false } }, expect: { cons: FULL } },
  { name: 'invalid us_privacy: a warning, no opt-out', request: { ...BASE, regs: { us_privacy: '1YY' } }, expect: { cons: FULL }, warning: /us_privacy must contain 4 characters/ },
  // GPC.
  { name: 'Sec-GPC: 1 is an opt-out', request: BASE, gpc: true, expect: { cons: US_SCRUBBED } },
  { name: 'regs.ext.gpc "1" is an opt-out', request: { ...BASE, regs: { ext: { gpc: '1' } } }, expect: { cons: US_SCRUBBED } },
  { name: 'GPC with nosale for the bidder', request: { ...BASE, ext: { prebid: { nosale: ['cons'] } } }, gpc: true, expect: { cons: FULL, nogvl: US_SCRUBBED } },
  // COPPA and LMT.
  {
    name: 'COPPA: ids, user data, eids removed, ip masked, geo emptied',
    request: { ...BASE, regs: { coppa: 1 } },
    expect: { cons: { ids: false, fpd: false, eids: false, preciseGeo: false, ip: MASKED_IP, tid: true, geo: false } },
  },
  { name: 'LMT: device ids removed, ip masked, geo rounded', request: { ...BASE, device: { ...BASE.device, lmt: 1 } }, expect: { cons: US_SCRUBBED } },
  { name: 'LMT not enforced by host', request: { ...BASE, device: { ...BASE.device, lmt: 1 } }, host: { lmt: { enforce: false } }, expect: { cons: FULL } },
  // GPP.
  { name: 'GPP TCF EU section stands for user.consent (gpp_sid 2 makes GDPR apply)', request: { ...BASE, regs: { gpp: gppString({ tcfEu: allConsent() }), gpp_sid: [2] } }, expect: { cons: FULL, unlisted: 'blocked' } },
  { name: 'GPP TCF EU section without purpose 2', request: { ...BASE, regs: { gpp: gppString({ tcfEu: consentWith({ purposes: [1] }) }), gpp_sid: [2] } }, expect: { cons: 'blocked' } },
  { name: 'GPP gpp_sid without 2: GDPR does not apply', request: { ...BASE, regs: { gpp: gppString({ tcfEu: tcfString({}) }), gpp_sid: [7] } }, expect: { cons: FULL } },
  { name: 'GPP US Privacy section opt-out', request: { ...BASE, regs: { gpp: gppString({ usp: '1YYN' }), gpp_sid: [6] } }, expect: { cons: US_SCRUBBED } },
  { name: 'GPP US national sale opt-out', request: { ...BASE, regs: { gpp: gppString({ usNat: { saleOptOut: 1 } }), gpp_sid: [7] } }, expect: { cons: US_SCRUBBED } },
  { name: 'GPP US national targeted advertising opt-out with nosale', request: { ...BASE, regs: { gpp: gppString({ usNat: { targetedAdvertisingOptOut: 1 } }), gpp_sid: [7] }, ext: { prebid: { nosale: ['cons'] } } }, expect: { cons: FULL, nogvl: US_SCRUBBED } },
  { name: 'GPP US national, no opt-out', request: { ...BASE, regs: { gpp: gppString({ usNat: {} }), gpp_sid: [7] } }, expect: { cons: FULL } },
  { name: 'GPP US national GPC flag', request: { ...BASE, regs: { gpp: gppString({ usNat: { gpc: true } }), gpp_sid: [7] } }, expect: { cons: US_SCRUBBED } },
  { name: 'GPP US national section not named in gpp_sid: ignored', request: { ...BASE, regs: { gpp: gppString({ usNat: { saleOptOut: 1 } }), gpp_sid: [8] } }, expect: { cons: FULL } },
  { name: 'undecodable GPP: a warning, ignored', request: { ...BASE, regs: { gpp: 'DBABM~garbage~more', gpp_sid: [7] } }, expect: { cons: FULL }, warning: /GPP consent string is invalid/ },
];

const activities = (a: AllowActivitiesSetting): Partial<HostPrivacySettings> => ({ allowActivities: a });
const ACTIVITY_CASES: Case[] = [
  { name: 'fetchBids denied for one bidder', request: BASE, host: activities({ fetchBids: { rules: [{ condition: { componentName: ['cons'] }, allow: false }] } }), expect: { cons: 'blocked', nogvl: FULL } },
  { name: 'fetchBids default false, one bidder allowed', request: BASE, host: activities({ fetchBids: { default: false, rules: [{ condition: { componentType: ['bidder'], componentName: ['nogvl'] }, allow: true }] } }), expect: { cons: 'blocked', nogvl: FULL } },
  { name: 'first matching rule wins', request: BASE, host: activities({ fetchBids: { rules: [{ condition: { componentName: ['cons'] }, allow: true }, { allow: false }] } }), expect: { cons: FULL, nogvl: 'blocked' } },
  { name: 'fetchBids allowed overrides nothing of GDPR', request: gdpr(undefined), host: activities({ fetchBids: { default: true } }), expect: { cons: 'blocked' } },
  { name: 'transmitUfpd denied: ids, user data and eids removed', request: BASE, host: activities({ transmitUfpd: { default: false } }), expect: { cons: { ...FULL, ids: false, fpd: false, eids: false } } },
  { name: 'transmitPreciseGeo denied', request: BASE, host: activities({ transmitPreciseGeo: { default: false } }), expect: { cons: NO_GEO } },
  { name: 'transmitEids denied', request: BASE, host: activities({ transmitEids: { default: false } }), expect: { cons: { ...FULL, eids: false } } },
  { name: 'transmitTid denied', request: BASE, host: activities({ transmitTid: { default: false } }), expect: { cons: { ...FULL, tid: false } } },
  {
    name: 'rule by GPP section: ufpd denied where gpp_sid names 7',
    request: { ...BASE, regs: { gpp: gppString({ usNat: {} }), gpp_sid: [7] } },
    host: activities({ transmitUfpd: { rules: [{ condition: { gppSid: [7, 8] }, allow: false }] } }),
    expect: { cons: { ...FULL, ids: false, fpd: false, eids: false } },
  },
  { name: 'rule by GPP section: other sections untouched', request: { ...BASE, regs: { gpp: gppString({ usNat: {} }), gpp_sid: [6] } }, host: activities({ transmitUfpd: { rules: [{ condition: { gppSid: [7] }, allow: false }] } }), expect: { cons: FULL } },
  { name: 'rule by geo: country', request: BASE, host: activities({ fetchBids: { rules: [{ condition: { geo: ['DEU'] }, allow: false }] } }), expect: { cons: 'blocked' } },
  { name: 'rule by geo: another region', request: { ...BASE, device: { ...BASE.device, geo: { ...BASE.device!.geo, country: 'USA', region: 'NY' } } }, host: activities({ fetchBids: { rules: [{ condition: { geo: ['USA.CA'] }, allow: false }] } }), expect: { cons: FULL } },
  {
    name: 'account activities replace the host’s for that activity',
    request: BASE,
    host: activities({ fetchBids: { default: false } }),
    account: { allowactivities: { fetchBids: { rules: [{ condition: { componentName: ['cons'] }, allow: false }] } } },
    expect: { cons: 'blocked', nogvl: FULL },
  },
];

describe('privacy enforcement per bidder', () => {
  for (const c of [...CASES, ...ACTIVITY_CASES]) {
    it(c.name, async () => {
      const enforcer = createPrivacyEnforcer({ host: { ...HOST, ...c.host }, vendorLists: await vendorLists() });
      const p = await enforcer.begin(c.request, { channel: c.channel ?? 'web', gpc: c.gpc ?? false, account: c.account, maxWaitMs: 1000 });
      for (const [code, want] of Object.entries(c.expect)) {
        const b = BIDDERS.find((x) => x.code === code)!;
        assert.deepEqual(seen(p, b, c.request), want, code);
      }
      if (c.warning !== undefined) assert.ok(p.warnings.some((w) => c.warning!.test(w)), p.warnings.join('; '));
      else assert.deepEqual(p.warnings, []);
    });
  }

  it('leaves the request it scrubs untouched (other bidders share it)', async () => {
    const enforcer = createPrivacyEnforcer({ host: HOST, vendorLists: await vendorLists() });
    const request = structuredClone({ ...BASE, regs: { coppa: 1 } });
    const before = structuredClone(request);
    const d = (await enforcer.begin(request, { channel: 'web', gpc: false, account: undefined, maxWaitMs: 1000 })).bidder({ code: 'x' });
    assert.ok(d.allowed);
    assert.notDeepEqual(d.scrub(request), request);
    assert.deepEqual(request, before);
  });

  it('reportAnalytics: decided per module', async () => {
    const enforcer = createPrivacyEnforcer({ host: { ...HOST, ...activities({ reportAnalytics: { rules: [{ condition: { componentType: ['analytics'], componentName: ['http'] }, allow: false }] } }) }, vendorLists: await vendorLists() });
    const p = await enforcer.begin(BASE, { channel: 'web', gpc: false, account: undefined, maxWaitMs: 1000 });
    assert.equal(p.reportAnalytics('file'), true);
    assert.equal(p.reportAnalytics('http'), false);
  });

  it('without a vendor list, full enforcement gives default permissions and says why', async () => {
    const { noVendorLists } = await import('./vendor-list.js');
    const enforcer = createPrivacyEnforcer({ host: HOST, vendorLists: noVendorLists });
    const p = await enforcer.begin(gdpr(allConsent()), { channel: 'web', gpc: false, account: undefined, maxWaitMs: 1000 });
    assert.equal(p.bidder({ code: 'cons', gvlVendorId: 10 }).allowed, false);
    assert.match(p.warnings.join(), /no GDPR vendor list is available/);
  });
});
