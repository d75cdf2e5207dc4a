import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapterFixtureDir, testRequestContext } from '../../../test/support/adapter-fixtures.js';
import type { BidRequest } from '../../openrtb/types.js';
import { compileParamsCheck } from '../params.js';
import { ADF_ALIASES, adfAdapter } from './index.js';
import { bidType, makeBids } from './make-bids.js';
import { makeRequests, readParams } from './make-requests.js';

runAdapterFixtureDir('src/bidders/adf/fixtures', adfAdapter);

const context = testRequestContext({ endpoint: 'https://adx.adform.net/adx/openrtb', bidderCode: 'adf' });

describe('adf info', () => {
  it('calls adx.adform.net, bids on banner, native and video, is GVL vendor 50 and syncs by redirect', () => {
    assert.equal(adfAdapter.info.endpoint, 'https://adx.adform.net/adx/openrtb');
    assert.deepEqual(adfAdapter.info.mediaTypes, { site: ['banner', 'native', 'video'], app: ['banner', 'native', 'video'] });
    assert.equal(adfAdapter.info.gvlVendorId, 50);
    assert.equal(adfAdapter.info.userSync?.redirect?.url, 'https://c1.adform.net/cookie?redirect_url={{.RedirectURL}}');
    assert.equal(adfAdapter.info.userSync?.redirect?.userMacro, '$UID');
  });
  it('names adform as its built-in alias', () => {
    assert.deepEqual(ADF_ALIASES, ['adform']);
  });
});

describe('adf params', () => {
  const check = compileParamsCheck(adfAdapter.info.paramsSchema);
  // Prebid Server's adapters/adf/params_test.go cases.
  const valid: unknown[] = [
    { mid: 123 },
    { mid: '123' },
    { inv: 321, mname: 'pcl1' },
    { inv: 321, mname: '12345' },
    { mid: 123, inv: 321, mname: 'pcl1' },
    { mid: '123', inv: 321, mname: 'pcl1' },
    { mid: '123', priceType: 'gross' },
    { mid: '123', priceType: 'net' },
  ];
  const invalid: unknown[] = [null, true, 5, 4.2, [], {}, { notmid: '123' }, { mid: 'placementID' }, { inv: 321, mname: 12345 }, { inv: 321 }, { inv: '321' }, { mname: '12345' }, { mid: '123', priceType: 'GROSS' }];
  for (const params of valid) it(`accepts ${JSON.stringify(params)}`, () => assert.deepEqual(check(params), []));
  for (const params of invalid) it(`refuses ${JSON.stringify(params)}`, () => assert.notDeepEqual(check(params), []));
});

describe('adf makeRequests', () => {
  const request = (imps: unknown[], ext?: unknown): BidRequest => ({ id: 'r', imp: imps, ...(ext !== undefined ? { ext } : {}) }) as BidRequest;
  const body = (r: BidRequest) => JSON.parse(makeRequests(r, context).requests[0]!.body!) as BidRequest;

  it('reads mid as a number or a string, and refuses types Go cannot decode', () => {
    assert.deepEqual(readParams({ mid: 42 }), { mid: '42', priceType: '' });
    assert.deepEqual(readParams({ mid: '42', priceType: 'net' }), { mid: '42', priceType: 'net' });
    assert.deepEqual(readParams(null), { mid: '', priceType: '' });
    assert.ok('error' in readParams({ mid: 'abc' }));
    assert.ok('error' in readParams({ mid: true }));
    assert.ok('error' in readParams({ inv: 1.5 }));
    assert.ok('error' in readParams({ mname: 3 }));
    assert.ok('error' in readParams(undefined));
  });
  it('leaves out an imp whose params cannot be read, with a bad-input error, and still makes the call', () => {
    const made = makeRequests(request([{ id: 'a', banner: {}, ext: { bidder: { mid: true } } }]), context);
    assert.deepEqual(made.errors.map((e) => e.code), [2]);
    assert.equal(made.requests.length, 1);
    assert.deepEqual(made.requests[0]!.impIds, []);
    assert.deepEqual((JSON.parse(made.requests[0]!.body!) as BidRequest).imp, []);
  });
  it('drops a tag id the imp had when mid is absent', () => {
    const sent = body(request([{ id: 'a', tagid: 'old', banner: {}, ext: { bidder: { inv: 1, mname: 'x' } } }]));
    assert.equal(sent.imp[0]!.tagid, undefined);
  });
  it('keeps only prebid and schain of the request ext beside pt, as Go rebuilds it', () => {
    const sent = body(request([{ id: 'a', banner: {}, ext: { bidder: { mid: 1, priceType: 'gross' } } }], { prebid: { debug: true }, schain: { ver: '1.0' }, other: 1 }));
    assert.deepEqual(sent.ext, { prebid: { debug: true }, schain: { ver: '1.0' }, pt: 'gross' });
  });
  it('sends a request ext it cannot read unchanged, with a code-999 error', () => {
    const made = makeRequests(request([{ id: 'a', banner: {}, ext: { bidder: { mid: 1, priceType: 'net' } } }], { prebid: 'x' }), context);
    assert.deepEqual(made.errors.map((e) => e.code), [999]);
    assert.deepEqual((JSON.parse(made.requests[0]!.body!) as BidRequest).ext, { prebid: 'x' });
  });
  it('leaves the request ext alone when no imp names a price type', () => {
    assert.deepEqual(body(request([{ id: 'a', banner: {}, ext: { bidder: { mid: 1 } } }], { other: 1 })).ext, { other: 1 });
  });
});

describe('adf makeBids', () => {
  const answer = (body: unknown) => makeBids({ status: 200, headers: {}, body: typeof body === 'string' ? body : JSON.stringify(body) });
  it('words statuses as Prebid Server does if handed them', () => {
    assert.deepEqual(makeBids({ status: 204, headers: {}, body: '' }), { errors: [] });
    assert.deepEqual(makeBids({ status: 400, headers: {}, body: '' }).errors, [{ code: 2, message: 'Unexpected status code: 400. Bad request from publisher.' }]);
    assert.deepEqual(makeBids({ status: 500, headers: {}, body: '' }).errors, [{ code: 3, message: 'Unexpected status code: 500.' }]);
  });
  it('types a bid by ext.prebid.type only', () => {
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1, ext: { prebid: { type: 'audio' } } }), 'audio');
    assert.deepEqual(bidType({ id: 'b', impid: 'i', price: 1, mtype: 1 }), { code: 3, message: 'Failed to parse impression "i" mediatype' });
    assert.deepEqual(bidType({ id: 'b', impid: 'i', price: 1, ext: { prebid: { type: 7 } } }), { code: 3, message: 'Failed to parse impression "i" mediatype' });
    assert.deepEqual(bidType({ id: 'b', impid: 'i', price: 1, ext: { prebid: {} } }), { code: 999, message: 'invalid BidType: ' });
  });
  it('refuses an answer that does not decode, with code 999', () => {
    assert.deepEqual(answer({ seatbid: {} }).errors, [{ code: 999, message: 'Bad server response: seatbid is not an array' }]);
    assert.equal(answer({ seatbid: {} }).response, undefined);
  });
  it('takes the currency of the answer, USD when it names none', () => {
    assert.equal(answer({ cur: 'EUR' }).response?.currency, 'EUR');
    assert.equal(answer({ cur: null }).response?.currency, 'USD');
  });
});
