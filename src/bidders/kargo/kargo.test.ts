import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapterFixtureDir, testRequestContext } from '../../../test/support/adapter-fixtures.js';
import type { BidRequest } from '../../openrtb/types.js';
import { compileParamsCheck } from '../params.js';
import { kargoAdapter } from './index.js';
import { kargoBidType, makeBids } from './make-bids.js';

runAdapterFixtureDir('src/bidders/kargo/fixtures', kargoAdapter);

const context = testRequestContext({ endpoint: 'http://127.0.0.1:9/bid', bidderCode: 'kargo' });

describe('kargo info', () => {
  it('calls krk2.kargo.com over OpenRTB 2.6, gzipped, bids on banner, video and native, and is GVL vendor 972', () => {
    assert.equal(kargoAdapter.info.endpoint, 'https://krk2.kargo.com/api/v1/openrtb');
    assert.deepEqual(kargoAdapter.info.mediaTypes, { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] });
    assert.equal(kargoAdapter.info.gvlVendorId, 972);
    assert.equal(kargoAdapter.info.openrtbVersion, '2.6');
    assert.equal(kargoAdapter.info.endpointCompression, 'gzip');
    assert.equal(kargoAdapter.info.userSync?.redirect?.userMacro, '$UID');
  });
});

describe('kargo params', () => {
  const check = compileParamsCheck(kargoAdapter.info.paramsSchema);
  it('takes placementId or adSlotID, empty ones too, and unknown keys', () => {
    for (const p of [{ placementId: '' }, { placementId: 'p1' }, { adSlotID: '' }, { adSlotID: 's1', other: true }]) {
      assert.deepEqual(check(p), [], JSON.stringify(p));
    }
  });
  it('refuses neither, both, other spellings and wrong types', () => {
    for (const p of [{}, { placementId: 'a', adSlotID: 'b' }, { placementID: 'a' }, { adSlotId: 'a' }, { placementId: 7 }, { adSlotID: null }, 'x', null]) {
      assert.notDeepEqual(check(p), [], JSON.stringify(p));
    }
  });
});

describe('kargo requests', () => {
  it('sends the request unchanged and does not touch it, with no headers of its own', () => {
    const request: BidRequest = { id: '__proto__', imp: [{ id: 'constructor', ext: { bidder: { placementId: 'p' } } }, { id: '__proto__' }] };
    const before = structuredClone(request);
    const out = kargoAdapter.adapter.makeRequests(request, context);
    assert.deepEqual(request, before);
    assert.deepEqual(out.errors, []);
    assert.equal(out.requests.length, 1);
    const [call] = out.requests;
    assert.deepEqual(JSON.parse(call!.body!), before);
    assert.deepEqual(call!.headers, {});
    assert.deepEqual(call!.impIds, ['constructor', '__proto__']);
    assert.equal(call!.uri, 'http://127.0.0.1:9/bid');
  });
});

describe('kargo bids', () => {
  it('types a bid by ext.mediaType, banner unless video or native', () => {
    assert.equal(kargoBidType({ id: 'b', impid: 'i', price: 1, ext: { mediaType: 'video' } }), 'video');
    assert.equal(kargoBidType({ id: 'b', impid: 'i', price: 1, ext: { mediaType: 'native' } }), 'native');
    assert.equal(kargoBidType({ id: 'b', impid: 'i', price: 1, ext: { mediaType: 'audio' } }), 'banner');
    assert.equal(kargoBidType({ id: 'b', impid: 'i', price: 1 }), 'banner');
    assert.equal(kargoBidType({ id: 'b', impid: 'i', price: 1, ext: { ['__proto__']: { mediaType: 'video' } } }), 'banner');
  });
  it('words statuses as Prebid Server does when handed one', () => {
    assert.deepEqual(makeBids({ status: 204, headers: {}, body: '' }), { errors: [] });
    for (const status of [400, 500]) {
      assert.deepEqual(makeBids({ status, headers: {}, body: '' }).errors, [
        { code: 3, message: `Unexpected status code: ${status}. Run with request.debug = 1 for more info.` },
      ]);
    }
  });
  it('reads null as no bids, refuses what is not a bid response, and never throws', () => {
    assert.deepEqual(makeBids({ status: 200, headers: {}, body: 'null' }), { response: { currency: 'USD', bids: [] }, errors: [] });
    for (const body of ['', '[]', '{', '"x"', '{"seatbid":{}}', '{"cur":1}']) {
      const out = makeBids({ status: 200, headers: {}, body });
      assert.equal(out.response, undefined, body);
      assert.equal(out.errors.length, 1, body);
      assert.equal(out.errors[0]!.code, 999, body);
    }
  });
  it('keeps null seats and bids as Go decodes them', () => {
    const out = makeBids({ status: 200, headers: {}, body: '{"cur":"GBP","seatbid":[null,{"bid":null},{"bid":[null]}]}' });
    assert.deepEqual(out, { response: { currency: 'GBP', bids: [{ bid: {}, type: 'banner' }] }, errors: [] });
  });
});
