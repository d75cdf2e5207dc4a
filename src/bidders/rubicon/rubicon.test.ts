import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir, testRequestContext } from '../../../test/support/adapter-fixtures.js';
import type { RequestContext } from '../adapter.js';
import { compileParamsCheck } from '../params.js';
import { buyerId, goJsonText, withBuyerMeta } from './bid-ext.js';
import { parseGoInt, readImpExt } from './imp-ext.js';
import { rubiconAdapter } from './index.js';
import { endpointWithTracker, makeRequests } from './make-requests.js';
import { addFirstPartyData, startTarget } from './targeting.js';

runAdapterFixtureDir('src/bidders/rubicon/fixtures', rubiconAdapter);

const context = (over: Partial<RequestContext> = {}): RequestContext => testRequestContext({ endpoint: 'http://127.0.0.1:9/x', bidderCode: 'rubicon', ...over });

describe('rubicon info', () => {
  it('is shipped disabled, OpenRTB 2.6 with gzip bodies, GVL vendor 52, no sync URL', () => {
    const info = rubiconAdapter.info;
    assert.equal(info.disabled, true);
    assert.equal(info.openrtbVersion, '2.6');
    assert.equal(info.endpointCompression, 'gzip');
    assert.equal(info.gvlVendorId, 52);
    assert.equal(info.userSync, undefined);
    assert.deepEqual(info.capabilities, { app: ['banner', 'video', 'native'], site: ['banner', 'video', 'native'] });
  });
});

describe('rubicon params', () => {
  const check = compileParamsCheck(rubiconAdapter.info.paramsSchema);
  it('takes ids as integers or digit strings, and the optional objects', () => {
    for (const p of [{ accountId: 1, siteId: 2, zoneId: 3 }, { accountId: '1', siteId: '2', zoneId: '3', inventory: { a: ['x'] }, bidonmultiformat: true, video: { size_id: 201 } }]) {
      assert.deepEqual(check(p), [], JSON.stringify(p));
    }
  });
  it('refuses missing ids, zero, non-digit strings and non-list targeting values', () => {
    for (const p of [{ accountId: 1, siteId: 2 }, { accountId: 0, siteId: 2, zoneId: 3 }, { accountId: 'a1', siteId: 2, zoneId: 3 }, { accountId: 1, siteId: 2, zoneId: 3, visitor: { a: 'x' } }, [1]]) {
      assert.notDeepEqual(check(p), [], JSON.stringify(p));
    }
  });
});

