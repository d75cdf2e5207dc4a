import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pageResult } from './support/browser.js';
import { ampBanner, ampStoredRequests } from './support/amp-fixtures.js';
import type { Stack } from './support/stack.js';
import { startStack } from './support/stack.js';
import { browserUids, waitForSyncedUids } from './support/uids-cookie.js';

interface RtcResult {
  url: string;
  error?: string;
  response?: { targeting: Record<string, string> };
}

const UIDS = { alpha: 'alpha-amp-1', beta: 'beta-amp-2' };

describe('AMP user sync: the Universal Creative’s load-cookie.html, then user.buyeruid in /openrtb2/amp, in Chromium', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      bidders: { alpha: { body: ampBanner('a-1', 1.23, 'alpha') }, beta: { body: ampBanner('b-1', 2.0, 'beta') } },
      storedRequests: ampStoredRequests,
      userSync: UIDS,
    });
  });
  after(async () => stack?.close());

  it('the amp-iframe syncs both bidders through /cookie_sync and /setuid; the next RTC callout gives each its id', async () => {
    const context = () => `\n--- browser log ---\n${stack.browser.log()}\n--- answers ---\n${JSON.stringify(stack.browser.responses())}\n--- openbid ---\n${stack.serverOutput()}`;
    assert.equal(await browserUids(stack), undefined, 'a fresh profile has no uids cookie');
    const syncPage = await stack.browser.open(
      `${stack.pages.pageOrigin}/pages/amp-usersync.html?cdn=${encodeURIComponent(stack.cdnOrigin)}&openbid=${encodeURIComponent(stack.openbidSite)}&account=${stack.account}`,
    );
    const loaded = await pageResult<{ src: string }>(syncPage, stack.browser);
    assert.ok(loaded.src.startsWith(`${stack.cdnOrigin}/puc/load-cookie.html?endpoint=`));

    const synced = await waitForSyncedUids(stack, ['alpha', 'beta'], context);
    assert.deepEqual({ ...synced.uids }, UIDS);
    assert.equal(synced.cookie.secure, true);
    assert.equal(synced.cookie.sameSite, 'None');

    const answers = stack.browser.responses();
    assert.ok(
      answers.some((a) => a.url === `${stack.openbidSite}/cookie_sync` && a.status === 200),
      `load-cookie.html did not get /cookie_sync's answer at the endpoint it was given${context()}`,
    );
    for (const [bidder, uid] of Object.entries(UIDS)) {
      assert.ok(
        answers.some((a) => a.url.startsWith(`${stack.bidderSyncOrigin}/usersync?uid=${uid}&`) && a.status === 302),
        `load-cookie.html did not fire ${bidder}'s pixel${context()}`,
      );
      assert.ok(
        answers.some((a) => a.url.startsWith(`${stack.openbidSite}/setuid?bidder=${bidder}&`) && a.status === 200),
        `/setuid did not answer 200 for ${bidder}${context()}`,
      );
    }
    await syncPage.close();

    // The next AMP page view: its slot's RTC callout, with credentials, to openbid's site.
    for (const b of Object.values(stack.bidders)) b.received.splice(0);
    const page = await stack.browser.open(`${stack.pages.pageOrigin}/pages/amp-rtc.html?openbid=${encodeURIComponent(stack.openbidSite)}`);
    const report = await pageResult<{ results: RtcResult[] }>(page, stack.browser);
    const [rtc] = report.results;
    assert.equal(rtc?.error, undefined, `the RTC callout failed${context()}`);
    assert.ok(rtc?.url.startsWith(`${stack.openbidSite}/openrtb2/amp?tag_id=amp-banner&`));
    assert.equal(rtc?.response?.targeting.hb_bidder, 'beta');
    for (const [bidder, uid] of Object.entries(UIDS)) {
      const sent = JSON.parse(stack.bidders[bidder]?.received[0]?.body ?? '{}') as { user?: { buyeruid?: string } };
      assert.equal(sent.user?.buyeruid, uid, `${bidder} received its own id from /openrtb2/amp${context()}`);
    }
    await page.close();
  });
});
