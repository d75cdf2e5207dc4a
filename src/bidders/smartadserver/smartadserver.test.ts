import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapterFixtureDir, testRequestContext } from '../../../test/support/adapter-fixtures.js';
import type { BidRequest } from '../../openrtb/types.js';
import { compileParamsCheck } from '../params.js';
import { smartEndpointUrl } from './endpoint-url.js';
import { smartadserverAdapter } from './index.js';
import { bidType, makeBids } from './make-bids.js';
import { makeRequests, readParams } from './make-requests.js';

runAdapterFixtureDir('src/bidders/smartadserver/fixtures', smartadserverAdapter);

const context = testRequestContext({ endpoint: 'https://ssb-global.smartadserver.com', bidderCode: 'smartadserver' });

describe('smartadserver info', () => {
  it('calls ssb-global, bids on banner, video, native and audio for site and app, is GVL vendor 45 and gzips its requests', () => {
    const { info } = smartadserverAdapter;
    assert.equal(info.endpoint, 'https://ssb-global.smartadserver.com');
    assert.deepEqual(info.capabilities, { site: ['banner', 'video', 'native', 'audio'], app: ['banner', 'video', 'native', 'audio'] });
    assert.equal(info.capabilities?.dooh, undefined);
    assert.equal(info.gvlVendorId, 45);
    assert.equal(info.endpointCompression, 'gzip');
    assert.equal(info.openrtbVersion, undefined);
    assert.equal(info.userSync?.redirect?.userMacro, '[ssb_sync_pid]');
    assert.match(info.userSync?.redirect?.url ?? '', /^https:\/\/ssbsync-global\.smartadserver\.com\/api\/sync\?callerId=5&/);
  });
});

describe('smartadserver params', () => {
  const check = compileParamsCheck(smartadserverAdapter.info.paramsSchema);
  // Prebid Server's adapters/smartadserver/params_test.go cases, and a few of our own.
  const valid: unknown[] = [{ networkId: 73 }, { networkId: 73, siteId: 1, pageId: 2, formatId: 3 }, { networkId: 5, programmaticGuaranteed: true }];
  const invalid: unknown[] = [
    null,
    true,
    5,
    4.2,
    [],
    {},
    { networkId: '73' },
    { networkId: '73', siteId: '1', pageId: '2', formatId: '3' },
    { siteId: 1, pageId: 2, formatId: 3 },
    { networkId: 73, pageId: 2, formatId: 3 },
    { networkId: 73, siteId: 1, formatId: 3 },
    { networkId: 73, siteId: 1, pageId: 2 },
    { networkId: 0 },
    { networkId: 1.5 },
  ];
  for (const params of valid) it(`accepts ${JSON.stringify(params)}`, () => assert.deepEqual(check(params), []));
  for (const params of invalid) it(`refuses ${JSON.stringify(params)}`, () => assert.notDeepEqual(check(params), []));
});

describe('smartadserver readParams', () => {
  it('reads ids as Go ints and programmaticGuaranteed as a bool, null ones as zero', () => {
    assert.deepEqual(readParams({ bidder: { networkId: 9, siteId: null, programmaticGuaranteed: true } }), {
      siteId: 0,
      pageId: 0,
      formatId: 0,
      networkId: 9,
      programmaticGuaranteed: true,
    });
    assert.deepEqual(readParams({ bidder: null }), { siteId: 0, pageId: 0, formatId: 0, networkId: 0, programmaticGuaranteed: false });
  });
  it('refuses what Go cannot decode, with its two messages', () => {
    assert.deepEqual(readParams(undefined), { error: 'Error parsing bidderExt object' });
    assert.deepEqual(readParams([1]), { error: 'Error parsing bidderExt object' });
    assert.deepEqual(readParams({ prebid: 'x', bidder: { networkId: 1 } }), { error: 'Error parsing bidderExt object' });
    assert.deepEqual(readParams({ ae: 'yes', bidder: { networkId: 1 } }), { error: 'Error parsing bidderExt object' });
    assert.deepEqual(readParams(null), { error: 'Error parsing smartadserverExt parameters' });
    assert.deepEqual(readParams({ bidder: { networkId: '1' } }), { error: 'Error parsing smartadserverExt parameters' });
    assert.deepEqual(readParams({ bidder: { networkId: 1.5 } }), { error: 'Error parsing smartadserverExt parameters' });
    assert.deepEqual(readParams({ bidder: { networkId: 1, programmaticGuaranteed: 'true' } }), { error: 'Error parsing smartadserverExt parameters' });
    assert.deepEqual(readParams({ bidder: 'x' }), { error: 'Error parsing smartadserverExt parameters' });
  });
});

