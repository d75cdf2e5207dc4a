import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GppDecoded } from '../privacy/gpp.js';
import { parseGppSids, readSetuidGdpr } from './setuid-consent.js';

// Prebid Server's TestExtractGDPRInfo cases, with a GPP decoder stub: `tcf` carries a TCF EU
// section, `usp` does not, anything else does not decode.
const decodeGpp = (text: string): GppDecoded => {
  if (text === 'tcf') return { gpp: { sectionIds: [2], tcfEu: 'GPP-TCF', us: new Map() } };
  if (text === 'usp') return { gpp: { sectionIds: [6], usPrivacy: '1YNN', us: new Map() } };
  return { error: 'bad header' };
};
const read = (query: string) => {
  const p = new URLSearchParams(query);
  return readSetuidGdpr((n) => p.get(n) ?? undefined, decodeGpp);
};

describe('parseGppSids', () => {
  it('reads Go int8 lists and refuses anything else', () => {
    assert.deepEqual(parseGppSids(''), []);
    assert.deepEqual(parseGppSids('2,4'), [2, 4]);
    assert.deepEqual(parseGppSids('-128,+127'), [-128, 127]);
    for (const bad of ['malformed', '2, 4', '2,', '128', '-129', '1.5', ',']) assert.equal(parseGppSids(bad), undefined, bad);
  });
});

describe('readSetuidGdpr', () => {
  const cases: [string, ReturnType<typeof read>][] = [
    ['', { gdpr: undefined, consent: '' }],
    ['gdpr=2', { error: 'the gdpr query param must be either 0 or 1. You gave 2' }],
    ['gdpr=0', { gdpr: 0, consent: '' }],
    ['gdpr=1', { error: 'GDPR consent is required when gdpr signal equals 1' }],
    ['gdpr=0&gdpr_consent=c', { gdpr: 0, consent: 'c' }],
    ['gdpr=1&gdpr_consent=c', { gdpr: 1, consent: 'c' }],
    ['gpp=malformed&gpp_sid=2', { error: 'error parsing GPP string: bad header' }],
    ['gpp=usp', { gdpr: undefined, consent: '' }],
    ['gpp_sid=3,6', { gdpr: 0, consent: '' }],
    ['gpp_sid=2', { error: 'GDPR consent is required when gdpr signal equals 1' }],
    ['gpp=usp&gpp_sid=2', { error: 'GDPR consent is required when gdpr signal equals 1' }],
    ['gpp=tcf', { gdpr: undefined, consent: 'GPP-TCF' }],
    ['gpp=tcf&gpp_sid=6', { gdpr: 0, consent: 'GPP-TCF' }],
    ['gpp=tcf&gpp_sid=2,4', { gdpr: 1, consent: 'GPP-TCF' }],
    // GPP prevails over the legacy fields, even a gdpr that is not 0 or 1.
    ['gpp=tcf&gpp_sid=2,4&gdpr=0&gdpr_consent=legacy', { gdpr: 1, consent: 'GPP-TCF' }],
    ['gpp_sid=6&gdpr=2', { gdpr: 0, consent: '' }],
    // A GPP signal without a GPP consent leaves the legacy consent unused (as Prebid Server).
    ['gpp_sid=2,4&gdpr_consent=legacy', { error: 'GDPR consent is required when gdpr signal equals 1' }],
    ['gpp=usp&gpp_sid=2&gdpr=0&gdpr_consent=legacy', { error: 'GDPR consent is required when gdpr signal equals 1' }],
    ['gpp=tcf&gdpr=1&gdpr_consent=legacy', { gdpr: undefined, consent: 'GPP-TCF' }],
    ['gpp=tcf&gpp_sid=6&gdpr=1&gdpr_consent=legacy', { gdpr: 0, consent: 'GPP-TCF' }],
    ['gpp=usp&gpp_sid=6&gdpr=1&gdpr_consent=legacy', { gdpr: 0, consent: '' }],
  ];
  for (const [query, expected] of cases) it(query === '' ? '(nothing)' : query, () => assert.deepEqual(read(query), expected));
});
