import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Bid } from '../openrtb/types.js';
import type { AuctionBid } from './auction-bid.js';
import { answerBidExt, bidExtProblem } from './bid-ext.js';

const auctionBid = (ext: unknown, extra: Partial<AuctionBid> = {}): AuctionBid => ({
  bidder: 'alpha',
  bid: { id: 'b1', impid: 'i1', price: 2, crid: 'c', ext } as Bid,
  type: 'banner',
  originalPrice: 2.5,
  originalCurrency: 'EUR',
  ...extra,
});

const HOSTILE_PREBID = {
  targeting: { hb_pb: '99.00', hb_bidder: 'alpha', hb_foo: 'bar' },
  cache: { bids: { url: 'https://evil.example/cache?uuid=x', cacheId: 'x' } },
  type: 'video',
  events: { win: 'https://evil.example/win' },
  bidid: 'forged',
  passthrough: { a: 1 },
  floors: { floorValue: 9 },
  dealpriority: 9,
  dealtiersatisfied: true,
  targetbiddercode: 'other',
  video: { duration: 999, primary_category: 'x' },
  meta: { advertiserDomains: ['a.example'], brandId: 7, brandName: '', networkId: 0, adaptercode: 'other', unknown: 1 },
};

describe('answerBidExt', () => {
  it("keeps of the bidder's ext.prebid only meta's known, set members; writes type, targeting and cache from the exchange", () => {
    const targeting = { hb_pb: '2.00', hb_bidder: 'alpha' };
    const cache = { bids: { url: 'https://ours.example/cache?uuid=u', cacheId: 'u' } };
    const ext = answerBidExt(auctionBid({ prebid: HOSTILE_PREBID, other: { kept: true }, origbidcpm: 100 }), targeting, cache);
    assert.deepEqual(ext, {
      other: { kept: true },
      origbidcpm: 2.5,
      origbidcur: 'EUR',
      prebid: { type: 'banner', targeting, cache, meta: { advertiserDomains: ['a.example'], brandId: 7 } },
    });
  });

  it('a bid the exchange wrote no targeting or cache for carries none, whatever the bidder sent', () => {
    const ext = answerBidExt(auctionBid({ prebid: HOSTILE_PREBID }), undefined, undefined);
    assert.deepEqual(ext.prebid, { type: 'banner', meta: { advertiserDomains: ['a.example'], brandId: 7 } });
  });

  it("writes video and dealpriority from the adapter's reading, as Prebid Server does", () => {
    const b = auctionBid(undefined, { type: 'video', video: { duration: 30 }, dealPriority: 5 });
    assert.deepEqual(answerBidExt(b, undefined, undefined), { prebid: { type: 'video', video: { duration: 30, primary_category: '' }, dealpriority: 5 }, origbidcpm: 2.5, origbidcur: 'EUR' });
  });

  it("a null in meta's lists of strings is '' as Go decodes it; __proto__ outside prebid stays an own key; the bidder's ext is not changed", () => {
    const own = JSON.parse('{"__proto__":{"x":1},"prebid":{"meta":{"secondaryCatIds":[null,"IAB1"]},"targeting":{"hb_pb":"9"}}}') as Record<string, unknown>;
    const before = JSON.stringify(own);
    const ext = answerBidExt(auctionBid(own), undefined, undefined);
    assert.deepEqual(Object.getPrototypeOf(ext), Object.prototype);
    assert.ok(Object.hasOwn(ext, '__proto__'));
    assert.deepEqual((ext.prebid as Record<string, unknown>).meta, { secondaryCatIds: ['', 'IAB1'] });
    assert.equal(JSON.stringify(own), before);
  });

  it('an ext.prebid that is not an object is replaced; no ext gives the exchange\'s alone', () => {
    assert.deepEqual(answerBidExt(auctionBid({ prebid: 'x', y: 1 }), undefined, undefined), { y: 1, prebid: { type: 'banner' }, origbidcpm: 2.5, origbidcur: 'EUR' });
    assert.deepEqual(answerBidExt(auctionBid(null), undefined, undefined), { prebid: { type: 'banner' }, origbidcpm: 2.5, origbidcur: 'EUR' });
  });
});

describe('bidExtProblem', () => {
  it('takes an absent or null ext, any object, a non-object prebid, and a meta that reads as Go reads it', () => {
    for (const ext of [undefined, null, {}, { prebid: 3 }, { prebid: { meta: null } }, { prebid: { meta: { brandId: 3, dchain: 'anything', unknown: [1] } } }]) {
      assert.equal(bidExtProblem(ext), undefined, JSON.stringify(ext));
    }
  });

  it('names what makes the bid unusable: an ext that is no object, a meta or meta member of the wrong type', () => {
    const cases: [unknown, string][] = [
      ['text', 'ext is not a JSON object'],
      [[1], 'ext is not a JSON object'],
      [{ prebid: { meta: 'm' } }, 'ext.prebid.meta is not an object'],
      [{ prebid: { meta: { advertiserDomains: 'a.example' } } }, 'ext.prebid.meta.advertiserDomains is not an array of strings'],
      [{ prebid: { meta: { brandId: '7' } } }, 'ext.prebid.meta.brandId is not an integer'],
      [{ prebid: { meta: { networkName: 5 } } }, 'ext.prebid.meta.networkName is not a string'],
    ];
    for (const [ext, message] of cases) assert.equal(bidExtProblem(ext), message, JSON.stringify(ext));
  });
});
