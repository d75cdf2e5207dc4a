import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readRecordLines, tempRecordsPath } from '../support/analytics.js';
import { buildTestApp } from '../support/app.js';
import { startCollector } from '../support/collector.js';
import { startMockBidder } from '../support/mock-bidder.js';


const bidResponse = { id: 'r', seatbid: [{ bid: [{ id: 'b1', impid: 'imp-1', price: 2, adm: '<div/>', crid: 'c1', w: 300, h: 250 }] }] };

describe('auction and AMP records and metrics', () => {
  it('an AMP auction and an OpenRTB auction each reach the analytics file and the metrics by endpoint and result', async () => {
    const path = tempRecordsPath('openbid-auctions-');
    const alpha = await startMockBidder({ body: bidResponse });
    const beta = await startMockBidder({ status: 204 });
    const app = await buildTestApp({
      analytics: { file: { path, flush_interval_ms: 60_000 } },
      adapters: { alpha: { adapter: 'generic', endpoint: alpha.url }, beta: { adapter: 'generic', endpoint: beta.url } },
      stored_requests: { filesystem: { directory: 'test/fixtures/amp-stored/requests' } },
    });
    try {
      const amp = await app.server.inject({ method: 'GET', url: '/openrtb2/amp?tag_id=banner-1&account=acct-1' });
      assert.equal(amp.statusCode, 200, amp.body);
      assert.equal((JSON.parse(amp.body) as { targeting: Record<string, string> }).targeting.hb_bidder, 'alpha');
      const missing = await app.server.inject({ method: 'GET', url: '/openrtb2/amp?tag_id=no-such-tag' });
      assert.equal(missing.statusCode, 400);
      const auction = await app.server.inject({
        method: 'POST',
        url: '/openrtb2/auction',
        payload: { id: 'a-1', site: { page: 'https://p.example/', publisher: { id: 'acct-2' } }, imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { beta: {} } } } }] },
      });
      assert.equal(auction.statusCode, 200, auction.body);

      const metrics = (await app.metrics.render()).body;
      for (const line of [
        'openbid_auctions_total{endpoint="amp",result="bids"} 1',
        'openbid_auctions_total{endpoint="amp",result="rejected"} 1',
        'openbid_auctions_total{endpoint="auction",result="no-bids"} 1',
        'openbid_bidder_requests_total{bidder="alpha",outcome="bid"} 1',
        'openbid_bidder_requests_total{bidder="beta",outcome="no-bid"} 2',
        'openbid_auction_duration_seconds_count{endpoint="amp"} 2',
      ]) {
        assert.ok(metrics.includes(line), `missing ${line}`);
      }

      await app.close();
      const records = readRecordLines(path);
      assert.deepEqual(
        records.map((r) => [r.kind, r.account, r.tagId, r.status]),
        [
          ['amp', 'acct-1', 'banner-1', 200],
          ['amp', '', 'no-such-tag', 400],
          ['auction', 'acct-2', undefined, 200],
        ],
      );
      assert.deepEqual(records[1]!.errors, ["No AMP config found for tag_id 'no-such-tag'."]);
      assert.deepEqual([records[1]!.bidders, records[1]!.winners], [[], []]);
      const ampRecord = records[0] as { winners: { bidder: string; price: number }[]; bidders: { bidder: string; outcome: string }[] };
      assert.deepEqual(ampRecord.winners.map((w) => [w.bidder, w.price]), [['alpha', 2]]);
      assert.deepEqual(ampRecord.bidders.map((b) => [b.bidder, b.outcome]).sort(), [['alpha', 'bid'], ['beta', 'no-bid']]);
    } finally {
      await app.close();
      await Promise.all([alpha.close(), beta.close()]);
    }
  });

  it('reportAnalytics decides per module: the auction record reaches the HTTP module and not the file module denied by an activity rule', async () => {
    const path = tempRecordsPath('openbid-auctions-');
    const collector = await startCollector();
    const alpha = await startMockBidder({ body: bidResponse });
    const app = await buildTestApp({
      analytics: { file: { path, flush_interval_ms: 60_000 }, http: { endpoint: collector.url, batch_size: 1, flush_interval_ms: 10 } },
      adapters: { alpha: { adapter: 'generic', endpoint: alpha.url } },
      privacy: { allowactivities: { reportAnalytics: { rules: [{ condition: { componentType: ['analytics'], componentName: ['file'] }, allow: false }] } } },
    });
    try {
      const auction = await app.server.inject({
        method: 'POST',
        url: '/openrtb2/auction',
        payload: { id: 'a-9', site: { page: 'https://p.example/', publisher: { id: 'acct-9' } }, imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {} } } } }] },
      });
      assert.equal(auction.statusCode, 200, auction.body);
      // Closing flushes both modules.
      await app.close();
      assert.deepEqual(
        collector.received.flat().map((r) => (r as { auctionId?: string }).auctionId),
        ['a-9'],
      );
      assert.deepEqual(readRecordLines(path), []);
    } finally {
      await app.close();
      await alpha.close();
      await collector.close();
    }
  });
});
