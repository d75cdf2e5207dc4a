import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { compileParamsCheck } from '../params.js';
import { appnexusAdapter } from './index.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { withQueryParam } from './member-uri.js';
import { keywordsText, readImpExt, readMember, readPlacementId } from './params.js';
import { appnexusRequestExt, displayManagerVersion, moveSupplyChain, sortedExt } from './request-ext.js';
import type { BidRequest } from '../../openrtb/types.js';
import type { RequestContext } from '../adapter.js';

runAdapterFixtureDir('src/bidders/appnexus/fixtures', appnexusAdapter);

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

describe('appnexus params reading', () => {
  it('reads placement ids as Go reads an integer from a number or a string', () => {
    assert.equal(readPlacementId(12, 'placement_id'), 12);
    assert.equal(readPlacementId('12', 'placement_id'), 12);
    assert.equal(readPlacementId('-12', 'placement_id'), -12);
    assert.equal(readPlacementId('', 'placement_id'), 0);
    assert.equal(readPlacementId('-', 'placement_id'), 0);
    assert.equal(readPlacementId(undefined, 'placement_id'), 0);
    for (const bad of ['+1', '1.0', ' 1', '0x10', 'abc', '9223372036854775808', 1.5, true, {}]) {
      assert.throws(() => readPlacementId(bad, 'placement_id'), /placement_id/, JSON.stringify(bad));
    }
    assert.equal(readPlacementId('9223372036854775807', 'placement_id'), 2 ** 63);
  });
  it('writes a member as text, integers without exponent', () => {
    assert.equal(readMember('0103'), '0103');
    assert.equal(readMember(103), '103');
    assert.equal(readMember(1e21), '1000000000000000000000');
    assert.equal(readMember(undefined), '');
    assert.throws(() => readMember(null));
    assert.throws(() => readMember([1]));
  });
  it('flattens keywords in every form', () => {
    assert.equal(keywordsText('a=b,c'), 'a=b,c');
    assert.equal(keywordsText([{ key: 'a', value: ['1', '2'] }, { key: 'b' }, { key: 'c', value: [] }, { key: 'd', value: null }]), 'a=1,a=2,b,c,d');
    assert.equal(keywordsText({ a: ['1'], b: [], c: ['x', 'y'] }), 'a=1,b,c=x,c=y');
    assert.equal(keywordsText(JSON.parse('{"__proto__":["p"]}')), '__proto__=p');
    assert.equal(keywordsText(null), '');
    assert.throws(() => keywordsText(5));
    assert.throws(() => keywordsText([{ key: 'a', value: [1] }]));
  });
  it('resolves old spellings only when the new one is empty', () => {
    const read = readImpExt({ bidder: { placement_id: 5, placementId: 6, inv_code: 'new', invCode: 'old', traffic_source_code: '', trafficSourceCode: 'old-tsc' } });
    assert.ok(!('error' in read));
    assert.equal(read.params.placementId, 5);
    assert.equal(read.params.invCode, 'new');
    assert.equal(read.params.trafficSourceCode, 'old-tsc');
  });
  it('refuses an imp ext of the wrong shape', () => {
    assert.deepEqual(readImpExt(undefined), { error: 'imp.ext must be an object' });
    assert.deepEqual(readImpExt({ bidder: 'x' }), { error: 'imp.ext.bidder must be an object' });
    assert.deepEqual(readImpExt({ bidder: { placement_id: 1 }, gpid: 5 }), { error: 'imp.ext.gpid must be a string' });
    assert.deepEqual(readImpExt({ bidder: { placement_id: 1, reserve: '1' } }), { error: 'imp.ext.bidder.reserve must be a number' });
    assert.deepEqual(readImpExt({ bidder: { placement_id: 1, use_pmt_rule: 'yes' } }), { error: 'imp.ext.bidder.use_pmt_rule must be a boolean' });
    assert.deepEqual(readImpExt({ bidder: null }), { error: 'No placement or member+invcode provided' });
  });
});

