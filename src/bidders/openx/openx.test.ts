import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { buildTestApp } from '../../../test/support/app.js';
import type { BidRequest } from '../../openrtb/types.js';
import { compileParamsCheck } from '../params.js';
import { openxAdapter } from './index.js';
import { bidMeta, impMediaType, makeBids } from './make-bids.js';
import { readParams } from './make-requests.js';
import { responseProblem } from '../go-bid-response.js';

runAdapterFixtureDir('src/bidders/openx/fixtures', openxAdapter);

describe('openx info', () => {
  it('calls rtb.openx.net, bids on banner, video and native, and is GVL vendor 69', () => {
    assert.equal(openxAdapter.info.endpoint, 'http://rtb.openx.net/prebid');
    assert.deepEqual(openxAdapter.info.mediaTypes, { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] });
    assert.equal(openxAdapter.info.gvlVendorId, 69);
  });
});

describe('openx params', () => {
  const check = compileParamsCheck(openxAdapter.info.paramsSchema);
  const uuid = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const valid: unknown[] = [
    { unit: 123, delDomain: 'foo.ba' },
    { unit: '123', delDomain: 'foo.ba' },
    { unit: '123', delDomain: 'foo.bar' },
    { unit: '123', delDomain: 'se-demo-d.openx.net' },
    { unit: '123', platform: uuid },
    { unit: '123', delDomain: 'foo.bar', platform: uuid },
    { unit: '123', delDomain: 'foo.bar', customFloor: 0.1 },
    { unit: '123', delDomain: 'foo.bar', customFloor: '0.1' },
    { unit: '123', delDomain: 'foo.bar', customFloor: 0 },
    { unit: '123', delDomain: 'foo.bar', customFloor: '7' },
    { unit: '123', delDomain: 'foo.bar', customParams: { foo: 'bar' } },
    { unit: '123', delDomain: 'foo.bar', customParams: { foo: ['bar', 'baz'] } },
    { unit: 0, delDomain: 'foo.bar', somethingElse: true },
  ];
  const invalid: unknown[] = [
    undefined,
    null,
    '123',
    [],
    {},
    { unit: '', delDomain: 'foo.bar' },
    { unit: '123' },
    { delDomain: 'foo.bar' },
    { unit: '123', delDomain: '' },
    { unit: '123a', delDomain: 'foo.bar' },
    { unit: -1, delDomain: 'foo.bar' },
    { unit: true, delDomain: 'foo.bar' },
    { unit: '123', delDomain: 'foo.b' },
    { unit: '123', delDomain: 'foo.barr' },
    { unit: '123', delDomain: '.bar' },
    { unit: '123', delDomain: 'foo.b4r' },
    { unit: '123', platform: 'PLATFORM' },
    { unit: '123', platform: '' },
    { unit: '123', delDomain: 'foo.bar', customFloor: '' },
    { unit: '123', delDomain: 'foo.bar', customFloor: '1.' },
    { unit: '123', delDomain: 'foo.bar', customFloor: '1.0x' },
    { unit: '123', delDomain: 'foo.bar', customFloor: '-0.1' },
    { unit: '123', delDomain: 'foo.bar', customFloor: -0.1 },
    { unit: '123', delDomain: 'foo.bar', customParams: 'foo: bar' },
    { unit: '123', delDomain: 'foo.bar', customParams: ['foo'] },
  ];
  for (const params of valid) it(`accepts ${JSON.stringify(params)}`, () => assert.deepEqual(check(params), []));
  for (const params of invalid) it(`rejects ${JSON.stringify(params)}`, () => assert.ok(check(params).length > 0));
  it('says which of delDomain and platform is wanted', () => {
    assert.ok(check({ unit: '1' }).some((m) => m.includes('delDomain')));
  });
});

