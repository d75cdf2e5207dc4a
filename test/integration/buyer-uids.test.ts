import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeUidsCookie, EMPTY_UIDS_COOKIE, withUid } from '../../src/usersync/uids-cookie.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { startMockBidder } from '../support/mock-bidder.js';
import type { MockBidder } from '../support/mock-bidder.js';

// Buyer ids in auctions: each bidder receives its cookie family's id from the `uids` cookie as
// `user.buyeruid`; a request's `user.ext.prebid.buyeruids` wins and no bidder sees it; privacy
// that withholds ids from a bidder withholds this one too.

const NOW = Date.now();
/** A bidder's user sync, so its ids are kept under its own cookie family. */
const sync = (family: string) => ({ cookie_family: family, redirect: { url: `https://${family}.example/sync?r={{.RedirectURL}}`, user_macro: '$UID' } });
const banner = { format: [{ w: 300, h: 250 }] };
type Json = Record<string, unknown>;

describe('buyer ids from the uids cookie', () => {
  let alpha: MockBidder;
  let beta: MockBidder;
  let app: TestApp;
  before(async () => {
    alpha = await startMockBidder({ status: 204 });
    beta = await startMockBidder({ status: 204 });
    const storedDir = mkdtempSync(join(tmpdir(), 'openbid-buyeruids-'));
    writeFileSync(join(storedDir, 'tag.json'), JSON.stringify({ id: 'amp-1', site: { page: 'https://amp.example/' }, imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: { alpha: {}, beta: {} } } } }] }));
    app = await buildTestApp({
      adapters: { alpha: { adapter: 'generic', endpoint: alpha.url, usersync: sync('alpha') }, beta: { adapter: 'generic', endpoint: beta.url, usersync: sync('beta') }, gamma: { adapter: 'generic', endpoint: beta.url } },
      stored_requests: { filesystem: { directory: storedDir } },
    });
  });
  after(async () => {
    await app.close();
    await Promise.all([alpha.close(), beta.close()]);
  });

  // alpha's id is expired: ids are still sent (expiry says when to sync again, as in Prebid Server).
  const cookie = encodeUidsCookie(withUid(withUid(EMPTY_UIDS_COOKIE, 'alpha', 'alpha-uid', NOW - 30 * 86_400_000), 'beta', 'beta-uid', NOW));
  const last = (b: MockBidder): { user?: Json } => JSON.parse(b.received.at(-1)!.body) as { user?: Json };
  const auction = (body: Json, headers: Record<string, string> = {}) =>
    app.server.inject({ method: 'POST', url: '/openrtb2/auction', headers: { cookie: `other=1; uids=${cookie}`, ...headers }, payload: body });
  const request = (over: Json = {}): Json => ({ id: 'a-1', site: { page: 'https://p.example/' }, imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: { alpha: {}, beta: {} } } } }], ...over });

  it('each bidder receives its own family id as user.buyeruid, on /openrtb2/auction and AMP', async () => {
    const res = await auction(request());
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(last(alpha).user?.buyeruid, 'alpha-uid');
    assert.equal(last(beta).user?.buyeruid, 'beta-uid');
    const amp = await app.server.inject({ method: 'GET', url: '/openrtb2/amp?tag_id=tag', headers: { cookie: `uids=${cookie}` } });
    assert.equal(amp.statusCode, 200, amp.body);
    assert.equal(last(alpha).user?.buyeruid, 'alpha-uid');
    assert.equal(last(beta).user?.buyeruid, 'beta-uid');
  });

  it("the request's user.ext.prebid.buyeruids wins for its bidders and is removed before any bidder sees it", async () => {
    const res = await auction(request({ user: { ext: { prebid: { buyeruids: { alpha: 'explicit-alpha' }, keep: 1 }, other: 2 } } }));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(last(alpha).user, { buyeruid: 'explicit-alpha', ext: { prebid: { keep: 1 }, other: 2 } });
    assert.deepEqual(last(beta).user, { buyeruid: 'beta-uid', ext: { prebid: { keep: 1 }, other: 2 } });
    const bad = await auction(request({ user: { ext: { prebid: { buyeruids: { alpha: 7 } } } } }));
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /request\.user\.ext\.prebid\.buyeruids\.alpha must be a string/);
  });

  it('no cookie, a cookie that does not decode, or privacy withholding user ids: no buyeruid', async () => {
    const none = await app.server.inject({ method: 'POST', url: '/openrtb2/auction', payload: request() });
    assert.equal(none.statusCode, 200, none.body);
    assert.equal(last(alpha).user, undefined);
    const broken = await auction(request(), { cookie: 'uids=%%%not-base64' });
    assert.equal(broken.statusCode, 200, broken.body);
    assert.equal(last(beta).user, undefined);
    const coppa = await auction(request({ regs: { coppa: 1 } }));
    assert.equal(coppa.statusCode, 200, coppa.body);
    assert.equal(last(alpha).user?.buyeruid, undefined);
    assert.equal(last(beta).user?.buyeruid, undefined);
  });

  it('round trip: the cookie /setuid writes is read by the next auction, and the bidder receives its id', async () => {
    const set = await app.server.inject({ method: 'GET', url: '/setuid?bidder=alpha&uid=synced-42&f=b' });
    assert.equal(set.statusCode, 200, set.body);
    const setCookie = String(set.headers['set-cookie']);
    const written = /^uids=([^;]+);/.exec(setCookie)?.[1];
    assert.ok(written !== undefined, setCookie);
    const res = await app.server.inject({ method: 'POST', url: '/openrtb2/auction', headers: { cookie: `uids=${written}` }, payload: request() });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(last(alpha).user?.buyeruid, 'synced-42');
    assert.equal(last(beta).user, undefined);
  });

  it("the host's opt-out cookie withholds every id", async () => {
    const optedOut = await buildTestApp({ adapters: { alpha: { adapter: 'generic', endpoint: alpha.url, usersync: sync('alpha') } }, host_cookie: { optout_cookie: { name: 'no-ids', value: 'yes' } } });
    try {
      const res = await optedOut.server.inject({ method: 'POST', url: '/openrtb2/auction', headers: { cookie: `uids=${cookie}; no-ids=yes` }, payload: { ...request(), imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: { alpha: {} } } } }] } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(last(alpha).user, undefined);
    } finally {
      await optedOut.close();
    }
  });

  it('a bidder without user sync has no cookie family, so no id from the cookie (as in Prebid Server)', async () => {
    const withGamma = encodeUidsCookie(withUid(EMPTY_UIDS_COOKIE, 'gamma', 'gamma-uid', NOW));
    const res = await app.server.inject({ method: 'POST', url: '/openrtb2/auction', headers: { cookie: `uids=${withGamma}` }, payload: { ...request(), imp: [{ id: 'imp-1', banner, ext: { prebid: { bidder: { gamma: {} } } } }] } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(last(beta).user, undefined);
  });

  it('counts auctions by their cookie', async () => {
    const metrics = (await app.metrics.render()).body;
    assert.match(metrics, /openbid_auction_uids_cookies_total\{state="with-ids"\} [4-9]/);
    assert.match(metrics, /openbid_auction_uids_cookies_total\{state="absent"\} [1-9]/);
    assert.match(metrics, /openbid_auction_uids_cookies_total\{state="without-ids"\} [1-9]/);
  });
});
