import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { PAGE_WAIT_MS, pageResult, screenshot } from './support/browser.js';
import { ampBanner, ampStoredRequests } from './support/amp-fixtures.js';
import type { Stack } from './support/stack.js';
import { startStack } from './support/stack.js';

interface PageReport {
  error?: string;
  targeting: Record<string, string>;
}

describe('The Prebid Universal Creative 1.17 renders an AMP winner from openbid’s cache, in Chromium', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ bidders: { alpha: { body: ampBanner('a-1', 1.23, 'alpha') }, beta: { body: ampBanner('b-1', 2.0, 'beta') } }, storedRequests: ampStoredRequests });
  });
  after(async () => stack?.close());

  it('in the ad server’s cross-origin iframe, amp.js reads the bid at https://hb_cache_host + hb_cache_path and writes the creative', async () => {
    const page = await stack.browser.open(
      `${stack.pages.pageOrigin}/pages/amp-creative.html?openbid=${encodeURIComponent(stack.openbidTls)}&adserver=${encodeURIComponent(stack.pages.adServerOrigin)}`,
    );
    const report = await pageResult<PageReport>(page, stack.browser);
    const context = () => `\n--- page ---\n${JSON.stringify(report)}\n--- browser log ---\n${stack.browser.log()}\n--- openbid ---\n${stack.serverOutput()}`;
    assert.equal(report.error, undefined, `the page failed${context()}`);
    assert.equal(report.targeting.hb_cache_host, new URL(stack.openbidTls).host, 'the creative is sent to the TLS front');

    const creative = page.frameLocator('iframe#ad').locator('#creative-beta');
    try {
      await creative.waitFor({ state: 'visible', timeout: PAGE_WAIT_MS });
    } catch (err) {
      throw new Error(`the creative did not render: ${(err as Error).message}${context()}`);
    }
    assert.ok(
      stack.browser.requests().includes(`${stack.openbidTls}/cache?uuid=${report.targeting.hb_cache_id}`),
      `the creative did not read https://<hb_cache_host>/cache?uuid=<hb_cache_id>: ${stack.browser.requests().join(' ')}`,
    );
    assert.equal(await creative.locator('#price').textContent(), 'price 2', "the creative filled ${AUCTION_PRICE} from the cached bid's price");
    const frame = page.frames().find((f) => f.url().startsWith(`${stack.pages.adServerOrigin}/adserver/`));
    assert.ok(frame !== undefined, 'the creative frame is on the ad server’s origin');
    assert.notEqual(new URL(frame.url()).origin, new URL(page.url()).origin);

    const shot = await screenshot(page, 'universal-creative-amp');
    assert.ok(statSync(shot).size > 0, 'the screenshot was written');
    await page.close();
  });
});
