import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bidAdjustmentFactorProblems, currencyProblems, priceGranularityProblem, targetingGranularityProblems } from './validate-prices.js';
import { validateBidRequest } from './validate-request.js';

const imp = { id: 'i1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { a: {} } } } };
const withPrebid = (prebid: unknown): unknown => ({ id: 'r', site: { page: 'p' }, imp: [imp], ext: { prebid } });

describe('bidAdjustmentFactorProblems', () => {
  it('accepts positive finite factors, however large or small', () => {
    assert.deepEqual(bidAdjustmentFactorProblems(JSON.parse('{"a": 0.5, "b": 1.7e308, "c": 5e-324, "__proto__": 1}')), []);
    assert.deepEqual(bidAdjustmentFactorProblems(undefined), []);
  });

  it("names every factor that is not a positive number, with Prebid Server's message", () => {
    assert.deepEqual(bidAdjustmentFactorProblems(JSON.parse('{"a": -2, "b": 0, "c": "1", "d": null, "e": 1e999, "__proto__": -1}')), [
      'request.ext.prebid.bidadjustmentfactors.a must be a positive number. Got -2.000000',
      'request.ext.prebid.bidadjustmentfactors.b must be a positive number. Got 0.000000',
      'request.ext.prebid.bidadjustmentfactors.c must be a positive number. Got "1"',
      'request.ext.prebid.bidadjustmentfactors.d must be a positive number. Got null',
      'request.ext.prebid.bidadjustmentfactors.e must be a positive number. Got Infinity',
      'request.ext.prebid.bidadjustmentfactors.__proto__ must be a positive number. Got -1.000000',
    ]);
    assert.deepEqual(bidAdjustmentFactorProblems([1]), ['request.ext.prebid.bidadjustmentfactors must be a JSON object']);
  });

  it('lists 20 problems of a map and counts the rest', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`b${i}`, -1]));
    const problems = bidAdjustmentFactorProblems(many);
    assert.equal(problems.length, 21);
    assert.equal(problems[20], 'request.ext.prebid.bidadjustmentfactors: 480 more problems not listed');
  });
});

describe('currencyProblems', () => {
  it('accepts positive finite rates, any case of code, and a boolean usepbsrates', () => {
    assert.deepEqual(currencyProblems({ rates: { USD: { EUR: 0.9, gbp: 1e-320 } }, usepbsrates: false }), []);
    assert.deepEqual(currencyProblems({}), []);
  });

  it('rejects rates that are not positive finite numbers, malformed codes and a non-boolean usepbsrates', () => {
    assert.deepEqual(currencyProblems(JSON.parse('{"usepbsrates": "yes", "rates": {"USD": {"EUR": 0, "GBP": -1, "JPY": 1e999, "CHF": "2"}, "DOLLAR": {"EUR": 1}, "EUR": 3}}')), [
      'request.ext.prebid.currency.usepbsrates must be true or false. Got "yes"',
      'request.ext.prebid.currency.rates.USD.EUR must be a positive number. Got 0.000000',
      'request.ext.prebid.currency.rates.USD.GBP must be a positive number. Got -1.000000',
      'request.ext.prebid.currency.rates.USD.JPY must be a positive number. Got Infinity',
      'request.ext.prebid.currency.rates.USD.CHF must be a positive number. Got "2"',
      'currency code DOLLAR is not recognized or malformed',
      'request.ext.prebid.currency.rates.EUR must be a JSON object',
    ]);
    assert.deepEqual(currencyProblems({ usepbsrates: 1 }), ['request.ext.prebid.currency.usepbsrates must be true or false. Got 1.000000']);
    assert.deepEqual(currencyProblems({ rates: [] }), ['request.ext.prebid.currency.rates must be a JSON object']);
    assert.deepEqual(currencyProblems('USD'), ['request.ext.prebid.currency must be a JSON object']);
  });
});

