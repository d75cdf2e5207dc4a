import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TypedBid } from '../bidders/adapter.js';
import type { Imp } from '../openrtb/types.js';
import { invalidBidReason, invalidPricedBidReason } from './bid-validation.js';

const imps = new Map<string, Imp>([['i1', { id: 'i1', banner: { w: 300, h: 250 } }]]);
const typed = (bid: Record<string, unknown>): TypedBid => ({ bid: { id: 'b1', impid: 'i1', crid: 'c', ...bid } as TypedBid['bid'], type: 'banner' });

describe('invalidBidReason', () => {
  it('takes a positive price, or 0 with a deal', () => {
    assert.equal(invalidBidReason(typed({ price: 1 }), imps), undefined);
    assert.equal(invalidBidReason(typed({ price: 0, dealid: 'd' }), imps), undefined);
    for (const price of [0, -1, Infinity, NaN, '1']) {
      assert.equal(invalidBidReason(typed({ price }), imps), `Bid "b1" does not contain a positive (or zero if there is a deal) 'price'`, String(price));
    }
  });

  it("refuses an ext the answer cannot carry, as Prebid Server's exchange does: not an object, or a meta Go would not read", () => {
    assert.equal(invalidBidReason(typed({ price: 1, ext: { prebid: { meta: { brandId: 7 }, targeting: { hb_pb: '99.00' } } } }), imps), undefined);
    assert.equal(invalidBidReason(typed({ price: 1, ext: 'x' }), imps), 'Bid "b1": ext is not a JSON object');
    assert.equal(invalidBidReason(typed({ price: 1, ext: { prebid: { meta: { brandId: '7' } } } }), imps), 'Bid "b1": ext.prebid.meta.brandId is not an integer');
  });
});

describe('invalidPricedBidReason', () => {
  it('takes a converted and adjusted price that is positive and finite, or 0 with a deal', () => {
    assert.equal(invalidPricedBidReason({ id: 'b1', price: 5e-324 }, 'EUR'), undefined);
    assert.equal(invalidPricedBidReason({ id: 'b1', price: 1.7e308 }, 'EUR'), undefined);
    assert.equal(invalidPricedBidReason({ id: 'b1', price: 0, dealid: 'd' }, 'EUR'), undefined);
  });

  it('names the bid, the currency and the price it came to otherwise', () => {
    const cases: [number, string | undefined, string][] = [
      [Infinity, undefined, 'Infinity'],
      [-Infinity, 'd', '-Infinity'],
      [NaN, undefined, 'NaN'],
      [0, undefined, '0'],
      [-3, undefined, '-3'],
      [-3, 'd', '-3'],
    ];
    for (const [price, dealid, shown] of cases) {
      assert.equal(
        invalidPricedBidReason({ id: 'b1', price, ...(dealid !== undefined ? { dealid } : {}) }, 'EUR'),
        `Bid "b1" does not contain a positive (or zero if there is a deal) 'price' once converted to EUR and adjusted (${shown})`,
      );
    }
  });
});
