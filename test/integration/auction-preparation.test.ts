import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readRecordLines, tempRecordsPath } from '../support/analytics.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { startMockBidder } from '../support/mock-bidder.js';
import type { MockBidder } from '../support/mock-bidder.js';

// The one preparation step of /openrtb2/auction and /openrtb2/amp: tmax written into what
// bidders receive, the imp and bidder limits, AMP's defaults that keep a stored `false`, and
// refused auctions reaching analytics with their status.

const bid = (impid: string, price: number) => ({ id: `b-${impid}`, impid, price, adm: '<div/>', crid: 'c1', w: 300, h: 250 });
const banner = { format: [{ w: 300, h: 250 }] };
const auctionRequest = (over: Record<string, unknown> = {}) => ({
  id: 'a-1',
  site: { page: 'https://p.example/', publisher: { id: 'acct-1' } },
  imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: { alpha: {} } } } }],
  ...over,
});
const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

describe('auction preparation', () => {
  let alpha: MockBidder;
  let app: TestApp;
  let storedDir: string;
  let recordsPath: string;
  before(async () => {
    alpha = await startMockBidder({ body: { id: 'r', seatbid: [{ bid: [bid('imp-1', 1.5)] }] } });
    storedDir = tempDir('openbid-prep-stored-');
    recordsPath = tempRecordsPath('openbid-prep-records-');
    writeFileSync(
      join(storedDir, 'keeps-false.json'),
      JSON.stringify({
        id: 'amp-1',
        tmax: 3000,
        site: { page: 'https://amp.example/', publisher: { id: 'acct-amp' }, ext: { keep: 'me' } },
        imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: { alpha: {} } } } }],
        ext: { prebid: { targeting: { includewinners: true, includebidderkeys: false }, cache: { bids: {} } } },
      }),
    );
    app = await buildTestApp({
      adapters: { alpha: { adapter: 'generic', endpoint: alpha.url }, beta: { adapter: 'generic', endpoint: alpha.url } },
      auction: { default_timeout_ms: 800, max_timeout_ms: 2000, max_imps_per_request: 3, max_bidders_per_request: 2 },
      stored_requests: { filesystem: { directory: storedDir } },
      analytics: { file: { path: recordsPath, flush_interval_ms: 60_000 } },
    });
  });
  after(async () => {
    await app.close();
    await alpha.close();
  });

  const post = (payload: unknown) => app.server.inject({ method: 'POST', url: '/openrtb2/auction', payload: payload as Record<string, unknown> });
  const lastReceived = (): Record<string, unknown> => JSON.parse(alpha.received.at(-1)!.body) as Record<string, unknown>;

  it('/openrtb2/auction writes the capped tmax into the request every bidder receives', async () => {
    const capped = await post(auctionRequest({ tmax: 9000 }));
    assert.equal(capped.statusCode, 200, capped.body);
    assert.equal(lastReceived().tmax, 2000);
    const unset = await post(auctionRequest());
    assert.equal(unset.statusCode, 200, unset.body);
    assert.equal(lastReceived().tmax, 800);
  });

  it("fills the bidders' device.ua and device.ip from the HTTP request when the request lacks them, and keeps the request's own", async () => {
    const filled = await app.server.inject({ method: 'POST', url: '/openrtb2/auction', payload: auctionRequest({ device: { w: 1280 } }), headers: { 'user-agent': 'UA/1.0' }, remoteAddress: '203.0.113.9' });
    assert.equal(filled.statusCode, 200, filled.body);
    assert.deepEqual(lastReceived().device, { w: 1280, ua: 'UA/1.0', ip: '203.0.113.9' });
    const v6 = await app.server.inject({ method: 'POST', url: '/openrtb2/auction', payload: auctionRequest(), headers: { 'user-agent': 'UA/2.0' }, remoteAddress: '2001:db8::1' });
    assert.equal(v6.statusCode, 200, v6.body);
    assert.deepEqual(lastReceived().device, { ua: 'UA/2.0', ipv6: '2001:db8::1' });
    const own = await app.server.inject({ method: 'POST', url: '/openrtb2/auction', payload: auctionRequest({ device: { ua: 'Own', ip: '198.51.100.1' } }), headers: { 'user-agent': 'UA/1.0' }, remoteAddress: '203.0.113.9' });
    assert.equal(own.statusCode, 200, own.body);
    assert.deepEqual(lastReceived().device, { ua: 'Own', ip: '198.51.100.1' });
  });

  it('more imps than auction.max_imps_per_request is a 400 naming the limit, and no bidder is called', async () => {
    const before = alpha.received.length;
    const imps = Array.from({ length: 4 }, (_, i) => ({ id: `imp-${i}`, banner, ext: { prebid: { bidder: { alpha: {} } } } }));
    const res = await post(auctionRequest({ imp: imps }));
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /request\.imp has 4 elements; this server accepts at most 3 per request/);
    assert.equal(alpha.received.length, before);
  });

  it('bidders past auction.max_bidders_per_request are not called and one general warning names them', async () => {
    const before = alpha.received.length;
    const aliases = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`alias${i}`, 'alpha']));
    const bidders = Object.fromEntries(Object.keys(aliases).map((a) => [a, {}]));
    const res = await post(auctionRequest({ imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: bidders } } }], ext: { prebid: { aliases } } }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(alpha.received.length - before, 2);
    const general = (JSON.parse(res.body) as { ext: { warnings: Record<string, { message: string }[]> } }).ext.warnings.general!;
    assert.deepEqual(general.map((w) => w.message), ['bidders not called, as a request may call at most 2: alias2, alias3, alias4, alias5, alias6, alias7, alias8, alias9, alias10, alias11 and 28 more']);
  });

  it('AMP keeps a stored includebidderkeys false, caps tmax at the AMP default, and marks site.ext.amp', async () => {
    const res = await app.server.inject({ method: 'GET', url: '/openrtb2/amp?tag_id=keeps-false&timeout=5000' });
    assert.equal(res.statusCode, 200, res.body);
    const targeting = (JSON.parse(res.body) as { targeting: Record<string, string> }).targeting;
    assert.equal(targeting.hb_bidder, 'alpha');
    assert.equal(targeting.hb_bidder_alpha, undefined);
    const sent = lastReceived() as { tmax: number; site: { ext: Record<string, unknown> } };
    assert.equal(sent.tmax, 800);
    assert.deepEqual(sent.site.ext, { keep: 'me', amp: 1 });
  });

  it('refused auctions reach analytics with their status and reason, and count as rejected', async () => {
    const invalid = await post({ id: 'bad-1', site: { publisher: { id: 'acct-x' } }, imp: [] });
    assert.equal(invalid.statusCode, 400);
    const notJson = await app.server.inject({ method: 'POST', url: '/openrtb2/auction', payload: '{"id":', headers: { 'content-type': 'text/plain' } });
    assert.equal(notJson.statusCode, 400);
    const missingTag = await app.server.inject({ method: 'GET', url: '/openrtb2/amp?tag_id=nope' });
    assert.equal(missingTag.statusCode, 400);
    const metrics = (await app.metrics.render()).body;
    assert.match(metrics, /openbid_auctions_total\{endpoint="auction",result="rejected"\} [3-9]/);
    assert.match(metrics, /openbid_auctions_total\{endpoint="amp",result="rejected"\} 1/);

    await app.close();
    const refused = readRecordLines(recordsPath).filter((r) => r.status !== 200);
    const byId = new Map(refused.map((r) => [`${String(r.kind)}:${String(r.auctionId)}:${String(r.tagId)}`, r]));
    const bad = byId.get('auction:bad-1:undefined');
    assert.ok(bad !== undefined, JSON.stringify(refused));
    assert.equal(bad.status, 400);
    assert.equal(bad.account, 'acct-x');
    assert.match(String((bad.errors as string[])[0]), /^Invalid request format: request.imp must contain at least one element/);
    const tag = byId.get('amp::nope');
    assert.ok(tag !== undefined, JSON.stringify(refused));
    assert.equal(tag.status, 400);
    assert.ok(refused.some((r) => r.status === 400 && String((r.errors as string[])[0]).startsWith('Invalid request format: ') && r.auctionId === ''), 'the body that is not JSON has a record too');
  });
});
