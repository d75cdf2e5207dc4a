import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pageResult } from './support/browser.js';
import type { Stack } from './support/stack.js';
import { startStack } from './support/stack.js';

interface BidView {
  bidder: string;
  cpm: number;
  width: number;
  height: number;
  mediaType: string;
  source: string;
  adserverTargeting: Record<string, string>;
}

interface PageReport {
  timedOut: boolean;
  auctionId: string;
  bids: BidView[];
  winner: BidView | undefined;
  targeting: Record<string, string>;
}

const banner = (id: string, price: number, label: string) => ({
  id: 'resp',
  cur: 'USD',
  seatbid: [{ bid: [{ id, impid: 'b1', price, crid: `cr-${id}`, w: 300, h: 250, adm: `<div id="creative-${label}">${label}</div>` }] }],
});

describe('Prebid.js 11 server-to-server against /openrtb2/auction, in Chromium', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ bidders: { alpha: { body: banner('a-1', 1.23, 'alpha') }, beta: { body: banner('b-1', 2.0, 'beta') } } });
  });
  after(async () => stack?.close());

  it('the page, on another origin, gets both bids, the winner and its targeting; the winner is cached at hb_cache_id', async () => {
    const page = await stack.browser.open(`${stack.pages.pageOrigin}/pages/prebid-s2s-banner.html?openbid=${encodeURIComponent(stack.openbid)}&account=${stack.account}`);
    const report = await pageResult<PageReport>(page, stack.browser);
    const context = `\n--- browser log ---\n${stack.browser.log()}\n--- openbid ---\n${stack.serverOutput()}`;

    assert.equal(report.timedOut, false, `Prebid.js timed out${context}`);
    const bids = report.bids.map((b) => [b.bidder, b.cpm, `${b.width}x${b.height}`, b.mediaType, b.source]).sort();
    assert.deepEqual(bids, [['alpha', 1.23, '300x250', 'banner', 's2s'], ['beta', 2, '300x250', 'banner', 's2s']], `the page did not see both bids${context}`);
    assert.equal(report.winner?.bidder, 'beta');

    const t = report.targeting;
    assert.equal(t.hb_bidder, 'beta');
    assert.equal(t.hb_pb, '2.00');
    assert.equal(t.hb_size, '300x250');
    assert.match(t.hb_cache_id ?? '', /^[0-9a-f-]{36}$/, `no hb_cache_id in the page's targeting: ${JSON.stringify(t)}`);
    assert.equal(t.hb_cache_host, new URL(stack.openbidTls).host);
    assert.equal(t.hb_cache_path, '/cache');
    // Prebid.js's "send all bids" keys, per bidder.
    assert.equal(t.hb_pb_alpha, '1.20');
    assert.equal(t.hb_bidder_alpha, 'alpha');

    // What the creative will do: read the winning bid back where the targeting says.
    const cached = await fetch(`${stack.openbid}${t.hb_cache_path}?uuid=${t.hb_cache_id}`);
    assert.equal(cached.status, 200);
    const bid = (await cached.json()) as { id: string; price: number; adm: string };
    assert.equal(bid.id, 'b-1');
    assert.equal(bid.adm, '<div id="creative-beta">beta</div>');

    // What openbid received: the Prebid.js request, sent the way Prebid.js sends it.
    const sent = JSON.parse(stack.bidders.beta?.received[0]?.body ?? '{}') as { site?: { publisher?: { id?: string } }; imp?: { id: string }[] };
    assert.equal(sent.site?.publisher?.id, stack.account);
    assert.deepEqual(sent.imp?.map((i) => i.id), ['b1']);
    await page.close();
  });
});
