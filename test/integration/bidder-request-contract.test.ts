import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { startMockBidder } from '../support/mock-bidder.js';
import type { MockBidder } from '../support/mock-bidder.js';

// What the adapter contract's bidder info changes on the wire, over real sockets: a bidder whose
// info asks `endpointCompression: gzip` (openx, as Prebid Server's yaml) receives its body gzipped
// with `Content-Encoding: gzip`; one without (generic) receives plain JSON.

type Json = Record<string, unknown>;
const banner = { format: [{ w: 300, h: 250 }] };

describe('request bodies gzipped when the bidder info asks', () => {
  let openx: MockBidder;
  let alpha: MockBidder;
  let app: TestApp;
  before(async () => {
    openx = await startMockBidder({ status: 204 });
    alpha = await startMockBidder({ status: 204 });
    app = await buildTestApp({ adapters: { openx: { endpoint: openx.url }, alpha: { adapter: 'generic', endpoint: alpha.url } } });
  });
  after(async () => {
    await app.close();
    await Promise.all([openx.close(), alpha.close()]);
  });

  const auction = (over: Json = {}) =>
    app.server.inject({
      method: 'POST',
      url: '/openrtb2/auction',
      payload: {
        id: 'a-1',
        site: { page: 'https://p.example/' },
        imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: { openx: { unit: '539439964', delDomain: 'se-demo-d.openx.net' }, alpha: { x: 1 } } } } }],
        ...over,
      },
    });

  it('openx receives a gzip body with Content-Encoding: gzip that decodes to its JSON; generic receives plain JSON', async () => {
    const res = await auction();
    assert.equal(res.statusCode, 200, res.body);
    const got = openx.received.at(-1)!;
    assert.equal(got.headers['content-encoding'], 'gzip');
    assert.equal(got.headers['content-length'], String(got.raw.length));
    // The gzip magic bytes, and the bytes inflate to the request the adapter built.
    assert.deepEqual([...got.raw.subarray(0, 2)], [0x1f, 0x8b]);
    const sent = JSON.parse(gunzipSync(got.raw).toString('utf8')) as { id: string; imp: { id: string; tagid: string }[]; ext: Json };
    assert.equal(sent.id, 'a-1');
    assert.deepEqual(
      sent.imp.map((i) => [i.id, i.tagid]),
      [['imp-1', '539439964']],
    );
    assert.equal(sent.ext.delDomain, 'se-demo-d.openx.net');

    const plain = alpha.received.at(-1)!;
    assert.equal(plain.headers['content-encoding'], undefined);
    const alphaBody = JSON.parse(plain.raw.toString('utf8')) as { id: string; imp: { ext: Json }[] };
    assert.equal(alphaBody.id, 'a-1');
    assert.deepEqual(alphaBody.imp[0]?.ext.bidder, { x: 1 });
  });

  it('ext.debug.httpcalls shows the uncompressed body and the Content-Encoding header, as Prebid Server does', async () => {
    const res = await auction({ test: 1 });
    assert.equal(res.statusCode, 200, res.body);
    const calls = (JSON.parse(res.body) as { ext: { debug: { httpcalls: Record<string, { requestbody: string; requestheaders: Record<string, string> }[]> } } }).ext.debug.httpcalls;
    const call = calls.openx?.[0];
    assert.equal(call?.requestheaders['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(call?.requestbody ?? ''), JSON.parse(gunzipSync(openx.received.at(-1)!.raw).toString('utf8')));
    assert.equal(calls.alpha?.[0]?.requestheaders['content-encoding'], undefined);
  });
});

