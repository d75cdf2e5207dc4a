import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pageResult } from './support/browser.js';
import type { Stack } from './support/stack.js';
import { startStack } from './support/stack.js';
import { browserUids, waitForSyncedUids } from './support/uids-cookie.js';

interface AuctionReport {
  timedOut: boolean;
  auctionId: string;
  bids: { bidder: string; cpm: number }[];
}

const banner = (id: string, price: number) => ({
  id: 'resp',
  cur: 'USD',
  seatbid: [{ bid: [{ id, impid: 'b1', price, crid: `cr-${id}`, w: 300, h: 250, adm: `<div>${id}</div>` }] }],
});

/** What each mock bidder's sync endpoint says its user is: one plain, one that needs escaping on the way. */
const UIDS = { alpha: 'alpha-user-1', beta: 'beta user/2' };

describe('Prebid.js 11 user sync: /cookie_sync, the bidders’ pixels, /setuid, then user.buyeruid in /openrtb2/auction, in Chromium', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ bidders: { alpha: { body: banner('a-1', 1.5) }, beta: { body: banner('b-1', 2.5) } }, userSync: UIDS });
  });
  after(async () => stack?.close());

  it('the page on another site syncs both bidders into the uids cookie, and its next requestBids gives each its id', async () => {
    const page = await stack.browser.open(`${stack.pages.pageOrigin}/pages/prebid-s2s-usersync.html?openbid=${encodeURIComponent(stack.openbidSite)}&account=${stack.account}`);
    const context = () => `\n--- browser log ---\n${stack.browser.log()}\n--- answers ---\n${JSON.stringify(stack.browser.responses())}\n--- openbid ---\n${stack.serverOutput()}`;
    assert.equal(await browserUids(stack), undefined, 'a fresh profile has no uids cookie');
    const first = await pageResult<{ auctions: AuctionReport[] }>(page, stack.browser);
    assert.equal(first.auctions[0]?.timedOut, false, `the first auction timed out${context()}`);

    const synced = await waitForSyncedUids(stack, ['alpha', 'beta'], context);
    assert.deepEqual({ ...synced.uids }, UIDS, 'each family holds the id its sync endpoint gave');
    // Prebid Server's attributes: a cookie a third-party request may carry, only over TLS.
    assert.equal(synced.cookie.secure, true);
    assert.equal(synced.cookie.sameSite, 'None');
    assert.equal(synced.cookie.domain, new URL(stack.openbidSite).hostname);

    // The path the browser took: Prebid.js's /cookie_sync, each pixel's 302, openbid's /setuid.
    const answers = stack.browser.responses();
    assert.ok(
      answers.some((a) => a.url === `${stack.openbidSite}/cookie_sync` && a.status === 200),
      `Prebid.js did not get /cookie_sync's answer${context()}`,
    );
    for (const [bidder, uid] of Object.entries(UIDS)) {
      const pixel = answers.find((a) => a.url.startsWith(`${stack.bidderSyncOrigin}/usersync?uid=${encodeURIComponent(uid)}&`));
      assert.equal(pixel?.status, 302, `${bidder}'s sync pixel did not redirect${context()}`);
      const redirect = new URL(new URL(pixel.url).searchParams.get('redirect') ?? 'http://missing.invalid/');
      assert.equal(`${redirect.origin}${redirect.pathname}`, `${stack.openbidSite}/setuid`, "the bidder's redirect is openbid's /setuid on its external URL");
      assert.equal(redirect.searchParams.get('bidder'), bidder);
      const setuid = answers.find((a) => a.url.startsWith(`${stack.openbidSite}/setuid?`) && new URL(a.url).searchParams.get('uid') === uid);
      assert.equal(setuid?.status, 200, `/setuid for ${bidder} did not answer 200${context()}`);
    }

    for (const b of Object.values(stack.bidders)) b.received.splice(0);
    const second = await page.evaluate<AuctionReport>('window.runAuction()');
    assert.equal(second.timedOut, false, `the second auction timed out${context()}`);
    assert.deepEqual(second.bids.map((b) => [b.bidder, b.cpm]).sort(), [['alpha', 1.5], ['beta', 2.5]]);
    for (const [bidder, uid] of Object.entries(UIDS)) {
      const received = stack.bidders[bidder]?.received ?? [];
      assert.equal(received.length, 1, `${bidder} was called once by the second auction`);
      const sent = JSON.parse(received[0]?.body ?? '{}') as { user?: { buyeruid?: string; ext?: { prebid?: unknown } } };
      assert.equal(sent.user?.buyeruid, uid, `${bidder} received its own id${context()}`);
      assert.equal(sent.user?.ext?.prebid, undefined, 'no other bidder’s ids travel along');
    }
    await page.close();
  });
});