describe('priceGranularityProblem', () => {
  const at = 'request.ext.prebid.targeting.pricegranularity';

  it('accepts the names, and custom ranges with or without precision, min or ranges', () => {
    for (const name of ['low', 'medium', 'med', 'high', 'auto', 'dense']) assert.equal(priceGranularityProblem(name, at), undefined);
    assert.equal(priceGranularityProblem({ precision: 0, ranges: [{ max: 5, increment: 1 }, { min: 99, max: 10, increment: 2 }] }, at), undefined);
    assert.equal(priceGranularityProblem({ precision: 15 }, at), undefined);
    assert.equal(priceGranularityProblem({ ranges: [] }, at), undefined);
  });

  it("answers Prebid Server's messages, naming where", () => {
    const cases: [unknown, string][] = [
      [{ ranges: [{ max: 5, increment: 0 }] }, `Price granularity error: increment must be a nonzero positive number (${at}.ranges[0].increment)`],
      [{ ranges: [{ max: 5, increment: -0.1 }] }, `Price granularity error: increment must be a nonzero positive number (${at}.ranges[0].increment)`],
      [{ ranges: [{ max: 10, increment: 1 }, { max: 5, increment: 1 }] }, `Price granularity error: range list must be ordered with increasing "max" (${at}.ranges[1].max)`],
      [{ ranges: [{ max: 5, increment: 1 }, { max: 5, increment: 1 }] }, `Price granularity error: range list must be ordered with increasing "max" (${at}.ranges[1].max)`],
      [{ ranges: [{ max: 0, increment: 1 }] }, `Price granularity error: range list must be ordered with increasing "max" (${at}.ranges[0].max)`],
      [{ precision: -1, ranges: [{ max: 5, increment: 1 }] }, `Price granularity error: precision must be non-negative (${at}.precision)`],
      [{ precision: 16, ranges: [{ max: 5, increment: 1 }] }, `Price granularity error: precision of more than 15 significant figures is not supported (${at}.precision)`],
    ];
    for (const [setting, message] of cases) assert.equal(priceGranularityProblem(setting, at), message, JSON.stringify(setting));
  });

  it('names values of the wrong type', () => {
    const cases: [unknown, string][] = [
      ['bogus', `${at} must be one of low, medium, med, high, auto, dense, or an object with "precision" and "ranges". Got "bogus"`],
      [3, `${at} must be one of low, medium, med, high, auto, dense, or an object with "precision" and "ranges". Got 3.000000`],
      [{ precision: 2.5 }, `${at}.precision must be an integer. Got 2.500000`],
      [{ ranges: {} }, `${at}.ranges must be an array`],
      [{ ranges: [7] }, `${at}.ranges[0] must be a JSON object`],
      [{ ranges: [{ max: '5', increment: 1 }] }, `${at}.ranges[0].max must be a number. Got "5"`],
      [{ ranges: [{ max: 5 }] }, `${at}.ranges[0].increment must be a number. Got undefined`],
      [{ ranges: [{ max: Infinity, increment: 1 }] }, `${at}.ranges[0].max must be a number. Got Infinity`],
      [{ ranges: [{ min: 'a', max: 5, increment: 1 }] }, `${at}.ranges[0].min must be a number. Got "a"`],
    ];
    for (const [setting, message] of cases) assert.equal(priceGranularityProblem(setting, at), message, JSON.stringify(setting));
  });
});

describe('targetingGranularityProblems', () => {
  it('checks pricegranularity and each of mediatypepricegranularity.banner, video and native', () => {
    const bad = { ranges: [{ max: 5, increment: 0 }] };
    assert.deepEqual(targetingGranularityProblems({ pricegranularity: bad, mediatypepricegranularity: { banner: 'low', video: bad, native: bad, audio: bad } }), [
      'Price granularity error: increment must be a nonzero positive number (request.ext.prebid.targeting.pricegranularity.ranges[0].increment)',
      'Price granularity error: increment must be a nonzero positive number (request.ext.prebid.targeting.mediatypepricegranularity.video.ranges[0].increment)',
      'Price granularity error: increment must be a nonzero positive number (request.ext.prebid.targeting.mediatypepricegranularity.native.ranges[0].increment)',
    ]);
    assert.deepEqual(targetingGranularityProblems({ mediatypepricegranularity: 'low' }), ['request.ext.prebid.targeting.mediatypepricegranularity must be a JSON object']);
    assert.deepEqual(targetingGranularityProblems({ includewinners: true }), []);
  });
});

describe('validateBidRequest and the price settings', () => {
  it('names the price settings among the problems of the request', () => {
    assert.deepEqual(validateBidRequest(withPrebid({ bidadjustmentfactors: { a: -2 }, currency: { rates: { USD: { EUR: 0 } }, usepbsrates: 'no' }, targeting: { pricegranularity: { ranges: [{ max: 5, increment: 0 }] } } })), [
      'request.ext.prebid.bidadjustmentfactors.a must be a positive number. Got -2.000000',
      'request.ext.prebid.currency.usepbsrates must be true or false. Got "no"',
      'request.ext.prebid.currency.rates.USD.EUR must be a positive number. Got 0.000000',
      'Price granularity error: increment must be a nonzero positive number (request.ext.prebid.targeting.pricegranularity.ranges[0].increment)',
    ]);
    assert.deepEqual(validateBidRequest(withPrebid({ bidadjustmentfactors: { a: 1.7e308 }, currency: { rates: { USD: { EUR: 1e-320 } } }, targeting: { pricegranularity: 'dense' } })), []);
  });
});