describe('smartadserver endpoint', () => {
  it('joins the path as Go path.Join does and replaces the query with callerId=5', () => {
    assert.equal(smartEndpointUrl('https://ssb.example', false), 'https://ssb.example/api/bid?callerId=5');
    assert.equal(smartEndpointUrl('https://ssb.example/eu/?x=1#f', false), 'https://ssb.example/eu/api/bid?callerId=5#f');
    assert.equal(smartEndpointUrl('HTTP://127.0.0.1:8080/a/../b', false), 'http://127.0.0.1:8080/b/api/bid?callerId=5');
    assert.equal(smartEndpointUrl('https://pg.example?k=v', true), 'https://pg.example/ortb?k=v');
  });
  it('refuses a base without scheme or host', () => {
    for (const base of ['ssb.example/x', '//ssb.example', 'https:///x', 'https://user@/x', 'https://a\nb']) assert.equal(smartEndpointUrl(base, false), undefined, base);
  });
  it('reports a malformed endpoint after the imp errors, with no call', () => {
    const request: BidRequest = { id: 'r', imp: [{ id: 'a', ext: {} }, { id: 'b', banner: {}, ext: { bidder: { networkId: 2 } } }] };
    const made = makeRequests(request, { ...context, endpoint: 'not a url' });
    assert.deepEqual(made.requests, []);
    assert.deepEqual(made.errors, [
      { code: 2, message: 'Error parsing smartadserverExt parameters' },
      { code: 2, message: 'Malformed URL: not a url.' },
    ]);
  });
});

describe('smartadserver makeRequests', () => {
  it('does not change the request it is given and keeps __proto__ as an ordinary ext key', () => {
    const ext = JSON.parse('{"__proto__": {"x": 1}, "bidder": {"networkId": 12}}') as Record<string, unknown>;
    const request: BidRequest = { id: 'r', site: { page: 'p', publisher: { id: 'old' } }, imp: [{ id: 'a', banner: {}, ext }] };
    const before = structuredClone(request);
    const made = makeRequests(request, context);
    assert.deepEqual(request, before);
    const sent = JSON.parse(made.requests[0]!.body!) as BidRequest;
    assert.deepEqual(sent.site, { page: 'p', publisher: { id: '12' } });
    assert.deepEqual(Object.keys(sent.imp[0]!.ext!).sort(), ['__proto__', 'bidder']);
    assert.deepEqual(sent.imp[0]!.ext!.bidder, { siteId: 0, pageId: 0, formatId: 0, networkId: 12 });
  });
  it('takes the publisher id from the last imp read', () => {
    const request: BidRequest = {
      id: 'r',
      imp: [
        { id: 'a', banner: {}, ext: { bidder: { networkId: 1 } } },
        { id: 'b', banner: {}, ext: { bidder: { networkId: 2 } } },
        { id: 'c', banner: {}, ext: { bidder: 'bad' } },
      ],
    };
    const made = makeRequests(request, context);
    assert.equal(made.errors.length, 1);
    assert.deepEqual(made.requests[0]!.impIds, ['a', 'b']);
    assert.deepEqual((JSON.parse(made.requests[0]!.body!) as BidRequest).site, { publisher: { id: '2' } });
  });
  it('never throws for odd input', () => {
    assert.deepEqual(makeRequests({ id: 'r' } as unknown as BidRequest, context).errors, [{ code: 2, message: 'No impression in the bid request' }]);
  });
});

describe('smartadserver makeBids', () => {
  const answer = (body: unknown) => makeBids({ status: 200, headers: {}, body: typeof body === 'string' ? body : JSON.stringify(body) });
  it('types bids by mtype, banner when unknown or absent', () => {
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1, mtype: 4 }), 'native');
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1, mtype: 9 }), 'banner');
    assert.equal(bidType({ id: 'b', impid: 'i', price: 1 }), 'banner');
  });
  it('answers in USD whatever cur says, as Prebid Server does', () => {
    const out = answer({ cur: 'EUR', seatbid: [{ bid: [{ id: 'b', impid: 'i', price: 2, mtype: 2 }] }] });
    assert.deepEqual(out.response, { currency: 'USD', bids: [{ bid: { id: 'b', impid: 'i', price: 2, mtype: 2 }, type: 'video' }] });
  });
  it('gives no bids and a code-999 error for an answer that does not decode, and no error for null', () => {
    assert.deepEqual(answer({ seatbid: 'x' }).errors, [{ code: 999, message: 'Bad server response: seatbid is not an array' }]);
    assert.equal(answer({ seatbid: 'x' }).response, undefined);
    assert.deepEqual(answer('null'), { response: { currency: 'USD', bids: [] }, errors: [] });
  });
});