describe('rubicon request pieces', () => {
  it('parses ids as Go strconv.ParseInt does, with its messages', () => {
    assert.deepEqual(parseGoInt('+42'), { value: 42 });
    assert.deepEqual(parseGoInt(''), { error: 'strconv.ParseInt: parsing "": invalid syntax' });
    assert.deepEqual(parseGoInt('1.5'), { error: 'strconv.ParseInt: parsing "1.5": invalid syntax' });
    assert.deepEqual(parseGoInt('9223372036854775808'), { error: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' });
  });
  it('refuses params of the wrong types', () => {
    assert.deepEqual(readImpExt({ bidder: { accountId: true } }), { error: 'imp.ext.bidder.accountId is not a number' });
    assert.deepEqual(readImpExt({ bidder: { video: { skip: 'yes' } } }), { error: 'imp.ext.bidder.video.skip is not an integer' });
    assert.deepEqual(readImpExt({ bidder: {}, gpid: 3 }), { error: 'imp.ext.gpid is not a string' });
  });
  it('types first-party data as Rubicon wants, prototype keys included', () => {
    const started = startTarget(undefined, 'x');
    assert.ok('target' in started);
    const target = started.target;
    assert.equal(addFirstPartyData(JSON.parse('{"__proto__":"p","n":-3,"f":1.5,"e":[],"o":{}}'), target, 'd'), undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(target)), JSON.parse('{"__proto__":["p"],"n":["-3"],"e":null}'));
    assert.equal(addFirstPartyData('text', target, 'd'), 'd is not an object');
  });
  it('adds the tracker as Go url.Values does, even when empty', () => {
    assert.equal(endpointWithTracker('https://h.example/a?z=1&b=2', 't k'), 'https://h.example/a?b=2&tk_xint=t+k&z=1');
    assert.equal(endpointWithTracker('https://h.example/a', ''), 'https://h.example/a?tk_xint=');
  });
  it('sends no credentials nor tracker when the host set no XAPI, an empty login in the target', () => {
    const made = makeRequests({ id: 'r', site: {}, imp: [{ id: 'i', banner: { w: 1, h: 1 }, ext: { bidder: { accountId: 1, siteId: 2, zoneId: 3 } } }] }, context());
    assert.deepEqual(made.errors, []);
    assert.equal(made.requests[0]?.headers.Authorization, undefined);
    assert.equal(made.requests[0]?.uri, 'http://127.0.0.1:9/x');
    assert.match(made.requests[0]?.body ?? '', /"pbs_login":""/);
  });
  it('sends Basic credentials and the tracker, even an empty one, once the host sets XAPI', () => {
    const host = { ...TEST_ADAPTER_HOST, xapi: { username: 'u', password: '', tracker: '' } };
    const made = makeRequests({ id: 'r', site: {}, imp: [{ id: 'i', banner: { w: 1, h: 1 }, ext: { bidder: { accountId: 1, siteId: 2, zoneId: 3 } } }] }, context({ host }));
    assert.equal(made.requests[0]?.headers.Authorization, 'Basic dTo=');
    assert.equal(made.requests[0]?.uri, 'http://127.0.0.1:9/x?tk_xint=');
  });
  it('never throws for odd shapes, and reports the imps it cannot send', () => {
    const odd = [null, 'x', 5, [], {}, { ext: null }, { rp: { target: 'no' } }];
    for (const v of odd) {
      const request = JSON.parse(JSON.stringify({ id: 'r', site: v, app: v, user: v, device: v, regs: v, source: v, imp: [{ id: 'i', banner: v, video: v, native: v, ext: { bidder: { accountId: 1, siteId: 2, zoneId: 3, inventory: v }, data: v, rp: v } }] })) as Parameters<typeof makeRequests>[0];
      const made = makeRequests(request, context());
      assert.equal(made.requests.length + made.errors.length > 0, true, JSON.stringify(v));
      for (const call of made.requests) rubiconAdapter.adapter.makeBids(request, call, { status: 200, headers: {}, body: JSON.stringify({ seatbid: [{ buyer: '1', seat: 's', bid: [{ impid: 'i', price: 1, ext: v }] }, null] }) });
    }
  });
  it('does not change the request it is given', () => {
    const request = { id: 'r', user: { ext: { consent: 'c' } }, regs: { ext: { gdpr: 1 } }, site: { page: 'p' }, imp: [{ id: 'i', banner: { w: 1, h: 1 }, ext: { bidder: { accountId: 1, siteId: 2, zoneId: 3 } } }] };
    const copy = structuredClone(request);
    makeRequests(request, context());
    assert.deepEqual(request, copy);
  });
});

describe('rubicon bids', () => {
  it('reads buyers as Go strconv.Atoi, 0 when not a number', () => {
    assert.equal(buyerId('0042'), 42);
    assert.equal(buyerId(' 7'), 0);
    assert.equal(buyerId(undefined), 0);
  });
  it('puts the buyer and seat in meta, keeping only what Go keeps', () => {
    assert.deepEqual(withBuyerMeta({ prebid: { type: 'banner', odd: 1, meta: { networkId: 5, brandName: 'b' } }, other: true, bidder: { x: 1 } }, 9, ''), {
      prebid: { type: 'banner', meta: { networkId: 9, brandName: 'b' } },
      bidder: { x: 1 },
    });
    const untouched = { keep: 1 };
    assert.equal(withBuyerMeta(untouched, 0, ''), untouched);
    assert.equal(withBuyerMeta('text', 3, 's'), 'text');
  });
  it('writes native markup as Go JSON, HTML characters escaped', () => {
    assert.equal(goJsonText({ t: '<a&b>' }), '{"t":"\\u003ca\\u0026b\\u003e"}');
    assert.equal(goJsonText(undefined), 'null');
  });
  it('overrides prices with debug.cpmoverride and drops zero-priced bids', () => {
    const request = { id: 'r', site: {}, ext: { prebid: { bidders: { rubicon: { debug: { cpmoverride: 7 } } } } }, imp: [{ id: 'i', banner: { w: 1, h: 1 }, ext: { bidder: { accountId: 1, siteId: 2, zoneId: 3 } } }] };
    const call = makeRequests(request, context()).requests[0]!;
    const body = JSON.stringify({ id: 'a', bidid: 'bb', seatbid: [{ bid: [{ id: '0', impid: 'i', price: 1, adm: 'x' }] }] });
    const out = rubiconAdapter.adapter.makeBids(request, call, { status: 200, headers: {}, body });
    assert.deepEqual(out.response?.bids, [{ bid: { id: 'bb', impid: 'i', price: 7, adm: 'x' }, type: 'banner' }]);
    const zero = rubiconAdapter.adapter.makeBids({ ...request, ext: {} }, call, { status: 200, headers: {}, body: JSON.stringify({ seatbid: [{ bid: [{ id: 'z', impid: 'i', price: 0 }] }] }) });
    assert.deepEqual(zero.response?.bids, []);
  });
});
