import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCurrencyConverter } from './currency.js';
import { isStale, parseRatesDocument } from './currency-rates.js';

const doc = (conversions: unknown, extra: Record<string, unknown> = {}): string => JSON.stringify({ dataAsOf: '2024-03-01', generatedAt: '2024-03-02T04:05:06.000Z', conversions, ...extra });

describe('parseRatesDocument', () => {
  it('reads Prebid’s currency file: conversions with upper-case codes, and its dates', () => {
    const parsed = parseRatesDocument(doc({ USD: { EUR: 0.9, gbp: 0.8 }, eur: { USD: 1.1 } }));
    assert.deepEqual(parsed.rates, { USD: { EUR: 0.9, GBP: 0.8 }, EUR: { USD: 1.1 } });
    assert.equal(parsed.dataAsOf, '2024-03-01');
    assert.equal(parsed.generatedAt, '2024-03-02T04:05:06.000Z');
    assert.ok(Object.isFrozen(parsed.rates) && Object.isFrozen(parsed.rates.USD), 'shared by every auction: must not be changed');
  });

  it('needs no dates (they are informational)', () => {
    const parsed = parseRatesDocument(JSON.stringify({ conversions: { USD: { EUR: 0.9 } } }));
    assert.equal(parsed.dataAsOf, undefined);
    assert.deepEqual(parsed.rates, { USD: { EUR: 0.9 } });
  });

  const refused: readonly [string, string, RegExp][] = [
    ['text that is not JSON', '{"conversions": {"USD": ', /not JSON/],
    ['an array', '[]', /must be a JSON object/],
    ['no conversions', '{"dataAsOf": "2024-03-01"}', /conversions must be an object/],
    ['conversions as an array', doc([{ USD: { EUR: 1 } }]), /conversions must be an object/],
    ['a code that is not three letters', doc({ US: { EUR: 0.9 } }), /'US' is not a three-letter/],
    ['an inner code that is not three letters', doc({ USD: { 'EUR ': 0.9 } }), /'EUR ' is not a three-letter/],
    ['quotes that are not an object', doc({ USD: 0.9 }), /conversions\.USD must be an object/],
    ['a rate of 0', doc({ USD: { EUR: 0 } }), /conversions\.USD\.EUR must be a positive number, got 0/],
    ['a negative rate', doc({ USD: { EUR: -1 } }), /positive number/],
    ['a rate as a string', doc({ USD: { EUR: '0.9' } }), /positive number, got "0.9"/],
    ['a null rate', doc({ USD: { EUR: null } }), /positive number, got null/],
    ['no rate at all', doc({ USD: {} }), /no rate/],
  ];
  for (const [what, text, message] of refused) {
    it(`refuses ${what}`, () => assert.throws(() => parseRatesDocument(text), message));
  }

  it('gives the converter what it needs: direct, inverse and through a base currency', () => {
    const { rates } = parseRatesDocument(doc({ USD: { EUR: 0.8, JPY: 150 } }));
    const c = createCurrencyConverter({ serverRates: rates });
    assert.equal(c.convert(10, 'usd', 'eur'), 8);
    assert.equal(c.convert(8, 'EUR', 'USD'), 10);
    assert.ok(Math.abs(c.convert(150, 'JPY', 'EUR') - 0.8) < 1e-12);
    assert.throws(() => c.convert(1, 'GBP', 'USD'), /Currency conversion rate not found: 'GBP' => 'USD'/);
  });
});

describe('isStale', () => {
  it('counts from the last good load, to the millisecond', () => {
    assert.equal(isStale(1000, 1000 + 5000, 5000), false);
    assert.equal(isStale(1000, 1000 + 5001, 5000), true);
  });
  it('never, with 0', () => assert.equal(isStale(0, Number.MAX_SAFE_INTEGER, 0), false));
});
