import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TCString } from '@iabtechlabtcf/core';
import { craftedTcf, tcfString, writtenTcf } from '../../test/support/consent-strings.js';
import type { WrittenTcf, WrittenVendors } from '../../test/support/consent-strings.js';
import { prng } from '../../test/support/prng.js';
import { createTcfDecoder, decodeTcfString } from './tcf-consent.js';
import type { TcfConsent } from './tcf-consent.js';

const consentOf = (text: string): TcfConsent => {
  const d = decodeTcfString(text);
  assert.ok('consent' in d, `decodes: ${'error' in d ? d.error : ''}`);
  return d.consent;
};

/** A random TCF v2 core segment: small ids, so that the IAB's decoder (which expands ranges) stays quick. */
const randomTcf = (random: () => number): WrittenTcf => {
  const pick = (n: number, max: number) => Array.from({ length: n }, () => 1 + Math.floor(random() * max));
  const entries = (n: number, max: number) =>
    Array.from({ length: n }, () => {
      const start = 1 + Math.floor(random() * max);
      return random() < 0.5 ? start : ([start, start + Math.floor(random() * 40)] as const);
    });
  const vendors = (): WrittenVendors => {
    const maxId = Math.floor(random() * 300);
    return random() < 0.5 ? { maxId, bitField: pick(Math.floor(random() * 50), Math.max(1, maxId)) } : { maxId, entries: entries(Math.floor(random() * 12), 300) };
  };
  return {
    vendorListVersion: 1 + Math.floor(random() * 4000),
    purposes: pick(8, 24),
    purposeLi: pick(8, 24),
    specialFeatures: pick(3, 12),
    vendors: vendors(),
    vendorLi: vendors(),
    restrictions: Array.from({ length: Math.floor(random() * 6) }, () => ({ purpose: 1 + Math.floor(random() * 11), type: Math.floor(random() * 3), entries: entries(1 + Math.floor(random() * 5), 300) })),
  };
};

