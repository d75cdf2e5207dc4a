import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCurrencyConverter } from './currency.js';

describe('createCurrencyConverter', () => {
  it('prefers the request rates, then the server rates unless usepbsrates is false', () => {
    const serverRates = { USD: { EUR: 0.5 } };
    assert.equal(createCurrencyConverter({ requestRates: { usd: { eur: 0.8 } }, serverRates }).convert(10, 'USD', 'EUR'), 8);
    assert.equal(createCurrencyConverter({ requestRates: { GBP: { EUR: 1.2 } }, serverRates }).convert(10, 'USD', 'EUR'), 5);
    assert.throws(() => createCurrencyConverter({ requestRates: { GBP: { EUR: 1.2 } }, serverRates, usePbsRates: false }).convert(10, 'USD', 'EUR'), /rate not found: 'USD' => 'EUR'/);
  });

  it('never answers by a rate that is Infinity or 0: the inverse of 1e-320 is no rate', () => {
    const tiny = { EUR: { USD: 1e-320 } };
    assert.throws(() => createCurrencyConverter({ requestRates: tiny }).convert(1, 'USD', 'EUR'), /Currency conversion rate not found: 'USD' => 'EUR'/);
    // The direct rate still converts the other way.
    assert.equal(createCurrencyConverter({ requestRates: tiny }).convert(1e300, 'EUR', 'USD'), 1e300 * 1e-320);
    // The next table answers when the first has no usable rate.
    assert.equal(createCurrencyConverter({ requestRates: tiny, serverRates: { USD: { EUR: 0.9 } } }).convert(10, 'USD', 'EUR'), 9);
  });

  it('never answers a cross rate that overflows or underflows', () => {
    const apart = { GBP: { USD: 1e-300, EUR: 1e300 } };
    assert.throws(() => createCurrencyConverter({ requestRates: apart }).convert(1, 'USD', 'EUR'), /rate not found/);
    assert.throws(() => createCurrencyConverter({ requestRates: apart }).convert(1, 'EUR', 'USD'), /rate not found/);
  });

  it('can still give a price of Infinity or 0 from a finite rate: the bidder call checks the price', () => {
    const c = createCurrencyConverter({ requestRates: { USD: { EUR: 1e300, JPY: 1e-300 } } });
    assert.equal(c.convert(1e10, 'USD', 'EUR'), Infinity);
    assert.equal(c.convert(1e-30, 'USD', 'JPY'), 0);
  });
});
