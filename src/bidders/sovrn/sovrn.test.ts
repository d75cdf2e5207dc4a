import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { compileParamsCheck } from '../params.js';
import { sovrnAdapter } from './index.js';
import { readParams, sovrnHeaders } from './make-requests.js';
import { goQueryUnescape } from './query-unescape.js';

runAdapterFixtureDir('src/bidders/sovrn/fixtures', sovrnAdapter);

describe('sovrn info', () => {
  it('calls pbs.lijit.com, bids on banner and video, and is GVL vendor 13', () => {
    assert.equal(sovrnAdapter.info.endpoint, 'http://pbs.lijit.com/rtb/bid?src=prebid_server');
    assert.deepEqual(sovrnAdapter.info.mediaTypes, { site: ['banner', 'video'], app: ['banner', 'video'] });
    assert.equal(sovrnAdapter.info.gvlVendorId, 13);
    assert.equal(sovrnAdapter.info.userSync?.redirect?.url, 'https://ap.lijit.com/pixel?redir={{.RedirectURL}}');
  });
});

describe('sovrn params', () => {
  const check = compileParamsCheck(sovrnAdapter.info.paramsSchema);
  it('takes tagid or tagId, a floor as number or string, and unknown keys', () => {
    for (const p of [{ tagid: '1' }, { tagId: '1' }, { tagid: '1', bidfloor: 0.5 }, { tagid: '1', bidfloor: '0.5', adunitcode: 'a', other: 1 }]) {
      assert.deepEqual(check(p), [], JSON.stringify(p));
    }
  });
  it('refuses no tag id, both spellings at once, and wrong types', () => {
    for (const p of [{}, { tagid: '1', tagId: '2' }, { tagid: 1 }, { tagid: '1', bidfloor: true }, { tagid: '1', adunitcode: 3 }, 'x']) {
      assert.notDeepEqual(check(p), [], JSON.stringify(p));
    }
  });
  it('reads params as Go decodes them', () => {
    assert.deepEqual(readParams({ bidder: { tagid: '', tagId: 'b', bidfloor: '1.5' } }), { tagId: 'b', bidFloor: 1.5 });
    assert.deepEqual(readParams({ bidder: { tagid: 'a', bidfloor: 'err' } }), { tagId: 'a', bidFloor: 0 });
    assert.deepEqual(readParams({ bidder: null }), { tagId: '', bidFloor: 0 });
    assert.deepEqual(readParams({ bidder: { tagid: 7 } }), { error: 'imp.ext.bidder.tagid is not a string' });
    assert.deepEqual(readParams({}), { error: 'imp.ext.bidder is missing' });
    assert.deepEqual(readParams([]), { error: 'imp.ext is not an object' });
  });
});

describe('sovrn headers', () => {
  it('sends only the user headers that are set, DNT 1 included, and trims the buyer uid', () => {
    assert.deepEqual(sovrnHeaders({ id: 'r', imp: [], device: { ua: '', dnt: 1 }, user: { buyeruid: '  u-1 \n' } }), {
      'Content-Type': 'application/json',
      DNT: '1',
      Cookie: 'ljt_reader=u-1',
    });
    assert.deepEqual(sovrnHeaders({ id: 'r', imp: [], user: { buyeruid: ' ' } }), { 'Content-Type': 'application/json' });
  });
});

describe('sovrn markup', () => {
  it('decodes adm as Go query-unescapes it', () => {
    assert.equal(goQueryUnescape('%3Cdiv%3Ea+b%C3%A9%3C%2Fdiv%3E'), '<div>a bé</div>');
    assert.equal(goQueryUnescape('plain ü'), 'plain ü');
    assert.equal(goQueryUnescape('100%'), undefined);
    assert.equal(goQueryUnescape('%zz'), undefined);
    assert.equal(goQueryUnescape('%ff'), '\ufffd');
  });
  it('drops a bid whose adm does not decode, without an error, and decodes the others', () => {
    const request = { id: 'r', imp: [{ id: 'i', banner: {}, ext: { bidder: { tagid: 't' } } }] };
    const call = sovrnAdapter.adapter.makeRequests(request, { endpoint: 'http://127.0.0.1:9/', bidderCode: 'sovrn', convertCurrency: (a) => a, globalPrivacyControl: false, entryPoint: 'auction', host: TEST_ADAPTER_HOST }).requests[0]!;
    const body = JSON.stringify({ id: 'r', cur: 'EUR', seatbid: [{ bid: [{ id: 'a', impid: 'i', price: 1, adm: '50%off' }, { id: 'b', impid: 'i', price: 2, adm: '%3Cb%3E' }] }] });
    const out = sovrnAdapter.adapter.makeBids(request, call, { status: 200, headers: {}, body });
    assert.deepEqual(out.errors, []);
    assert.deepEqual(out.response, { currency: 'EUR', bids: [{ bid: { id: 'b', impid: 'i', price: 2, adm: '<b>' }, type: 'banner' }] });
  });
});
