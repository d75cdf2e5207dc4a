import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapterFixtureDir, testRequestContext } from '../../../test/support/adapter-fixtures.js';
import type { BidRequest } from '../../openrtb/types.js';
import { compileParamsCheck } from '../params.js';
import { thirtyThreeAcrossAdapter } from './index.js';
import { bidType, makeBids } from './make-bids.js';
import { makeRequests, readParams, ttxVideo } from './make-requests.js';
import { ttxRequestExt } from './request-ext.js';

runAdapterFixtureDir('src/bidders/33across/fixtures', thirtyThreeAcrossAdapter);

const context = testRequestContext({ endpoint: 'https://ssc.33across.com/api/v1/s2s', bidderCode: '33across' });

describe('33across info', () => {
  it('calls ssc.33across.com, bids on banner and video for site traffic only, is GVL vendor 58 and syncs by iframe', () => {
    const { info } = thirtyThreeAcrossAdapter;
    assert.equal(info.endpoint, 'https://ssc.33across.com/api/v1/s2s');
    assert.deepEqual(info.capabilities, { site: ['banner', 'video'] });
    assert.deepEqual(info.mediaTypes, { site: ['banner', 'video'], app: [] });
    assert.equal(info.gvlVendorId, 58);
    assert.equal(info.endpointCompression, undefined);
    assert.equal(info.userSync?.iframe?.userMacro, '33XUSERID33X');
    assert.equal(info.userSync?.redirect, undefined);
  });
});

describe('33across params', () => {
  const check = compileParamsCheck(thirtyThreeAcrossAdapter.info.paramsSchema);
  // Prebid Server's adapters/33across/params_test.go cases, and a few of our own.
  const valid: unknown[] = [
    { productId: 'inview', siteId: 's' },
    { productId: 'siab', zoneId: 'z' },
    { productId: 'instream', siteId: 's', zoneId: 'z', other: 1 },
  ];
  const invalid: unknown[] = [null, true, 5, [], {}, { productId: 'inview' }, { siteId: 's' }, { siteId: 's', zoneId: 'z' }, { productId: 1, siteId: 's' }, { productId: 'p', siteId: 2 }];
  for (const params of valid) it(`accepts ${JSON.stringify(params)}`, () => assert.deepEqual(check(params), []));
  for (const params of invalid) it(`refuses ${JSON.stringify(params)}`, () => assert.notDeepEqual(check(params), []));
});

describe('33across request ext', () => {
  it('keeps only the callers, adding Prebid-Server last', () => {
    assert.deepEqual(ttxRequestExt(undefined), { ext: { ttx: { caller: [{ name: 'Prebid-Server', version: 'n/a' }] } } });
    assert.deepEqual(ttxRequestExt({ ttx: { caller: [null, { name: 'w' }] }, prebid: {} }), {
      ext: { ttx: { caller: [{}, { name: 'w' }, { name: 'Prebid-Server', version: 'n/a' }] } },
    });
  });
  it('refuses an ext Go cannot decode', () => {
    for (const ext of ['x', { ttx: [] }, { ttx: { caller: {} } }, { ttx: { caller: [1] } }, { ttx: { caller: [{ version: 2 }] } }]) {
      assert.ok('error' in ttxRequestExt(ext), JSON.stringify(ext));
    }
  });
  it('sends the calls without ext, with a code-999 error, when the ext does not decode', () => {
    const request = { id: 'r', ext: { ttx: 'x' }, imp: [{ id: 'a', banner: {}, ext: { bidder: { productId: 'p', siteId: 's' } } }] } as unknown as BidRequest;
    const made = makeRequests(request, context);
    assert.deepEqual(made.errors, [{ code: 999, message: 'request.ext.ttx is not an object' }]);
    assert.equal((JSON.parse(made.requests[0]!.body!) as BidRequest).ext, undefined);
  });
});

describe('33across imps', () => {
  it('reads params as Go decodes them', () => {
    assert.deepEqual(readParams({ bidder: null }), { productId: '', siteId: '', zoneId: '' });
    assert.deepEqual(readParams({ bidder: { productId: 'p', zoneId: null } }), { productId: 'p', siteId: '', zoneId: '' });
    assert.deepEqual(readParams({}), { error: 'imp.ext.bidder is missing' });
    assert.deepEqual(readParams(undefined), { error: 'imp.ext is missing' });
    assert.deepEqual(readParams({ bidder: { siteId: 3 } }), { error: 'imp.ext.bidder.siteId is not a string' });
    assert.deepEqual(readParams({ prebid: 1, bidder: {} }), { error: 'imp.ext.prebid is not an object' });
  });
  it('takes empty lists as present, and sets startdelay for instream only', () => {
    const video = { w: 1, h: 1, protocols: [], mimes: [], playbackmethod: [] };
    assert.deepEqual(ttxVideo(video, 'instream'), { ...video, startdelay: 0 });
    assert.deepEqual(ttxVideo(video, 'siab'), video);
    assert.equal(ttxVideo({ ...video, playbackmethod: undefined }, 'siab'), undefined);
  });
  it('sends an imp with null params with an empty prod and no zoneid, and never changes the request', () => {
    const request = { id: 'r', imp: [{ id: 'a', banner: {}, tagid: 't', ext: { bidder: null, gpid: 'g' } }] } as unknown as BidRequest;
    const before = structuredClone(request);
    const made = makeRequests(request, context);
    assert.deepEqual(request, before);
    assert.deepEqual((JSON.parse(made.requests[0]!.body!) as BidRequest).imp, [{ id: 'a', banner: {}, tagid: 't', ext: { ttx: { prod: '' } } }]);
  });
  it('groups by product and zone run together, as Prebid Server does', () => {
    const imp = (id: string, productId: string, siteId: string) => ({ id, banner: {}, ext: { bidder: { productId, siteId } } });
    const made = makeRequests({ id: 'r', imp: [imp('a', 'ab', 'c'), imp('b', 'a', 'bc'), imp('c', 'x', 'y')] }, context);
    assert.deepEqual(
      made.requests.map((r) => r.impIds),
      [['a', 'b'], ['c']],
    );
  });
});

describe('33across makeBids', () => {
  const answer = (body: unknown) => makeBids({ status: 200, headers: {}, body: typeof body === 'string' ? body : JSON.stringify(body) });
  it('types a bid video only when ext.ttx.mediaType says so', () => {
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1, ext: { ttx: { mediaType: 'video' } } }), 'video');
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1, ext: { ttx: { mediaType: 'native' } } }), 'banner');
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1, ext: { ttx: 'video' } }), 'banner');
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1 }), 'banner');
  });
  it('answers in USD whatever cur says', () => {
    assert.equal(answer({ cur: 'GBP', seatbid: [{ bid: [{ id: 'b', impid: 'i', price: 1 }] }] }).response?.currency, 'USD');
  });
  it('gives a code-999 error for an answer that does not decode', () => {
    assert.deepEqual(answer('{').errors.map((e) => e.code), [999]);
    assert.equal(answer('{').response, undefined);
  });
});
