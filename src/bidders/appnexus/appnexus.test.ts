import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { compileParamsCheck } from '../params.js';
import { appnexusAdapter } from './index.js';

runAdapterFixtureDir('test/fixtures/bidders/appnexus', appnexusAdapter);

describe('appnexus info', () => {
  it('calls ib.adnxs.com, bids on banner, video and native, and is GVL vendor 32', () => {
    assert.equal(appnexusAdapter.info.endpoint, 'http://ib.adnxs.com/openrtb2');
    assert.deepEqual(appnexusAdapter.info.mediaTypes, { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] });
    assert.equal(appnexusAdapter.info.gvlVendorId, 32);
  });
});

describe('appnexus params', () => {
  const check = compileParamsCheck(appnexusAdapter.info.paramsSchema);
  // The cases Prebid Server's schema accepts and refuses.
  const valid: unknown[] = [
    { placement_id: 123 },
    { placement_id: '123' },
    { placementId: 123 },
    { placementId: '123' },
    { placementId: 123, position: 'above' },
    { placement_id: 123, position: 'below' },
    { member: '123', inv_code: '456' },
    { member: 123, inv_code: '456' },
    { member: 123, invCode: '456' },
    { placementId: 123, invCode: 'legacy' },
    { placementId: 123, keywords: [{ key: 'foo', value: ['bar'] }] },
    { placement_id: 123, keywords: [{ key: 'foo', value: ['bar', 'baz'] }] },
    { placement_id: 123, keywords: [{ key: 'foo' }] },
    { placement_id: 123, keywords: 'foo=bar,foo=baz' },
    { placement_id: 123, keywords: { genre: ['rock', 'pop'], pets: ['dog'] } },
    { placement_id: 123, use_pmt_rule: true, private_sizes: [{ w: 300, h: 250 }] },
    { placementId: 123, ext_inv_code: 'invCode' },
    { placementId: 123, external_imp_id: 'impId' },
    { placement_id: 123, generate_ad_pod_id: true, somethingElse: 1 },
  ];
  const invalid: unknown[] = [
    undefined,
    null,
    true,
    5,
    4.2,
    [],
    {},
    { placement_id: 123, placementId: 123 },
    { member: 123 },
    { member: '123' },
    { member: '123', invCode: 45 },
    { placementId: '123', member: '123', invCode: 45 },
    { placementId: '123', member: '123', invCode: '45' },
    { placement_id: 123, member: '123', inv_code: '45' },
    { placement_id: 123, position: 'left' },
    { placement_id: 123, reserve: '45' },
    { placement_id: 123, keywords: [] },
    { placement_id: 123, keywords: '' },
    { placement_id: 123, keywords: ['foo'] },
    { placementId: 123, keywords: [{ key: 'foo', value: [] }] },
    { placementId: 123, keywords: [{ value: ['bar'] }] },
    { placement_id: 123, keywords: { genre: [12] } },
    { placement_id: 123, use_pmt_rule: 'true' },
    { placement_id: 123, private_sizes: [[300, 250]] },
    { placement_id: 123, private_sizes: [{ w: '300', h: '250' }] },
    { placementId: 123, ext_inv_code: 1 },
    { placementId: 123, external_imp_id: 2 },
    { placement_id: 1.5 },
  ];
  it('accepts what Prebid Server accepts', () => {
    for (const params of valid) assert.deepEqual(check(params), [], JSON.stringify(params));
  });
  it('refuses what Prebid Server refuses', () => {
    for (const params of invalid) assert.notDeepEqual(check(params), [], JSON.stringify(params));
  });
});