describe('openx params reading', () => {
  it('reads units and floors given as numbers or strings', () => {
    assert.deepEqual(readParams({ unit: 540, delDomain: 'a.bc', customFloor: '0.4' }), { unit: '540', delDomain: 'a.bc', platform: '', customFloor: 0.4 });
    assert.deepEqual(readParams({ unit: '540', platform: 'p', customFloor: 2 }), { unit: '540', delDomain: '', platform: 'p', customFloor: 2 });
  });
  it('ignores a floor that does not read as a number, as Go does', () => {
    assert.deepEqual(readParams({ unit: '1', customFloor: 'cheap' }), { unit: '1', delDomain: '', platform: '' });
    assert.deepEqual(readParams({ unit: '1', customFloor: '' }), { unit: '1', delDomain: '', platform: '' });
  });
  it('reads null params as none, and null fields as absent', () => {
    assert.deepEqual(readParams(null), { delDomain: '', platform: '' });
    assert.deepEqual(readParams({ unit: null, delDomain: null, customParams: null }), { delDomain: '', platform: '' });
  });
  it('refuses fields of the wrong type', () => {
    assert.deepEqual(readParams(undefined), { error: 'ext.bidder is missing' });
    assert.deepEqual(readParams('x'), { error: 'ext.bidder is not an object' });
    assert.deepEqual(readParams({ unit: {} }), { error: 'ext.bidder.unit is neither a number nor a string' });
    assert.deepEqual(readParams({ platform: 3 }), { error: 'ext.bidder.platform is not a string' });
    assert.deepEqual(readParams({ customFloor: [1] }), { error: 'ext.bidder.customFloor is neither a number nor a string' });
    assert.deepEqual(readParams({ customParams: [] }), { error: 'ext.bidder.customParams is not an object' });
  });
});

describe('openx requests', () => {
  const context = { endpoint: 'http://127.0.0.1:9/ox', bidderCode: 'openx', globalPrivacyControl: false, entryPoint: 'auction' as const, host: TEST_ADAPTER_HOST, convertCurrency: (n: number) => n };
  it('keeps a key named __proto__ in imp.ext as a plain key', () => {
    const request = JSON.parse('{"id":"r","imp":[{"id":"i","banner":{},"ext":{"__proto__":{"x":1},"bidder":{"unit":"1","delDomain":"a.bc"}}}]}') as BidRequest;
    const made = openxAdapter.adapter.makeRequests(request, context);
    assert.deepEqual(made.errors, []);
    assert.equal(made.requests[0]?.body, '{"id":"r","imp":[{"id":"i","banner":{},"ext":{"__proto__":{"x":1}},"tagid":"1"}],"ext":{"delDomain":"a.bc","bc":"hb_pbs_1.0.0"}}');
  });
  it('leaves the request it is given unchanged', () => {
    const request: BidRequest = { id: 'r', imp: [{ id: 'v', rwdd: 1, video: { mimes: ['video/mp4'], ext: { a: 1 } }, ext: { bidder: { unit: '1', delDomain: 'a.bc', customFloor: 1 } } }], ext: { prebid: {} } };
    const before = structuredClone(request);
    openxAdapter.adapter.makeRequests(request, context);
    assert.deepEqual(request, before);
  });
  it('sends no request and no error for a request without imps', () => {
    assert.deepEqual(openxAdapter.adapter.makeRequests({ id: 'r', imp: [] }, context), { requests: [], errors: [] });
  });
});

describe('openx bid types', () => {
  const imps = [
    { id: 'b', banner: {} },
    { id: 'bv', banner: {}, video: {} },
    { id: 'vn', video: {}, native: {} },
    { id: 'n', native: {} },
    { id: 'a', audio: {} },
  ];
  it('types by imp: banner first, then video, then native; banner when unknown', () => {
    assert.deepEqual(
      ['b', 'bv', 'vn', 'n', 'a', 'missing'].map((id) => impMediaType(id, imps)),
      ['banner', 'banner', 'video', 'native', 'banner', 'banner'],
    );
  });
});

