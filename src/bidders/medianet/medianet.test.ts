import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir, testRequestContext } from '../../../test/support/adapter-fixtures.js';
import type { BidRequest } from '../../openrtb/types.js';
import { compileParamsCheck } from '../params.js';
import { medianetEndpoint } from './endpoint.js';
import { MEDIANET_EXTRA_INFO, medianetAdapter } from './index.js';
import { makeBids } from './make-bids.js';

// Prebid Server runs its medianet fixtures with this extra info (adapters/medianet/medianet_test.go).
runAdapterFixtureDir('src/bidders/medianet/fixtures', medianetAdapter, { extraInfo: 'http://localhost:8080/extrnal_url' });

const context = testRequestContext({ endpoint: 'https://prebid-adapter.media.net/rtb/pb/prebids2s', bidderCode: 'medianet' });

describe('medianet info', () => {
  it('calls prebid-adapter.media.net, bids on banner, video and native, is GVL vendor 142 and syncs by iframe and redirect', () => {
    assert.equal(medianetAdapter.info.endpoint, 'https://prebid-adapter.media.net/rtb/pb/prebids2s');
    assert.deepEqual(medianetAdapter.info.mediaTypes, { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] });
    assert.equal(medianetAdapter.info.gvlVendorId, 142);
    assert.equal(medianetAdapter.info.userSync?.iframe?.userMacro, '<vsid>');
    assert.match(medianetAdapter.info.userSync?.redirect?.url ?? '', /^https:\/\/cs\.media\.net\/cksync\.php\?/);
  });
  it('sends Prebid Server\'s extra info as src by default', () => {
    const made = medianetAdapter.adapter.makeRequests({ id: 'r', imp: [{ id: 'i', banner: {} }] }, { ...context, host: { ...TEST_ADAPTER_HOST, extraInfo: MEDIANET_EXTRA_INFO } });
    assert.equal(made.requests[0]!.uri, 'https://prebid-adapter.media.net/rtb/pb/prebids2s?src=https%3A%2F%2Fmedianet.golang.pbs.com');
    assert.equal(MEDIANET_EXTRA_INFO, 'https://medianet.golang.pbs.com');
  });
});

describe('medianet params', () => {
  const check = compileParamsCheck(medianetAdapter.info.paramsSchema);
  // Prebid Server's adapters/medianet/params_test.go cases.
  it('accepts cid and crid', () => assert.deepEqual(check({ cid: '123', crid: '1234' }), []));
  const invalid: unknown[] = [null, true, 5, 4.2, [], {}, { cid: '', crid: '' }, { cid: 'only cid is present' }, { crid: 'only crid is present' }, { ccid: '123', ccrid: '123' }, { aid: 123, placementId: '123', siteId: '321' }];
  for (const params of invalid) it(`refuses ${JSON.stringify(params)}`, () => assert.notDeepEqual(check(params), []));
});

describe('medianet endpoint', () => {
  it('adds src to the query, re-encoded and sorted as Go\'s url.Values writes it', () => {
    assert.equal(medianetEndpoint('https://x.example/p', 'http://h:1/a b'), 'https://x.example/p?src=http%3A%2F%2Fh%3A1%2Fa+b');
    assert.equal(medianetEndpoint('https://x.example/p?z=1&a=%41+b&src=old', 'S'), 'https://x.example/p?a=A+b&src=old&src=S&z=1');
    assert.equal(medianetEndpoint('https://x.example/p?bad=%zz&semi=a;b&ok=1#frag', 'S'), 'https://x.example/p?ok=1&src=S#frag');
    assert.equal(medianetEndpoint('https://x.example/p?__proto__=1', "it's"), 'https://x.example/p?__proto__=1&src=it%27s');
  });
  it('leaves the endpoint alone without extra info', () => {
    assert.equal(medianetEndpoint('https://x.example/p?z=1&a=2', ''), 'https://x.example/p?z=1&a=2');
  });
});

describe('medianet makeBids', () => {
  const answer = (body: unknown) => makeBids({ status: 200, headers: {}, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const bid = { id: 'b', impid: 'i', price: 1, crid: 'c' };
  it('words statuses as Prebid Server does if handed them', () => {
    assert.deepEqual(makeBids({ status: 204, headers: {}, body: '' }), { errors: [] });
    assert.deepEqual(makeBids({ status: 400, headers: {}, body: '' }).errors, [{ code: 2, message: 'Unexpected status code: 400. Run with request.debug = 1 for more info' }]);
    assert.deepEqual(makeBids({ status: 503, headers: {}, body: '' }).errors, [{ code: 3, message: 'Unexpected status code: 503. Run with request.debug = 1 for more info' }]);
  });
  it('types bids by mtype, leaving out others with a code-999 error', () => {
    const got = answer({ seatbid: [{ bid: [{ ...bid, mtype: 4 }, { ...bid, id: 'a', impid: 'audio', mtype: 3 }, { ...bid, id: 'n', impid: 'none' }] }] });
    assert.deepEqual(got.response?.bids.map((b) => [b.bid.id, b.type]), [['b', 'native']]);
    assert.deepEqual(got.errors, [
      { code: 999, message: 'Unable to fetch mediaType for imp: audio' },
      { code: 999, message: 'Unable to fetch mediaType for imp: none' },
    ]);
  });
  it('reads every answer as USD, whatever its cur', () => {
    assert.equal(answer({ cur: 'EUR', seatbid: [{ bid: [{ ...bid, mtype: 1 }] }] }).response?.currency, 'USD');
  });
  it('refuses an answer that does not decode, with code 999', () => {
    assert.deepEqual(answer('{"seatbid":').errors.map((e) => e.code), [999]);
    assert.equal(answer({ seatbid: [{ bid: [{ ...bid, price: '1' }] }] }).response, undefined);
  });
  it('sends the request as it came, with Content-Type', () => {
    const request: BidRequest = { id: 'r', imp: [{ id: 'i', banner: {}, ext: { bidder: { cid: 'C', crid: 'R' } } }], ext: { x: 1 } };
    const made = medianetAdapter.adapter.makeRequests(request, context);
    assert.deepEqual(JSON.parse(made.requests[0]!.body!) as unknown, request);
    assert.deepEqual(made.requests[0]!.headers, { 'Content-Type': 'application/json;charset=utf-8' });
    assert.deepEqual(made.requests[0]!.impIds, ['i']);
  });
});