describe('appnexus request ext', () => {
  it('reads the SDK as source-version, both strings', () => {
    assert.equal(displayManagerVersion({ ext: { prebid: { source: 'prebid-mobile', version: '2.0' } } }), 'prebid-mobile-2.0');
    assert.equal(displayManagerVersion({ ext: { prebid: { source: '', version: '' } } }), '-');
    assert.equal(displayManagerVersion({ ext: { prebid: { source: 'prebid-mobile' } } }), '');
    assert.equal(displayManagerVersion({ ext: { prebid: { source: 'prebid-mobile', version: 2 } } }), '');
    assert.equal(displayManagerVersion({ ext: { source: 'prebid-mobile', version: '2.0' } }), '');
    assert.equal(displayManagerVersion(undefined), '');
  });
  it('keeps the known fields of ext.appnexus and refuses mistyped ones', () => {
    assert.deepEqual(appnexusRequestExt(new Map([['appnexus', { include_brand_category: false, adpod_id: '' }]]), false), { ext: { include_brand_category: false, hb_source: 5 } });
    assert.deepEqual(appnexusRequestExt(new Map([['appnexus', null]]), true), { ext: { is_amp: 1, hb_source: 5 } });
    assert.deepEqual(appnexusRequestExt(new Map([['prebid', { targeting: { includebrandcategory: null } }]]), false), { ext: { hb_source: 5 } });
    for (const bad of [[1], { include_brand_category: 'yes' }, { is_amp: 1.5 }, { hb_source: '5' }, { adpod_id: 42 }]) {
      assert.ok('error' in appnexusRequestExt(new Map([['appnexus', bad]]), false), JSON.stringify(bad));
    }
  });
  it('moves the supply chain only out of an object source.ext', () => {
    const ext = new Map<string, unknown>();
    assert.deepEqual(moveSupplyChain({ ext: { other: 1 } }, ext), {});
    assert.deepEqual(moveSupplyChain({ ext: null as never }, ext), {});
    assert.ok('error' in moveSupplyChain({ ext: [1] as never }, ext));
    assert.equal(ext.size, 0);
  });
  it('writes ext members sorted, a __proto__ key as a plain key', () => {
    const ext = sortedExt(new Map<string, unknown>([['z', 1], ['__proto__', { polluted: true }], ['appnexus', {}]]));
    assert.equal(JSON.stringify(ext), '{"__proto__":{"polluted":true},"appnexus":{},"z":1}');
  });
});

describe('appnexus member URL', () => {
  it('adds member_id as Go rewrites a query', () => {
    assert.equal(withQueryParam('http://ib.adnxs.com/openrtb2', 'member_id', '103'), 'http://ib.adnxs.com/openrtb2?member_id=103');
    assert.equal(withQueryParam('http://ib.adnxs.com/openrtb2?query_param=true', 'member_id', '102'), 'http://ib.adnxs.com/openrtb2?member_id=102&query_param=true');
    assert.equal(withQueryParam('http://h/p?b=2&a=1&b=1#frag', 'member_id', 'x/y'), 'http://h/p?a=1&b=2&b=1&member_id=x%2Fy#frag');
    // Pairs Go cannot parse are dropped; bytes that are not UTF-8 survive.
    assert.equal(withQueryParam('http://h/p?a;b=1&c=%zz&d=%ff&&e', 'm', 'é'), 'http://h/p?d=%FF&e=&m=%C3%A9');
  });
});

describe('appnexus bids', () => {
  const context: RequestContext = { endpoint: 'http://ib.adnxs.com/openrtb2', bidderCode: 'appnexus', globalPrivacyControl: false, entryPoint: 'auction', host: TEST_ADAPTER_HOST, convertCurrency: (a) => a };
  it('answers the statuses as Prebid Server does when handed them', () => {
    assert.deepEqual(makeBids({ status: 204, headers: {}, body: '' }), { errors: [] });
    assert.deepEqual(makeBids({ status: 400, headers: {}, body: '' }).errors, [{ code: 2, message: 'Unexpected status code: 400. Run with request.debug = 1 for more info' }]);
    assert.deepEqual(makeBids({ status: 503, headers: {}, body: '' }).errors, [{ code: 3, message: 'Unexpected status code: 503. Run with request.debug = 1 for more info' }]);
  });
  it('reads a null answer as no bids, and other non-objects as an error', () => {
    assert.deepEqual(makeBids({ status: 200, headers: {}, body: 'null' }), { response: { currency: 'USD', bids: [] }, errors: [] });
    assert.deepEqual(makeBids({ status: 200, headers: {}, body: '[]' }).errors, [{ code: 3, message: 'Bad server response: not a JSON object' }]);
    assert.deepEqual(makeBids({ status: 200, headers: {}, body: '{"seatbid":[null,{"bid":null},{"bid":[null]}]}' }).errors, [{ code: 3, message: 'bid undefined: ext is missing' }]);
  });
  it('gives a video bid its duration and keeps a negative deal priority', () => {
    const body = JSON.stringify({ seatbid: [{ bid: [{ id: 'v', impid: 'i', price: 1, ext: { appnexus: { bid_ad_type: 1, deal_priority: -2, creative_info: { video: { duration: 0 } } } } }] }] });
    const bid = makeBids({ status: 200, headers: {}, body }).response?.bids[0];
    assert.deepEqual(bid?.video, { duration: 0 });
    assert.equal(bid?.dealPriority, -2);
  });
  it('makes no call when no imp is usable, and never throws on a request ext of the wrong shape', () => {
    const imp = { id: 'i', banner: { w: 300, h: 250 }, ext: { bidder: { placement_id: 1 } } };
    assert.deepEqual(makeRequests({ id: 'r', imp: [] }, context), { requests: [], errors: [] });
    const bad = makeRequests({ id: 'r', imp: [imp], ext: [1] } as unknown as BidRequest, context);
    assert.deepEqual(bad, { requests: [], errors: [{ code: 2, message: 'request.ext must be an object' }] });
    const badSource = makeRequests({ id: 'r', imp: [imp], source: { ext: 'x' } } as unknown as BidRequest, context);
    assert.deepEqual(badSource.errors, [{ code: 2, message: 'request.source.ext must be an object' }]);
  });
});