describe('openx bid meta', () => {
  // Prebid Server's own cases for getBidMeta, and a few of the Go decoding's corners.
  const cases: [unknown, unknown][] = [
    ['malformed', undefined],
    [{}, undefined],
    [null, undefined],
    [[1], undefined],
    [{ dsp_id: '456', brand_id: '789', buyer_id: '123' }, { networkId: 456, advertiserId: 123, brandId: 789 }],
    [{ dsp_id: '456', brand_id: 'malformed', buyer_id: '123' }, undefined],
    [{ dsp_id: '456', brand_id: '789', buyer_id: '123-456' }, { networkId: 456, brandId: 789 }],
    [{ buyer_id: '123', dsp_id: '456' }, { networkId: 456, advertiserId: 123 }],
    [{ buyer_id: '123', brand_id: '789' }, { advertiserId: 123, brandId: 789 }],
    [{ dsp_id: '456', brand_id: '789' }, { networkId: 456, brandId: 789 }],
    [{ buyer_id: '123' }, { advertiserId: 123 }],
    [{ dsp_id: '456' }, { networkId: 456 }],
    [{ brand_id: '789' }, { brandId: 789 }],
    [{ buyer_id: 'malformed', dsp_id: 'malformed', brand_id: 'malformed' }, undefined],
    [{ dsp_id: '007' }, undefined],
    [{ dsp_id: '' }, undefined],
    [{ dsp_id: '1.5' }, undefined],
    [{ dsp_id: '9223372036854775808' }, undefined],
    [{ dsp_id: null, buyer_id: null, brand_id: '4' }, { brandId: 4 }],
    [{ buyer_id: '007' }, { advertiserId: 7 }],
    [{ buyer_id: '' }, undefined],
    [{ buyer_id: '-5', dsp_id: '0' }, undefined],
    [{ buyer_id: 5 }, undefined],
  ];
  for (const [ext, meta] of cases) it(`reads ${JSON.stringify(ext)}`, () => assert.deepEqual(bidMeta(ext), meta));
});

describe('openx answers', () => {
  const request: BidRequest = { id: 'r', imp: [{ id: 'i', banner: {} }] };
  const answer = (body: unknown) => makeBids(request, { status: 200, headers: {}, body: typeof body === 'string' ? body : JSON.stringify(body) });
  it('answers the statuses as Prebid Server does when handed them', () => {
    assert.deepEqual(makeBids(request, { status: 204, headers: {}, body: '' }), { errors: [] });
    assert.deepEqual(makeBids(request, { status: 400, headers: {}, body: '' }).errors, [{ code: 2, message: 'Unexpected status code: 400. Run with request.debug = 1 for more info' }]);
    assert.deepEqual(makeBids(request, { status: 503, headers: {}, body: '' }).errors, [{ code: 3, message: 'Unexpected status code: 503. Run with request.debug = 1 for more info' }]);
  });
  it('takes the currency of the answer, USD when it names none', () => {
    assert.equal(answer({}).response?.currency, 'USD');
    assert.equal(answer({ cur: 'USD' }).response?.currency, 'USD');
    assert.equal(answer({ cur: 'EUR' }).response?.currency, 'EUR');
  });
  it('refuses an answer that is not a JSON object', () => {
    assert.deepEqual(answer('[]').errors, [{ code: 3, message: 'Bad server response: not a JSON object' }]);
    assert.equal(answer('').errors[0]?.code, 3);
    assert.equal(answer('{"seatbid":').response, undefined);
  });
  it('carries the duration and first category as video data, and nothing when neither is there', () => {
    const bid = { id: 'b', impid: 'i', price: 1, crid: 'c', mtype: 1 };
    const typed = (extra: Record<string, unknown>) => answer({ seatbid: [{ bid: [{ ...bid, ...extra }] }] }).response?.bids[0];
    assert.equal(typed({})?.video, undefined);
    assert.deepEqual(typed({ dur: 30 })?.video, { duration: 30 });
    assert.deepEqual(typed({ cat: ['IAB2', 'IAB3'] })?.video, { primaryCategory: 'IAB2' });
    assert.equal(typed({ cat: [] })?.video, undefined);
  });
  it('finds the fields Go could not decode', () => {
    const withBid = (bid: Record<string, unknown>) => ({ seatbid: [{ bid: [bid] }] });
    assert.equal(responseProblem({ id: 'r', cur: 'USD', nbr: 1, ext: { anything: [1] } }), undefined);
    assert.equal(responseProblem({ id: 5 }), 'id is not a string');
    assert.equal(responseProblem({ nbr: 1.5 }), 'nbr is not an integer');
    assert.equal(responseProblem({ seatbid: {} }), 'seatbid is not an array');
    assert.equal(responseProblem({ seatbid: ['x'] }), 'seatbid[0] is not an object');
    assert.equal(responseProblem({ seatbid: [{ group: 300 }] }), 'seatbid[0].group is not a small integer');
    assert.equal(responseProblem({ seatbid: [{ bid: {} }] }), 'seatbid[0].bid is not an array');
    assert.equal(responseProblem({ seatbid: [{ bid: [7] }] }), 'seatbid[0].bid[0] is not an object');
    assert.equal(responseProblem(withBid({ w: '300' })), 'seatbid[0].bid[0].w is not an integer');
    assert.equal(responseProblem(withBid({ mtype: 200 })), 'seatbid[0].bid[0].mtype is not a small integer');
    assert.equal(responseProblem(withBid({ adomain: ['a', 1] })), 'seatbid[0].bid[0].adomain is not an array of strings');
    assert.equal(responseProblem(withBid({ attr: [1, 'x'] })), 'seatbid[0].bid[0].attr is not an array of integers');
    assert.equal(responseProblem(withBid({ id: null, price: null, cat: null, ext: 'any' })), undefined);
  });
});

