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
  ad: string;
}

interface PageReport {
  timedOut: boolean;
  bids: BidView[];
  winner: BidView | undefined;
}

/** An OpenRTB answer with one 300x250 bid on the page's ad unit `b1`, with what the bidder adds. */
const answer = (id: string, price: number, extra: Record<string, unknown>) => ({
  id: 'resp',
  cur: 'USD',
  seatbid: [{ bid: [{ id, impid: 'b1', price, crid: `cr-${id}`, w: 300, h: 250, adm: `<div id="creative-${id}">${id}</div>`, ...extra }] }],
});

/** The bids the page writes, each with its bidder's own params as the publisher would. */
const PAGE_BIDS = [
  { bidder: 'criteo', params: { zoneId: 731 } },
  { bidder: 'sharethrough', params: { pkey: 'pkey-e2e' } },
  { bidder: 'smartadserver', params: { networkId: 4242, siteId: 11, pageId: 22, formatId: 33 } },
];

describe('Prebid.js 11 server-to-server with three of the built-in adapters (criteo, sharethrough, smartadserver), in Chromium', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      bidders: {
        // Each answers as that bidder does: Criteo and Sharethrough type their bids in ext.prebid.type, Equativ by mtype.
        criteo: { body: answer('crt-1', 1.75, { ext: { prebid: { type: 'banner' } } }) },
        sharethrough: { body: answer('shr-1', 1.25, { ext: { prebid: { type: 'banner' } } }) },
        smartadserver: { body: answer('eqt-1', 2.5, { mtype: 1 }) },
      },
      adapterOf: { criteo: 'criteo', sharethrough: 'sharethrough', smartadserver: 'smartadserver' },
    });
  });
  after(async () => stack?.close());

  it('the page gets a bid from each, and each bidder received the request its adapter makes', async () => {
    const url = `${stack.pages.pageOrigin}/pages/prebid-s2s-bidders.html?openbid=${encodeURIComponent(stack.openbid)}&account=${stack.account}&bids=${encodeURIComponent(JSON.stringify(PAGE_BIDS))}`;
    const page = await stack.browser.open(url);
    const report = await pageResult<PageReport>(page, stack.browser);
    const context = `\n--- browser log ---\n${stack.browser.log()}\n--- openbid ---\n${stack.serverOutput()}`;

    assert.equal(report.timedOut, false, `Prebid.js timed out${context}`);
    const bids = report.bids.map((b) => [b.bidder, b.cpm, `${b.width}x${b.height}`, b.mediaType, b.source]).sort();
    assert.deepEqual(
      bids,
      [
        ['criteo', 1.75, '300x250', 'banner', 's2s'],
        ['sharethrough', 1.25, '300x250', 'banner', 's2s'],
        ['smartadserver', 2.5, '300x250', 'banner', 's2s'],
      ],
      `the page did not see the three bids${context}`,
    );
    assert.equal(report.winner?.bidder, 'smartadserver');

    // What each adapter sent: its own request shape, not the generic one.
    const sent = (code: string): Record<string, unknown> => JSON.parse(stack.bidders[code]?.received[0]?.body ?? '{}') as Record<string, unknown>;
    const criteo = sent('criteo') as { imp?: { id: string; ext?: { bidder?: { zoneId?: number } } }[] };
    assert.equal(criteo.imp?.[0]?.id, 'b1');
    assert.equal(criteo.imp?.[0]?.ext?.bidder?.zoneId, 731, JSON.stringify(criteo));
    const sharethrough = sent('sharethrough') as { imp?: { tagid?: string }[]; source?: { ext?: { str?: string } } };
    assert.equal(sharethrough.imp?.[0]?.tagid, 'pkey-e2e', JSON.stringify(sharethrough));
    assert.equal(typeof sharethrough.source?.ext?.str, 'string');
    // Equativ's calls go out gzipped, its network id as the site's publisher.
    assert.equal(stack.bidders.smartadserver?.received[0]?.headers['content-encoding'], 'gzip');
    const equativ = sent('smartadserver') as { site?: { publisher?: { id?: string } } };
    assert.equal(equativ.site?.publisher?.id, '4242', JSON.stringify(equativ));
    await page.close();
  });
});
