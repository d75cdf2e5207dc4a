import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { compileParamsCheck } from '../params.js';
import { tripleliftAdapter } from './index.js';
import { bidType, makeBids } from './make-bids.js';
import { readParams } from './make-requests.js';

runAdapterFixtureDir('src/bidders/triplelift/fixtures', tripleliftAdapter);

describe('triplelift info and params', () => {
  it('calls tlx.3lift.com, bids on banner and video, and is GVL vendor 28', () => {
    assert.equal(tripleliftAdapter.info.endpoint, 'https://tlx.3lift.com/s2s/auction?sra=1&supplier_id=20');
    assert.deepEqual(tripleliftAdapter.info.mediaTypes, { site: ['banner', 'video'], app: ['banner', 'video'] });
    assert.equal(tripleliftAdapter.info.gvlVendorId, 28);
  });
  it('needs a string inventoryCode and a numeric floor', () => {
    const check = compileParamsCheck(tripleliftAdapter.info.paramsSchema);
    assert.deepEqual(check({ inventoryCode: 'a', floor: 0.5, x: 1 }), []);
    for (const p of [{}, { inventoryCode: 1 }, { inventoryCode: 'a', floor: '1' }]) assert.notDeepEqual(check(p), [], JSON.stringify(p));
    assert.deepEqual(readParams({ bidder: { inventoryCode: 'a', floor: null } }), { inventoryCode: 'a' });
    assert.deepEqual(readParams({ bidder: { floor: '1' } }), { error: 'imp.ext.bidder.floor is not a number' });
  });
});

describe('triplelift answers', () => {
  it('types bids by format and refuses exts Go would not decode', () => {
    assert.equal(bidType({ triplelift_pb: { format: 12 } }), 'video');
    assert.equal(bidType({ triplelift_pb: null }), 'banner');
    assert.deepEqual(bidType(undefined), { error: 'bid.ext is missing' });
    assert.deepEqual(bidType({ triplelift_pb: { format: '11' } }), { error: 'bid.ext.triplelift_pb.format is not an integer' });
  });
  it('answers statuses as Prebid Server does and keeps USD whatever cur says', () => {
    assert.deepEqual(makeBids({ status: 400, headers: {}, body: '' }).errors, [{ code: 2, message: 'Unexpected status code: 400. Run with request.debug = 1 for more info' }]);
    assert.equal(makeBids({ status: 302, headers: {}, body: '' }).errors[0]?.message, 'Unexpected status code: 302. Run with request.debug = 1 for more info');
    const body = JSON.stringify({ cur: 'EUR', seatbid: [{ bid: [{ id: 'b', impid: 'i', price: 1, ext: { triplelift_pb: { format: 2 } } }, { id: 'c', impid: 'i', price: 1 }] }] });
    const out = makeBids({ status: 200, headers: {}, body });
    assert.equal(out.response?.currency, 'USD');
    assert.equal(out.response?.bids.length, 1);
    assert.deepEqual(out.errors, [{ code: 999, message: 'bid.ext is missing' }]);
  });
});
