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