describe('TCF v2 decoding (linear in the string)', () => {
  it('reads every field as the IAB decoder does, on 300 random strings', () => {
    const random = prng(36);
    for (let n = 0; n < 300; n++) {
      const text = writtenTcf(randomTcf(random));
      const iab = TCString.decode(text);
      const ours = consentOf(text);
      assert.equal(ours.vendorListVersion, iab.vendorListVersion, text);
      for (let p = 0; p <= 25; p++) {
        assert.equal(ours.purposeConsent(p), iab.purposeConsents.has(p), `${text} purpose ${p}`);
        assert.equal(ours.purposeLegitimateInterest(p), iab.purposeLegitimateInterests.has(p), `${text} purpose LI ${p}`);
      }
      for (let f = 0; f <= 13; f++) assert.equal(ours.specialFeatureOptIn(f), iab.specialFeatureOptins.has(f), `${text} feature ${f}`);
      for (let v = 0; v <= 400; v++) {
        assert.equal(ours.vendorConsent(v), iab.vendorConsents.has(v), `${text} vendor ${v}`);
        assert.equal(ours.vendorLegitimateInterest(v), iab.vendorLegitimateInterests.has(v), `${text} vendor LI ${v}`);
        // (The IAB's getRestrictionType reads vendor 0 as "any vendor"; no bidder has GVL id 0.)
        if (v > 0) for (let p = 1; p <= 11; p++) assert.equal(ours.restriction(p, v), iab.publisherRestrictions.getRestrictionType(v, p), `${text} restriction ${p}/${v}`);
      }
    }
  });

  it("reads the IAB encoder's own strings (bit fields, ranges, restrictions)", () => {
    // Vendor 30 declares purpose 2 flexible, on consent: a publisher may require legitimate interest for it.
    const text = tcfString({ purposes: [1, 2, 4], purposeLi: [7], vendors: [10, 30], vendorLi: [20], specialFeatures: [1], restrictions: [{ vendor: 30, purpose: 2, type: 2 }] });
    const c = consentOf(text);
    assert.deepEqual([c.purposeConsent(1), c.purposeConsent(3), c.purposeLegitimateInterest(7), c.specialFeatureOptIn(1), c.specialFeatureOptIn(2)], [true, false, true, true, false]);
    assert.deepEqual([c.vendorConsent(10), c.vendorConsent(20), c.vendorConsent(30), c.vendorLegitimateInterest(20)], [true, false, true, true]);
    assert.deepEqual([c.restriction(2, 30), c.restriction(2, 10), c.restriction(1, 30)], [2, undefined, undefined]);
  });

  it('of several restrictions of a purpose for a vendor, the one Prebid Server checks first wins (not allowed, consent, LI)', () => {
    const base = { vendors: { maxId: 0, bitField: [] }, vendorLi: { maxId: 0, bitField: [] } };
    const c = consentOf(writtenTcf({ ...base, restrictions: [{ purpose: 2, type: 2, entries: [[1, 100]] }, { purpose: 2, type: 0, entries: [50] }, { purpose: 2, type: 1, entries: [[40, 60]] }] }));
    assert.deepEqual([c.restriction(2, 1), c.restriction(2, 50), c.restriction(2, 45), c.restriction(2, 101)], [2, 0, 1, undefined]);
  });

  it('a crafted string of 16 KiB (thousands of restriction ranges over every vendor) decodes in under 20 ms of CPU', () => {
    const text = craftedTcf(16384);
    for (let i = 0; i < 3; i++) decodeTcfString(text); // warm up
    const costs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const before = process.cpuUsage();
      const d = decodeTcfString(text);
      const used = process.cpuUsage(before);
      costs.push((used.user + used.system) / 1000);
      assert.ok('consent' in d && d.consent.restriction(1, 65535) === 0 && d.consent.vendorConsent(65535), 'it is valid, and its ranges cover every vendor');
      assert.ok(d.bytes < 64 * 1024, `what it holds is small: ${d.bytes} bytes`);
    }
    costs.sort((a, b) => a - b);
    assert.ok(costs[2]! < 20, `median CPU ${costs[2]!.toFixed(2)} ms`);
  });

  it('what does not decode says why in our words, never throws, and never quotes a library', () => {
    const valid = tcfString({ purposes: [1, 2], vendors: [10], restrictions: [{ vendor: 30, purpose: 2, type: 1 }] });
    const base = { vendors: { maxId: 10, bitField: [1] }, vendorLi: { maxId: 0, bitField: [] }, restrictions: [] };
    const cases: [string, string][] = [
      ['', 'it is not base64url'],
      ['CPgarbage!!', 'it is not base64url'],
      ['BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA', 'version 1 is not TCF v2'],
      [valid.slice(0, 20), 'it ends within its header'],
      [writtenTcf({ ...base, vendors: { maxId: 10, entries: [[5, 3]] } }), 'its vendor consents has a range that ends before it starts'],
      [writtenTcf({ ...base, vendors: { maxId: 10, entries: [0] } }), 'its vendor consents names vendor 0'],
      [writtenTcf({ ...base, restrictions: [{ purpose: 0, type: 0, entries: [] }] }), 'its publisher restrictions name purpose 0'],
      [writtenTcf({ ...base, restrictions: [{ purpose: 1, type: 3, entries: [] }] }), 'its publisher restrictions use type 3, which TCF does not define'],
    ];
    for (const [text, error] of cases) assert.deepEqual(decodeTcfString(text), { error }, text);
    // Every truncation and single-character change of a valid string: an answer, and only our words.
    const ours = /^(it is not base64url|it ends (within|before) .+|version \d+ is not TCF v2|its .+ (names vendor 0|has a range that ends before it starts)|its publisher restrictions (name purpose 0|use type 3, which TCF does not define))$/;
    const random = prng(6);
    for (let n = 0; n < 2000; n++) {
      const cut = valid.slice(0, Math.floor(random() * valid.length));
      const at = Math.floor(random() * valid.length);
      const changed = valid.slice(0, at) + 'AZaz09-_.!'[Math.floor(random() * 10)] + valid.slice(at + 1);
      for (const text of [cut, changed]) {
        const d = decodeTcfString(text);
        if ('error' in d) assert.match(d.error, ours, text);
      }
    }
  });

  it('segments after the core are not read, as Prebid Server reads none (the IAB decoder failed on unknown ones)', () => {
    const text = `${tcfString({ purposes: [1], vendors: [10] })}.zzzz`;
    assert.throws(() => TCString.decode(text));
    assert.equal(consentOf(text).vendorConsent(10), true);
  });
});

describe('createTcfDecoder', () => {
  it('a string over maxLength is invalid without being read; at maxLength it decodes', () => {
    const decode = createTcfDecoder({ maxLength: 300 });
    const valid = tcfString({ vendors: [10] });
    // Trailing zero bits ('A') after the last section are padding: the string stays valid.
    const atLimit = valid + 'A'.repeat(300 - valid.length);
    const decoded = decode(atLimit);
    assert.ok('consent' in decoded && decoded.consent.vendorConsent(10));
    assert.deepEqual(decode(`${atLimit}A`), { error: 'it is longer than 300 characters' });
  });
});
