import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pageResult } from './support/browser.js';
import type { Stack } from './support/stack.js';
import { startStack } from './support/stack.js';

interface PageReport {
  timedOut: boolean;
  auctionId: string;
  error?: string;
  targeting: Record<string, string>;
  bid?: { bidder: string; cpm: number; mediaType: string; requestId: string; auctionId: string; videoCacheKey: string; vastUrl: string };
  player?: { vastStatus: number; vast: string; impressions: string[]; fired: { url: string; outcome: string }[] };
}

/** An InLine VAST with the bidder's own Impression, which must stay where it is. */
const vast = (bidderPixel: string): string =>
  '<VAST version="3.0"><Ad id="e2e-video"><InLine><AdSystem>mock</AdSystem><AdTitle>e2e</AdTitle>' +
  `<Impression><![CDATA[${bidderPixel}]]></Impression>` +
  '<Creatives><Creative><Linear><Duration>00:00:15</Duration><MediaFiles>' +
  '<MediaFile delivery="progressive" type="video/mp4" width="640" height="480"><![CDATA[https://media.invalid/v.mp4]]></MediaFile>' +
  '</MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>';

describe('Prebid.js 11 video with cache.url at /vtrack and cache.vasttrack, in Chromium', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ bidders: { alpha: {} } });
  });
  after(async () => stack?.close());

  it("Prebid.js posts the VAST to /vtrack, the VAST it reads back carries openbid's Impression, and firing it reaches /event and the analytics file", async () => {
    const bidderPixel = `${stack.pages.adServerOrigin}/pixel/bidder-imp`;
    stack.bidders.alpha?.answerWith({
      body: { id: 'resp', cur: 'USD', seatbid: [{ bid: [{ id: 'v-1', impid: 'v1', price: 3.5, crid: 'cr-v-1', w: 640, h: 480, adm: vast(bidderPixel) }] }] },
    });
    const page = await stack.browser.open(`${stack.pages.pageOrigin}/pages/prebid-video-vtrack.html?openbid=${encodeURIComponent(stack.openbid)}&account=${stack.account}`);
    const report = await pageResult<PageReport>(page, stack.browser);
    const context = `\n--- page ---\n${JSON.stringify(report)}\n--- browser log ---\n${stack.browser.log()}\n--- openbid ---\n${stack.serverOutput()}`;

    assert.equal(report.error, undefined, `the page failed${context}`);
    const bid = report.bid;
    assert.ok(bid !== undefined);
    assert.deepEqual([bid.bidder, bid.cpm, bid.mediaType], ['alpha', 3.5, 'video']);
    assert.match(bid.videoCacheKey, /^[0-9a-f-]{36}$/);
    // Prebid.js reads the VAST back at <cache.url>?uuid=<id>: /vtrack?a=<account>?uuid=<id>.
    assert.equal(bid.vastUrl, `${stack.openbid}/vtrack?a=${stack.account}?uuid=${bid.videoCacheKey}`);
    assert.equal(report.targeting.hb_uuid, bid.videoCacheKey);
    assert.equal(report.targeting.hb_cache_host, new URL(stack.openbid).hostname);

    const player = report.player;
    assert.ok(player !== undefined);
    assert.equal(player.vastStatus, 200);
    const event = new URL(player.impressions[1] ?? 'http://missing.invalid/');
    assert.deepEqual(player.impressions.length, 2, `the VAST read back has no Impression of openbid's: ${player.vast}`);
    assert.equal(player.impressions[0], bidderPixel, "the bidder's Impression comes first, untouched");
    assert.equal(`${event.origin}${event.pathname}`, `${stack.openbid}/event`);
    assert.deepEqual(Object.fromEntries(event.searchParams), {
      t: 'imp',
      b: bid.requestId,
      a: stack.account,
      aid: bid.auctionId,
      ts: event.searchParams.get('ts'),
      bidder: 'alpha',
      f: 'b',
    });
    assert.match(event.searchParams.get('ts') ?? '', /^\d{13}$/);
    assert.deepEqual(
      player.fired.map((f) => f.outcome === 'timeout'),
      [false, false],
      `a tracker did not answer: ${JSON.stringify(player.fired)}`,
    );
    assert.ok(stack.pages.requests.includes('/pixel/bidder-imp'), "the bidder's own Impression fired too");

    const record = await stack.waitForAnalytics('the impression event in the analytics file', (r) => r.kind === 'event' && r.type === 'imp');
    assert.equal(record.account, stack.account);
    assert.equal(record.bidId, bid.requestId);
    assert.equal(record.bidder, 'alpha');
    assert.equal(record.auctionId, bid.auctionId);
    await page.close();
  });
});
