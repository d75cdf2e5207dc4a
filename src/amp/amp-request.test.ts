import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAmpQuery } from './amp-query.js';
import { ampFormats, ampTmaxLimit, buildAmpRequest } from './amp-request.js';
import type { BidRequest } from '../openrtb/types.js';

const query = (params: Record<string, string>) => readAmpQuery((name) => params[name]);
const stored = [{ w: 300, h: 250 }, { w: 320, h: 50 }];

describe('readAmpQuery', () => {
  it('reads every parameter, preferring consent_string to gdpr_consent', () => {
    const { query: q, warnings } = query({ tag_id: 't', w: '300', h: '250', ow: '1', oh: '2', ms: '1x2, 3x4', curl: 'https://a.example/', slot: 's', timeout: '500', targeting: '{}', gdpr_consent: 'old', consent_string: 'new', consent_type: '2', gdpr_applies: 'true', addtl_consent: '1~2', account: 'acc', debug: '1' });
    assert.deepEqual(warnings, []);
    assert.deepEqual(q, {
      tagId: 't', account: 'acc', width: 300, height: 250, overrideWidth: 1, overrideHeight: 2, multiSize: [{ w: 1, h: 2 }, { w: 3, h: 4 }], curl: 'https://a.example/', slot: 's', timeoutMs: 500, targeting: '{}',
      consent: 'new', consentType: '2', gdprApplies: 'true', additionalConsent: '1~2', debug: true,
    });
  });
  it('drops values that do not parse, with a warning each', () => {
    const { query: q, warnings } = query({ w: 'wide', h: '-1', ms: '300x250,x', timeout: '1.5' });
    assert.deepEqual([q.width, q.height, q.timeoutMs, q.multiSize], [undefined, undefined, undefined, []]);
    assert.equal(warnings.length, 4);
  });
});

describe('ampFormats', () => {
  const f = (params: Record<string, string>) => ampFormats(stored, query(params).query);
  it('applies the size rules in order, ms appended', () => {
    assert.deepEqual(f({ ow: '1', oh: '2', w: '3', h: '4' }), [{ w: 1, h: 2 }]);
    assert.deepEqual(f({ ow: '1', h: '4', w: '3' }), [{ w: 1, h: 4 }]);
    assert.deepEqual(f({ oh: '2', w: '3', h: '4' }), [{ w: 3, h: 2 }]);
    assert.deepEqual(f({ w: '3', h: '4', ms: '5x6' }), [{ w: 3, h: 4 }, { w: 5, h: 6 }]);
    assert.deepEqual(f({ ms: '5x6' }), [{ w: 5, h: 6 }]);
    assert.deepEqual(f({ w: '7' }), [{ w: 7, h: 250 }, { w: 7, h: 50 }]);
    assert.deepEqual(f({ h: '8' }), [{ w: 300, h: 8 }, { w: 320, h: 8 }]);
    assert.deepEqual(f({}), stored);
    assert.equal(ampFormats(undefined, query({ w: '7' }).query), undefined);
  });
});

describe('buildAmpRequest', () => {
  const base: BidRequest = { id: '{{UUID}}', site: { page: 'p' }, imp: [{ id: 'i', banner: { format: stored } }], ext: { prebid: { targeting: { pricegranularity: 'high' } } } };
  it('replaces {{UUID}}, sets secure, AMP targeting and caching, and leaves the stored request alone', () => {
    const before = structuredClone(base);
    const { request } = buildAmpRequest(base, query({}).query, () => 'fresh');
    assert.equal(request.id, 'fresh');
    assert.equal(request.imp[0]!.secure, 1);
    assert.deepEqual(request.ext?.prebid, { targeting: { pricegranularity: 'high', includewinners: true, includebidderkeys: true }, cache: { bids: {} }, channel: { name: 'amp' } });
    assert.deepEqual(base, before);
  });
  it('an explicit false of the stored targeting switches and a stored cache setting are kept; site.ext.amp is 1', () => {
    const stored: BidRequest = { ...base, site: { page: 'p', ext: { other: 'x' } }, ext: { prebid: { targeting: { includewinners: false, includebidderkeys: false }, cache: { bids: { returnCreative: false } } } } };
    const { request } = buildAmpRequest(stored, query({}).query, () => 'fresh');
    assert.deepEqual(request.ext?.prebid?.targeting, { includewinners: false, includebidderkeys: false });
    assert.deepEqual(request.ext?.prebid?.cache, { bids: { returnCreative: false } });
    assert.deepEqual(request.site?.ext, { other: 'x', amp: 1 });
    const noSite = buildAmpRequest({ ...base, site: undefined }, query({}).query, () => 'fresh').request;
    assert.deepEqual(noSite.site, { ext: { amp: 1 } });
  });
  it('tmax is bounded by the smaller of the page timeout and the AMP default', () => {
    assert.equal(ampTmaxLimit(query({ timeout: '300' }).query, 1000), 300);
    assert.equal(ampTmaxLimit(query({ timeout: '3000' }).query, 1000), 1000);
    assert.equal(ampTmaxLimit(query({}).query, 1000), 1000);
  });
});
