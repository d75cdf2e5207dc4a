import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_ADAPTER_HOST, runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { compileParamsCheck } from '../params.js';
import { readFledgeAuctionConfigs } from './fledge.js';
import { goField } from './go-field.js';
import { criteoAdapter } from './index.js';
import { bidExtType } from './make-bids.js';

runAdapterFixtureDir('src/bidders/criteo/fixtures', criteoAdapter);

describe('criteo info', () => {
  it('mirrors Prebid Server bidder info: endpoint, GVL 91, OpenRTB 2.6, banner/video/native, syncs', () => {
    const { info } = criteoAdapter;
    assert.equal(info.endpoint, 'https://ssp-bidder.criteo.com/openrtb/pbs/auction/request?profile=230');
    assert.equal(info.gvlVendorId, 91);
    assert.equal(info.openrtbVersion, '2.6');
    assert.equal(info.endpointCompression, undefined);
    assert.deepEqual(info.capabilities, { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] });
    assert.equal(info.userSync?.redirect?.userMacro, '${CRITEO_USER_ID}');
    assert.equal(info.userSync?.iframe?.userMacro, '${CRITEO_USER_ID}');
    assert.match(info.userSync?.redirect?.url ?? '', /^https:\/\/ssp-sync\.criteo\.com\/user-sync\/redirect\?gdprapplies=\{\{\.GDPR\}\}.*&redir=\{\{\.RedirectURL\}\}&profile=230$/);
    assert.match(info.userSync?.iframe?.url ?? '', /^https:\/\/ssp-sync\.criteo\.com\/user-sync\/iframe\?/);
  });
});

describe('criteo params', () => {
  const check = compileParamsCheck(criteoAdapter.info.paramsSchema);
  it('takes a zone or network id in either spelling, with pubid and uid', () => {
    for (const p of [{ zoneid: 1 }, { zoneId: 1 }, { networkid: 2 }, { networkId: 0 }, { zoneid: 0, networkid: 0, pubid: 'p', uid: 3, other: true }]) {
      assert.deepEqual(check(p), [], JSON.stringify(p));
    }
  });
  it('refuses no id, negative ids, an empty or null pubid, a null uid and non-objects', () => {
    for (const p of [{}, { zoneid: -1 }, { networkId: -5 }, { zoneid: 1.5 }, { zoneid: 0, pubid: '' }, { zoneid: 0, pubid: null }, { zoneid: 0, uid: null }, null, [], 5, 'x']) {
      assert.notDeepEqual(check(p), [], JSON.stringify(p));
    }
  });
});

describe('criteo bid ext', () => {
  it('reads the type as Go decodes it: keys in any case, the last one winning', () => {
    assert.equal(bidExtType({ prebid: { type: 'video' } }), 'video');
    assert.equal(bidExtType({ Prebid: { TYPE: 'banner', type: 'native' } }), 'native');
    assert.equal(bidExtType(null), '');
    assert.equal(bidExtType({ prebid: null }), '');
    assert.equal(bidExtType(undefined), false);
    assert.equal(bidExtType('banner'), false);
    assert.equal(bidExtType({ prebid: [] }), false);
    assert.equal(bidExtType({ prebid: { type: 'banner', networkName: 5 } }), false);
  });
  it('finds no inherited member for a key such as constructor', () => {
    assert.equal(goField({}, 'constructor'), undefined);
    assert.equal(goField(JSON.parse('{"__proto__": 1}'), '__proto__'), 1);
  });
});

describe('criteo auction configs', () => {
  it('gives none for the answers Prebid Server gives none for', () => {
    for (const ext of [undefined, null, {}, { igi: [] }, { igi: [{}] }, { igi: [{ impid: '1', igs: [] }] }, { igi: [{ impid: '1', igs: [{}] }] }, { igi: 'x' }, 'x']) {
      assert.equal(readFledgeAuctionConfigs(ext), undefined, JSON.stringify(ext));
    }
  });
  it('keeps a config of any JSON shape and an entry without impid', () => {
    assert.deepEqual(readFledgeAuctionConfigs({ igi: [null, { igs: [{ config: [1, 2] }] }] }), [{ impId: '', config: [1, 2] }]);
  });
  it('never changes the request it is given', () => {
    const request = { id: 'r', imp: [{ id: 'i', banner: {}, ext: { bidder: { zoneid: 1 } } }] };
    const before = structuredClone(request);
    const context = { endpoint: 'http://127.0.0.1:9/', bidderCode: 'criteo', convertCurrency: (a: number) => a, globalPrivacyControl: false, entryPoint: 'auction' as const, host: TEST_ADAPTER_HOST };
    const made = criteoAdapter.adapter.makeRequests(request, context);
    assert.deepEqual(request, before);
    assert.deepEqual(JSON.parse(made.requests[0]!.body!), before);
  });
});
