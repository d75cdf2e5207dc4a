import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tcfString, vendorListJson } from '../../test/support/consent-strings.js';
import { createGppDecoder } from './gpp.js';
import { createTcfDecoder } from './tcf-consent.js';
import { createUserSyncPrivacy } from './user-sync.js';
import type { UserSyncPrivacyOptions } from './user-sync.js';
import { noVendorLists, parseVendorList } from './vendor-list.js';
import type { VendorLists } from './vendor-list.js';

// The test vendor list: vendor 10 processes purpose 1 on consent.
const list = parseVendorList(vendorListJson());
const held: VendorLists = { get: (v) => (v === list.version ? list : undefined), load: () => Promise.resolve(undefined), latest: () => list, close: () => Promise.resolve() };
const ALLOWS = tcfString({ purposes: [1], vendors: [10] });
const NO_PURPOSE = tcfString({ purposes: [2], vendors: [10] });
const NO_VENDOR = tcfString({ purposes: [1], vendors: [20] });

const gate = (o: Partial<UserSyncPrivacyOptions> = {}) =>
  createUserSyncPrivacy({
    gdprEnabled: true,
    gdprDefault: 0,
    enforceAlgo: 'full',
    hostVendorId: 10,
    allowActivities: {},
    vendorLists: held,
    decodeTcf: createTcfDecoder(),
    decodeGpp: createGppDecoder(),
    maxWaitMs: 100,
    ...o,
  });

describe('UserSyncPrivacy.hostCookie', () => {
  it('purpose 1 and vendor consent for the host vendor: allowed; either missing: denied', async () => {
    const g = gate();
    assert.deepEqual(await g.hostCookie(1, ALLOWS, undefined), { kind: 'allowed' });
    assert.deepEqual(await g.hostCookie(1, NO_PURPOSE, undefined), { kind: 'denied' });
    assert.deepEqual(await g.hostCookie(1, NO_VENDOR, undefined), { kind: 'denied' });
    assert.deepEqual(await g.hostCookie(1, '', undefined), { kind: 'denied' });
  });

  it('a consent that does not decode is malformed, named in the message', async () => {
    const v = await gate().hostCookie(1, 'garbage', undefined);
    assert.equal(v.kind, 'malformed');
    assert.match((v as { error: string }).error, /^malformed consent string garbage: /);
  });

  it('a consent over the length bound is malformed unread; the message quotes only its start', async () => {
    const long = ALLOWS + 'A'.repeat(400 - ALLOWS.length);
    const v = await gate({ decodeTcf: createTcfDecoder({ maxLength: 300 }) }).hostCookie(1, long, undefined);
    assert.deepEqual(v, { kind: 'malformed', error: `malformed consent string ${long.slice(0, 64)}… (400 characters): it is longer than 300 characters` });
    assert.deepEqual(await gate().hostCookie(1, long, undefined), { kind: 'allowed' }, 'within the default bound the same string is read (trailing zero bits are padding)');
  });

  it('GDPR not applying (signal 0, or unsaid with default 0), GDPR off, or host_vendor_id 0: allowed whatever the consent', async () => {
    assert.equal((await gate().hostCookie(0, NO_PURPOSE, undefined)).kind, 'allowed');
    assert.equal((await gate().hostCookie(undefined, NO_PURPOSE, undefined)).kind, 'allowed');
    assert.equal((await gate({ gdprEnabled: false }).hostCookie(1, NO_PURPOSE, undefined)).kind, 'allowed');
    assert.equal((await gate({ hostVendorId: 0 }).hostCookie(1, 'garbage', undefined)).kind, 'allowed');
  });

  it('an unsaid signal follows gdpr.default_value', async () => {
    assert.equal((await gate({ gdprDefault: 1 }).hostCookie(undefined, '', undefined)).kind, 'denied');
  });

  it('full enforcement without any vendor list: denied; basic reads the consent only', async () => {
    assert.equal((await gate({ vendorLists: noVendorLists }).hostCookie(1, ALLOWS, undefined)).kind, 'denied');
    assert.equal((await gate({ vendorLists: noVendorLists, enforceAlgo: 'basic' }).hostCookie(1, ALLOWS, undefined)).kind, 'allowed');
    assert.equal((await gate({ vendorLists: noVendorLists }).hostCookie(1, ALLOWS, { gdpr: { enforce_algo: 'basic' } })).kind, 'allowed', "the account's algorithm");
  });

  it('a restriction forbidding purpose 1 for the host: denied', async () => {
    const restricted = tcfString({ purposes: [1], vendors: [10], restrictions: [{ vendor: 10, purpose: 1, type: 0 }] });
    assert.equal((await gate().hostCookie(1, restricted, undefined)).kind, 'denied');
  });
});

describe('UserSyncPrivacy.syncUserAllowed', () => {
  it('no activity configured: allowed', () => assert.equal(gate().syncUserAllowed('pubmatic', [], undefined), true));

  it('host rules by bidder and GPP section; an account replaces them', () => {
    const g = gate({ allowActivities: { syncUser: { rules: [{ condition: { componentName: ['pubmatic'], gppSid: [7] }, allow: false }] } } });
    assert.equal(g.syncUserAllowed('PubMatic', [7], undefined), false);
    assert.equal(g.syncUserAllowed('pubmatic', [6], undefined), true);
    assert.equal(g.syncUserAllowed('openx', [7], undefined), true);
    assert.equal(g.syncUserAllowed('pubmatic', [7], { allowactivities: { syncUser: { default: true } } }), true);
    assert.equal(g.syncUserAllowed('openx', [], { allowactivities: { syncUser: { default: false } } }), false);
  });
});