// OpenRTB 2.6 → 2.5 down-conversion per bidder, after privacy and before the adapter: generic
// declares 2.6 and receives the request as it came; appnexus (no `openrtb.version` in Prebid
// Server's yaml) and a request's own alias of generic receive the 2.5 `ext` forms.
describe('OpenRTB 2.5 bidders receive the 2.6 fields in their 2.5 places', () => {
  let appnexus: MockBidder;
  let alpha: MockBidder;
  let app: TestApp;
  before(async () => {
    appnexus = await startMockBidder({ status: 204 });
    alpha = await startMockBidder({ status: 204 });
    app = await buildTestApp({ adapters: { appnexus: { endpoint: appnexus.url }, alpha: { adapter: 'generic', endpoint: alpha.url } } });
  });
  after(async () => {
    await app.close();
    await Promise.all([appnexus.close(), alpha.close()]);
  });

  const schain = { complete: 1, ver: '1.0', nodes: [{ asi: 'ssp.example', sid: '7', hp: 1 }] };
  const eids = [{ source: 'id.example', uids: [{ id: 'e-1' }] }];
  const body = (bidders: Json, over: Json = {}): Json => ({
    id: 'a-1',
    site: { page: 'https://p.example/' },
    regs: { gdpr: 0, us_privacy: '1NNN', gpp: 'DBAA', gpp_sid: [-1] },
    user: { consent: 'CONSENT', eids, ext: { keep: 1 } },
    source: { tid: 't-1', schain },
    imp: [{ id: 'imp-1', rwdd: 1, banner, ext: { prebid: { bidder: bidders } } }],
    ...over,
  });
  const post = (payload: Json) => app.server.inject({ method: 'POST', url: '/openrtb2/auction', payload });
  const last = (b: MockBidder): Json => JSON.parse(b.received.at(-1)!.body) as Json;

  it('generic (2.6) receives regs.gdpr, user.eids, source.schain, imp.rwdd where they came', async () => {
    const res = await post(body({ alpha: {} }));
    assert.equal(res.statusCode, 200, res.body);
    const got = last(alpha) as { regs: Json; user: Json; source: Json; imp: Json[] };
    assert.deepEqual(got.regs, { gdpr: 0, us_privacy: '1NNN', gpp: 'DBAA', gpp_sid: [-1] });
    assert.deepEqual(got.user, { consent: 'CONSENT', eids, ext: { keep: 1 } });
    assert.deepEqual(got.source, { tid: 't-1', schain });
    assert.equal(got.imp[0]?.rwdd, 1);
  });

  it('a request alias of generic is sent 2.5, as Prebid Server finds no bidder info under its name', async () => {
    const res = await post(body({ mine: {} }, { ext: { prebid: { aliases: { mine: 'alpha' } } } }));
    assert.equal(res.statusCode, 200, res.body);
    const got = last(alpha) as { regs: Json; user: Json; source: Json; imp: { rwdd?: number; ext: { prebid: Json } }[] };
    assert.deepEqual(got.regs, { gpp: 'DBAA', gpp_sid: [-1], ext: { gdpr: 0, us_privacy: '1NNN' } });
    assert.deepEqual(got.user, { ext: { keep: 1, consent: 'CONSENT', eids } });
    assert.deepEqual(got.source, { tid: 't-1', ext: { schain } });
    assert.equal(got.imp[0]?.rwdd, undefined);
    assert.equal(got.imp[0]?.ext.prebid.is_rewarded_inventory, 1);
  });

  it('appnexus (2.5) receives them in ext, through its adapter', async () => {
    const res = await post(body({ appnexus: { placementId: 12345 } }));
    assert.equal(res.statusCode, 200, res.body);
    const got = last(appnexus) as { regs: Json; user: Json; source?: Json; ext: Json; imp: Json[] };
    assert.deepEqual(got.regs, { gpp: 'DBAA', gpp_sid: [-1], ext: { gdpr: 0, us_privacy: '1NNN' } });
    assert.deepEqual(got.user, { ext: { keep: 1, consent: 'CONSENT', eids } });
    // AppNexus's adapter moves the 2.5 schain (source.ext.schain) to ext.schain, as Prebid Server's.
    assert.deepEqual(got.ext.schain, schain);
    assert.equal(got.imp[0]?.rwdd, undefined);
  });

  it('a 2.5 bidder whose regs.ext is not an object is not called, and the answer says why', async () => {
    const before = appnexus.received.length;
    const res = await post(body({ appnexus: { placementId: 12345 }, alpha: {} }, { regs: { gdpr: 0, ext: 'broken' } }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(appnexus.received.length, before);
    assert.match(res.body, /appnexus not called: regs\.ext must be a JSON object/);
    assert.deepEqual((last(alpha) as { regs: Json }).regs, { gdpr: 0, ext: 'broken' });
  });
});
