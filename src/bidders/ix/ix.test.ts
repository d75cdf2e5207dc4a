import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { compileParamsCheck } from '../params.js';
import { goField } from './go-fields.js';
import { ixAdapter } from './index.js';
import { ixServerVersion } from './ixdiag.js';
import { normaliseBanner, readParams } from './make-requests.js';
import { mergedImpTrackers, withMergedImpTrackers } from './native-trackers.js';

runAdapterFixtureDir('src/bidders/ix/fixtures', ixAdapter);

describe('ix info', () => {
  it('ships disabled without an endpoint, speaks OpenRTB 2.6 and is GVL vendor 10', () => {
    assert.equal(ixAdapter.info.endpoint, '');
    assert.equal(ixAdapter.info.disabled, true);
    assert.equal(ixAdapter.info.openrtbVersion, '2.6');
    assert.equal(ixAdapter.info.gvlVendorId, 10);
    assert.deepEqual(ixAdapter.info.capabilities, { app: ['banner', 'video', 'native', 'audio'], site: ['banner', 'video', 'native', 'audio'] });
    assert.match(ixAdapter.info.userSync?.redirect?.url ?? '', /^https:\/\/ssum\.casalemedia\.com\/usermatchredir\?s=194962&/);
    assert.match(ixAdapter.info.userSync?.iframe?.url ?? '', /^https:\/\/ssum-sec\.casalemedia\.com\/usermatch\?s=184674&/);
    assert.equal(ixAdapter.info.userSync?.redirect?.userMacro, '');
  });
});

describe('ix params', () => {
  const check = compileParamsCheck(ixAdapter.info.paramsSchema);
  it('takes one spelling of the site id, a size of two integers, a sid and unknown keys', () => {
    for (const p of [{ siteid: '1' }, { siteId: '2' }, { siteID: '3' }, { siteid: '4', size: [300, 250] }, { siteId: '5', sid: 'x', other: true }]) {
      assert.deepEqual(check(p), [], JSON.stringify(p));
    }
  });
  it('refuses no site id, two spellings, empty or wrong types and bad sizes', () => {
    for (const p of [{}, { siteid: '' }, { siteid: '1', siteId: '2' }, { siteid: 1 }, { siteId: '1', size: [1, 2, 3] }, { siteId: '1', sid: '' }, null, [], 'abc']) {
      assert.notDeepEqual(check(p), [], JSON.stringify(p));
    }
  });
  it('reads params as Go decodes them: names in any case, the last spelling winning', () => {
    assert.deepEqual(readParams({ bidder: { siteid: 'a', SITEID: 'b' } }), { siteId: 'b', sid: '' });
    assert.deepEqual(readParams({ bidder: { siteId: 'a', Sid: 's' } }), { siteId: 'a', sid: 's' });
    assert.deepEqual(readParams({ bidder: null }), { siteId: '', sid: '' });
    assert.deepEqual(readParams({ bidder: { siteId: 'a', size: [300, 'x'] } }), { error: 'ext.bidder.size is not a list of integers' });
    assert.deepEqual(readParams(undefined), { error: 'ext is missing' });
    assert.deepEqual(readParams({ prebid: { is_rewarded_inventory: 300 }, bidder: { siteId: 'a' } }), { error: 'ext.prebid.is_rewarded_inventory is not a small integer' });
  });
  it('finds a field with goField only among own keys', () => {
    const obj = JSON.parse('{"__proto__":{"x":1},"constructor":"c"}') as Record<string, unknown>;
    assert.deepEqual(goField(obj, '__proto__'), { x: 1 });
    assert.equal(goField({}, 'constructor'), undefined);
  });
});

describe('ix request shaping', () => {
  it('mirrors a single size between format and w/h, and leaves several formats alone', () => {
    assert.deepEqual(normaliseBanner({ w: 320, h: 50 }), { w: 320, h: 50, format: [{ w: 320, h: 50 }] });
    assert.deepEqual(normaliseBanner({ format: [{ w: 300, h: 250 }], w: 1, h: 1 }), { format: [{ w: 300, h: 250 }], w: 300, h: 250 });
    assert.deepEqual(normaliseBanner({ format: [{ w: 1, h: 2 }, { w: 3, h: 4 }] }), { format: [{ w: 1, h: 2 }, { w: 3, h: 4 }] });
  });
  it('cuts the server version at its first dash, unknown when empty', () => {
    assert.equal(ixServerVersion('3.1.0-4-gabc'), '3.1.0');
    assert.equal(ixServerVersion('3.1.0'), '3.1.0');
    assert.equal(ixServerVersion(''), 'unknown');
  });
  it('does not change the request it is given', () => {
    const request = { id: 'r', imp: [{ id: 'i', banner: { w: 300, h: 250 }, ext: { bidder: { siteId: '9', sid: 's' } } }], site: { page: 'https://a.example' } };
    const before = structuredClone(request);
    const out = ixAdapter.adapter.makeRequests(request, { endpoint: 'http://127.0.0.1:9/ix', bidderCode: 'ix', convertCurrency: (a) => a, globalPrivacyControl: false, entryPoint: 'auction', host: TEST_ADAPTER_HOST });
    assert.equal(out.requests.length, 1);
    assert.deepEqual(request, before);
  });
  it('never throws on odd input', () => {
    const ctx = { endpoint: 'http://127.0.0.1:9/ix', bidderCode: 'ix', convertCurrency: (a: number) => a, globalPrivacyControl: false, entryPoint: 'auction' as const, host: TEST_ADAPTER_HOST };
    const odd = { id: 'r', imp: [{ id: 'i', banner: null, ext: { bidder: { siteId: '1' } } }], site: 'x', app: null, ext: [] } as never;
    const out = ixAdapter.adapter.makeRequests(odd, ctx);
    assert.deepEqual(out.errors.map((e) => e.message), ['request.ext is not an object']);
  });
});

describe('ix native trackers', () => {
  it('merges image impression trackers only, unique and sorted bytewise', () => {
    const native = {
      imptrackers: ['b', 'a'],
      eventtrackers: [
        { event: 1, method: 1, url: 'c' },
        { event: 1, method: 2, url: 'js' },
        { event: 2, method: 1, url: 'viewable' },
        { event: 1, method: 1, url: 'a' },
      ],
    };
    assert.deepEqual(mergedImpTrackers(native), ['a', 'b', 'c']);
  });
  it('leaves markup alone that does not decode as a native response', () => {
    for (const adm of ['', 'null', '[1]', '{"eventtrackers":[{"event":"x"}]}', '{"native":{"assets":"no"},"eventtrackers":[]}']) {
      assert.equal(withMergedImpTrackers(adm), adm);
    }
  });
  it('drops keys the native response does not define, __proto__ included, and always writes link', () => {
    const out = withMergedImpTrackers('{"__proto__":{"x":1},"eventtrackers":[{"event":1,"method":1,"url":"p"}]}');
    assert.equal(out, '{"link":{"url":""},"imptrackers":["p"],"eventtrackers":[{"event":1,"method":1,"url":"p"}]}');
  });
  it('writes the line separators Go escapes', () => {
    const out = withMergedImpTrackers('{"link":{"url":"u\u2028"},"eventtrackers":[{"event":1,"method":1,"url":"p"}]}');
    assert.equal(out, '{"link":{"url":"u\\u2028"},"imptrackers":["p"],"eventtrackers":[{"event":1,"method":1,"url":"p"}]}');
  });
});
