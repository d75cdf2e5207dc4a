import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import type { Imp } from '../../openrtb/types.js';
import { compileParamsCheck } from '../params.js';
import { sharethroughAdapter } from './index.js';
import { bidMediaType } from './make-bids.js';
import { sourceWithVersions } from './make-requests.js';
import { readParams } from './read-params.js';
import { splitByMediaType } from './split-imp.js';

runAdapterFixtureDir('src/bidders/sharethrough/fixtures', sharethroughAdapter);

describe('sharethrough info', () => {
  it('mirrors Prebid Server bidder info: endpoint, GVL 80, OpenRTB 2.6, banner/video/native, redirect sync', () => {
    const { info } = sharethroughAdapter;
    assert.equal(info.endpoint, 'https://btlr.sharethrough.com/universal/v1?supply_id=FGMrCMMc');
    assert.equal(info.gvlVendorId, 80);
    assert.equal(info.openrtbVersion, '2.6');
    assert.deepEqual(info.capabilities, { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] });
    assert.equal(info.userSync?.iframe, undefined);
    assert.equal(info.userSync?.redirect?.userMacro, '$UID');
    assert.match(info.userSync?.redirect?.url ?? '', /^https:\/\/match\.sharethrough\.com\/FGMrCMMc\/v1\?gdpr=\{\{\.GDPR\}\}.*&redirectUri=\{\{\.RedirectURL\}\}$/);
  });
});

describe('sharethrough params', () => {
  const check = compileParamsCheck(sharethroughAdapter.info.paramsSchema);
  it('takes a pkey with optional blocked lists and other keys', () => {
    for (const p of [{ pkey: 'a' }, { pkey: '' }, { pkey: 'a', badv: [], bcat: ['IAB1'], other: 1 }]) assert.deepEqual(check(p), [], JSON.stringify(p));
  });
  it('refuses no pkey, wrong types and non-objects', () => {
    for (const p of [{}, { pkey: 1 }, { pkey: 'a', badv: 'x' }, { pkey: 'a', bcat: [1] }, null, [], 'x']) assert.notDeepEqual(check(p), [], JSON.stringify(p));
  });
  it('reads params as Go decodes them', () => {
    assert.deepEqual(readParams({ bidder: { pkey: 'k', bcat: ['a', null] } }), { pkey: 'k', badv: [], bcat: ['a', ''] });
    assert.deepEqual(readParams({ bidder: null }), { pkey: '', badv: [], bcat: [] });
    assert.deepEqual(readParams({ prebid: 1, bidder: {} }), { error: 'imp.ext.prebid is not an object' });
    assert.deepEqual(readParams({}), { error: 'imp.ext.bidder is missing' });
    assert.deepEqual(readParams('x'), { error: 'imp.ext is not an object' });
    assert.deepEqual(readParams({ bidder: { pkey: 'k', badv: [3] } }), { error: 'imp.ext.bidder.badv is not an array of strings' });
  });
});

describe('sharethrough requests', () => {
  it('sets the versions in source.ext, keeping its other members, without changing the source given', () => {
    const source = { tid: 't', ext: { schain: { ver: '1.0' }, str: 'old' } };
    assert.deepEqual(sourceWithVersions(source, '9.9'), { tid: 't', ext: { schain: { ver: '1.0' }, str: '10.0', version: '9.9' } });
    assert.deepEqual(source.ext, { schain: { ver: '1.0' }, str: 'old' });
    assert.deepEqual(sourceWithVersions(undefined, ''), { ext: { str: '10.0', version: '' } });
    assert.deepEqual(sourceWithVersions({ ext: [1] }, ''), { ext: { str: '10.0', version: '' } });
  });
  it('splits an imp by media type, leaving the imp given as it was', () => {
    const imp: Imp = { id: 'i', banner: {}, video: { mimes: ['video/mp4'] }, audio: { mimes: ['audio/mp4'] } };
    const split = splitByMediaType(imp)!;
    assert.deepEqual(split, [{ id: 'i', banner: {} }, { id: 'i', video: { mimes: ['video/mp4'] } }]);
    assert.ok(imp.audio !== undefined && imp.banner !== undefined);
    assert.equal(splitByMediaType({ id: 'a', audio: { mimes: [] } }), undefined);
  });
  it('never changes the request it is given', () => {
    const request = { id: 'r', imp: [{ id: 'i', banner: {}, video: {}, bidfloor: 1, bidfloorcur: 'EUR', ext: { bidder: { pkey: 'k', bcat: ['c'] } } }], source: { ext: { a: 1 } } };
    const before = structuredClone(request);
    const context = { endpoint: 'http://127.0.0.1:9/', bidderCode: 'sharethrough', convertCurrency: (a: number) => a * 2, globalPrivacyControl: false, entryPoint: 'auction' as const, host: TEST_ADAPTER_HOST };
    const made = sharethroughAdapter.adapter.makeRequests(request, context);
    assert.equal(made.requests.length, 2);
    assert.deepEqual(request, before);
  });
});

describe('sharethrough bids', () => {
  it('types a bid by ext.prebid.type, or says why not', () => {
    assert.equal(bidMediaType({ id: 'b', impid: 'i', price: 1, ext: { prebid: { type: 'audio' } } }), 'audio');
    assert.deepEqual(bidMediaType({ id: 'b', impid: 'i', price: 1, ext: { prebid: { type: 3 } } }), { code: 3, message: 'Failed to parse bid mediatype for impression "i"' });
    assert.deepEqual(bidMediaType({ id: 'b', impid: 'i', price: 1, ext: { prebid: {} } }), { code: 999, message: 'invalid BidType: ' });
  });
});
