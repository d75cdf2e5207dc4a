import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pageResult } from './support/browser.js';
import type { Stack } from './support/stack.js';
import { ampBanner, ampStoredRequests } from './support/amp-fixtures.js';
import { ACCOUNT, startStack } from './support/stack.js';

interface RtcResult {
  callout: string;
  url: string;
  error?: string;
  rtcTime?: number;
  response?: { targeting: Record<string, string> };
}

describe("AMP's real-time config callout to /openrtb2/amp from another origin, in Chromium", () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ bidders: { alpha: { body: ampBanner('a-1', 1.23, 'alpha') }, beta: { body: ampBanner('b-1', 2.0, 'beta') } }, storedRequests: ampStoredRequests });
  });
  after(async () => stack?.close());

  it('the URL is built as rtc-config builds it, the credentialed CORS answer is accepted and the page reads the targeting', async () => {
    const pageUrl = `${stack.pages.pageOrigin}/pages/amp-rtc.html?openbid=${encodeURIComponent(stack.openbidTls)}`;
    const page = await stack.browser.open(pageUrl);
    const report = await pageResult<{ results: RtcResult[] }>(page, stack.browser);
    const context = `\n--- page ---\n${JSON.stringify(report)}\n--- browser log ---\n${stack.browser.log()}\n--- openbid ---\n${stack.serverOutput()}`;
    const [rtc] = report.results;
    assert.ok(rtc !== undefined);
    assert.equal(rtc.error, undefined, `the RTC callout failed${context}`);

    const expected =
      `${stack.openbidTls}/openrtb2/amp?tag_id=amp-banner&w=300&h=250&ow=&oh=&ms=&slot=%2F1234%2Fe2e%2Ftop` +
      `&targeting=${encodeURIComponent('{"section":["sports"]}')}&curl=${encodeURIComponent('https://pub.example/articles/e2e.html')}` +
      `&timeout=800&adc=&purl=${encodeURIComponent(pageUrl)}&gdpr_consent=&account=${ACCOUNT}` +
      `&__amp_source_origin=${encodeURIComponent(stack.pages.pageOrigin)}`;
    assert.equal(rtc.url, expected);

    const t = rtc.response?.targeting ?? {};
    assert.equal(t.hb_bidder, 'beta', `targeting: ${JSON.stringify(t)}`);
    assert.equal(t.hb_pb, '2.00');
    assert.equal(t.hb_size, '300x250');
    assert.equal(t.hb_env, 'amp');
    assert.match(t.hb_cache_id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(t.hb_cache_host, new URL(stack.openbidTls).host);
    assert.equal(t.hb_cache_path, '/cache');
    assert.equal(t.hb_bidder_alpha, 'alpha');

    // What the page's macros became in the auction.
    const sent = JSON.parse(stack.bidders.beta?.received[0]?.body ?? '{}') as {
      tmax?: number;
      site?: { page?: string };
      imp?: { tagid?: string; banner?: { format?: unknown }; ext?: { data?: unknown } }[];
    };
    assert.equal(sent.site?.page, 'https://pub.example/articles/e2e.html');
    assert.equal(sent.imp?.[0]?.tagid, '/1234/e2e/top');
    assert.deepEqual(sent.imp?.[0]?.banner?.format, [{ w: 300, h: 250 }]);
    assert.deepEqual(sent.imp?.[0]?.ext?.data, { section: ['sports'] });
    assert.ok((sent.tmax ?? Infinity) <= 800, `tmax ${sent.tmax} is above rtc-config's timeoutMillis`);
    await page.close();
  });
});
