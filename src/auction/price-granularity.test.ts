import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PriceGranularitySetting } from '../openrtb/types.js';
import { priceBucket, resolvePriceGranularity } from './price-granularity.js';

const medium = resolvePriceGranularity('medium').granularity!;

describe('resolvePriceGranularity', () => {
  it('starts each range at the previous max whatever its min says, as Prebid Server does', () => {
    const setting: PriceGranularitySetting = { precision: 2, ranges: [{ min: 1, max: 5, increment: 1 }, { min: 7, max: 10, increment: 0.5 }] };
    const g = resolvePriceGranularity(setting).granularity!;
    assert.deepEqual(g.ranges, [{ min: 0, max: 5, increment: 1 }, { min: 5, max: 10, increment: 0.5 }]);
    assert.equal(priceBucket(0.5, g), '0.00');
    assert.equal(priceBucket(3.7, g), '3.00');
    assert.equal(priceBucket(6.2, g), '6.00');
    assert.equal(priceBucket(6.7, g), '6.50');
  });

  it('is medium without ranges, with precision 2 when absent', () => {
    assert.deepEqual(resolvePriceGranularity({ ranges: [] }).granularity, medium);
    assert.deepEqual(resolvePriceGranularity({ precision: 4 }).granularity, medium);
    assert.equal(resolvePriceGranularity({ ranges: [{ max: 5, increment: 1 }] }).granularity!.precision, 2);
    assert.deepEqual(resolvePriceGranularity(undefined).granularity, medium);
  });

  it("gives Prebid Server's message, naming where, for a setting it rejects", () => {
    assert.deepEqual(resolvePriceGranularity({ ranges: [{ max: 10, increment: 1 }, { max: 5, increment: 1 }] }, 'account a price_granularity'), {
      error: 'Price granularity error: range list must be ordered with increasing "max" (account a price_granularity.ranges[1].max)',
    });
    assert.equal(resolvePriceGranularity('constructor' as PriceGranularitySetting).granularity, undefined);
  });
});