/** A real OpenX stand-in on 127.0.0.1: it bids on every imp of each call and remembers the calls. */
const startOpenxStandIn = async (): Promise<{ url: string; calls: { headers: IncomingHttpHeaders; body: BidRequest }[]; close: () => Promise<void> }> => {
  const calls: { headers: IncomingHttpHeaders; body: BidRequest }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Its bidder info asks for gzip request bodies, as Prebid Server's yaml does.
      const raw = Buffer.concat(chunks);
      const body = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')) as BidRequest;
      calls.push({ headers: req.headers, body });
      const bids = body.imp.map((imp) => ({
        id: `ox-${imp.id}`,
        impid: imp.id,
        price: 1.5,
        adm: imp.video !== undefined ? '<VAST version="3.0"></VAST>' : '<div/>',
        crid: `cr-${imp.id}`,
        w: 300,
        h: 250,
        mtype: imp.video !== undefined ? 2 : 1,
        ext: { dsp_id: '12', buyer_id: '34' },
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: body.id, cur: 'USD', seatbid: [{ seat: 'openx', bid: bids }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/prebid`, calls, close: () => new Promise((resolve) => server.close(() => resolve())) };
};

describe('openx through the auction endpoint', () => {
  it('calls the configured endpoint once for banner imps and once per video imp, and answers the bids under the openx seat with their meta', async () => {
    const openx = await startOpenxStandIn();
    const app = await buildTestApp({ adapters: { openx: { endpoint: openx.url } } });
    try {
      const res = await app.server.inject({
        method: 'POST',
        url: '/openrtb2/auction',
        payload: {
          id: 'auction-ox',
          site: { page: 'https://p.example/' },
          imp: [
            { id: 'top', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { openx: { unit: '540120345', delDomain: 'publisher-d.openx.net', customFloor: '0.2' } } } } },
            { id: 'clip', video: { mimes: ['video/mp4'], w: 640, h: 480 }, ext: { prebid: { bidder: { openx: { unit: 540120346, delDomain: 'publisher-d.openx.net' } } } } },
          ],
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      const byImp = new Map(openx.calls.map((c) => [c.body.imp.map((i) => i.id).join(','), c]));
      assert.deepEqual([...byImp.keys()].sort(), ['clip', 'top']);
      const banner = byImp.get('top')!.body;
      assert.equal(banner.imp[0]?.tagid, '540120345');
      assert.equal(banner.imp[0]?.bidfloor, 0.2);
      assert.equal(banner.imp[0]?.ext, undefined);
      assert.deepEqual(banner.ext, { delDomain: 'publisher-d.openx.net', bc: 'hb_pbs_1.0.0' });
      assert.equal(byImp.get('clip')!.body.imp[0]?.tagid, '540120346');
      for (const c of openx.calls) {
        assert.equal(c.headers['content-type'], 'application/json;charset=utf-8');
        assert.equal(c.headers.accept, 'application/json');
        assert.equal(c.headers['content-encoding'], 'gzip');
      }

      const answer = JSON.parse(res.body) as { seatbid?: { seat: string; bid: { id: string; ext: { prebid: { type: string; meta?: unknown } } }[] }[] };
      const seat = answer.seatbid?.find((s) => s.seat === 'openx');
      assert.ok(seat !== undefined, res.body);
      const got = seat.bid.map((b) => [b.id, b.ext.prebid.type, b.ext.prebid.meta]).sort();
      assert.deepEqual(got, [
        ['ox-clip', 'video', { networkId: 12, advertiserId: 34 }],
        ['ox-top', 'banner', { networkId: 12, advertiserId: 34 }],
      ]);
    } finally {
      await app.close();
      await openx.close();
    }
  });
});
