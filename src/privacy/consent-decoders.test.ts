import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tcfString } from '../../test/support/consent-strings.js';
import { createGppDecoder } from './gpp.js';
import { createTcfDecoder } from './tcf-consent.js';

// Consent strings come from requests: the decoders' memories are bounded in bytes, not only in count.
describe('consent decoders remember strings within a byte budget', () => {
  const junk = (i: number) => `${String(i).padStart(6, '0')}${'Q'.repeat(10_000)}`;

  for (const [name, make] of [
    ['TCF', (maxBytes: number) => createTcfDecoder({ maxBytes })],
    ['GPP', (maxBytes: number) => createGppDecoder({ maxBytes })],
  ] as const) {
    it(`${name}: long strings push the oldest out long before 2,000 entries`, () => {
      const decode = make(128 * 1024);
      const first = decode(junk(0));
      assert.equal(decode(junk(0)), first, 'a held string answers the same decoded object');
      for (let i = 1; i < 20; i++) decode(junk(i));
      assert.equal(decode(junk(19)), decode(junk(19)), 'the latest is held');
      assert.notEqual(decode(junk(0)), first, 'the first was dropped for its bytes (20 × 20 KB > 128 KiB)');
    });
  }

  it('TCF: a real consent string still decodes and is remembered', () => {
    const decode = createTcfDecoder({ maxBytes: 128 * 1024 });
    const text = tcfString({ purposes: [1, 2], vendors: [10] });
    const got = decode(text);
    assert.ok('consent' in got && got.consent.vendorConsent(10));
    assert.equal(decode(text), got);
  });
});
