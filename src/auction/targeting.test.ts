import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuctionBid } from './auction-bid.js';
import { rankBids } from './ranking.js';
import { bidsWithTargeting, bidTargeting } from './targeting.js';
import type { TargetingOptions } from './targeting.js';

const auctionBid = (bidder: string, impid: string, price: number, extra: Partial<AuctionBid['bid']> = {}): AuctionBid => ({
  bidder,
  bid: { id: `${bidder}-${impid}-${price}`, impid, price, crid: 'c', w: 300, h: 250, ...extra },
  type: 'banner',
  originalPrice: price,
  originalCurrency: 'USD',
});

const opts: TargetingOptions = { includeWinners: true, includeBidderKeys: false, includeFormat: false, alwaysIncludeDeals: false, prefix: 'hb', maxKeyLength: 20 };

describe('rankBids', () => {
  it('keeps each bidder best bid per imp and picks the highest as winner, in imp order', () => {
    const bids = [auctionBid('a', 'i2', 1), auctionBid('a', 'i1', 1), auctionBid('a', 'i1', 3), auctionBid('b', 'i1', 2)];
    const r = rankBids(['i1', 'i2', 'i3'], bids, false);
    assert.deepEqual(r.map((x) => [x.impId, x.winner.bid.price, x.topByBidder.map((b) => `${b.bidder}:${b.bid.price}`)]), [
      ['i1', 3, ['a:3', 'b:2']],
      ['i2', 1, ['a:1']],
    ]);
  });
  it('with preferDeals, a deal beats any price and a higher deal priority beats a lower one', () => {
    const deal = auctionBid('b', 'i1', 0.5, { dealid: 'd' });
    const better = { ...auctionBid('c', 'i1', 0.1, { dealid: 'e' }), dealPriority: 5 };
    assert.equal(rankBids(['i1'], [auctionBid('a', 'i1', 9), deal], true)[0]!.winner, deal);
    assert.equal(rankBids(['i1'], [auctionBid('a', 'i1', 9), deal], false)[0]!.winner.bidder, 'a');
    assert.equal(rankBids(['i1'], [deal, better], true)[0]!.winner, better);
  });
});

describe('bidTargeting', () => {
  const b = auctionBid('verylongbiddername', 'i1', 1, { dealid: 'd1' });
  it('writes winner keys for a winner, cut to 20 characters with their bidder suffix', () => {
    const t = bidTargeting(b, true, '1.00', { cacheId: 'c1', vastCacheId: 'v1' }, { host: 'h:1', path: '/cache' }, { ...opts, includeBidderKeys: true, includeFormat: true, env: 'amp' });
    assert.deepEqual(t, {
      hb_pb: '1.00', hb_pb_verylongbidder: '1.00',
      hb_bidder: 'verylongbiddername', hb_bidder_verylongbi: 'verylongbiddername',
      hb_size: '300x250', hb_size_verylongbidd: '300x250',
      hb_deal: 'd1', hb_deal_verylongbidd: 'd1',
      hb_cache_id: 'c1', hb_cache_id_verylong: 'c1',
      hb_uuid: 'v1', hb_uuid_verylongbidd: 'v1',
      hb_cache_host: 'h:1', hb_cache_host_verylo: 'h:1',
      hb_cache_path: '/cache', hb_cache_path_verylo: '/cache',
      hb_env: 'amp', hb_env_verylongbidde: 'amp',
      hb_format: 'banner', hb_format_verylongbi: 'banner',
    });
  });
  it('gives a loser no keys unless bidder keys are on, or it is a deal and deals are always included', () => {
    assert.equal(bidTargeting(auctionBid('a', 'i', 1), false, '1.00', {}, undefined, opts), undefined);
    assert.deepEqual(Object.keys(bidTargeting(b, false, '1.00', {}, undefined, { ...opts, alwaysIncludeDeals: true })!), [
      'hb_pb_verylongbidder', 'hb_bidder_verylongbi', 'hb_size_verylongbidd', 'hb_deal_verylongbidd',
    ]);
  });
  it('uses the prefix in place of hb, and names no cache host without a cached id', () => {
    assert.deepEqual(bidTargeting(auctionBid('a', 'i', 1, { w: 0 }), true, '1.00', {}, { host: 'h', path: '/p' }, { ...opts, prefix: 'pfx' }), { pfx_pb: '1.00', pfx_bidder: 'a' });
  });
  it('selects the winners, and every top bid with bidder keys', () => {
    const r = rankBids(['i1'], [auctionBid('a', 'i1', 1), auctionBid('b', 'i1', 2)], false);
    assert.deepEqual(bidsWithTargeting(r, opts).map((x) => x.bidder), ['b']);
    assert.deepEqual(bidsWithTargeting(r, { ...opts, includeBidderKeys: true }).map((x) => x.bidder), ['a', 'b']);
  });
});
