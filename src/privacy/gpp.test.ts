import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allConsent, craftedTcf, gppHeader, gppHeaderRangeBomb, gppString, gppWithTcf } from '../../test/support/consent-strings.js';
import { createGppDecoder, decodeGppString } from './gpp.js';
import type { GppSignals } from './gpp.js';

const signalsOf = (text: string): GppSignals => {
  const d = decodeGppString(text);
  assert.ok('gpp' in d, `decodes: ${'error' in d ? d.error : ''}`);
  return d.gpp;
};

describe('GPP decoding', () => {
  it("reads the IAB encoder's strings: section ids, the TCF EU and US Privacy sections as carried, US opt-outs and GPC", () => {
    const tcf = allConsent();
    const g = signalsOf(gppString({ tcfEu: tcf, usp: '1YYN', usNat: { saleOptOut: 1, gpc: true } }));
    assert.deepEqual(g.sectionIds, [2, 6, 7]);
    assert.equal(g.tcfEu, tcf);
    assert.equal(g.usPrivacy, '1YYN');
    assert.deepEqual(g.us.get(7), { optOut: true, gpc: true });
    assert.deepEqual(signalsOf(gppString({ usNat: { saleOptOut: 2 } })).us.get(7), { optOut: false, gpc: false });
  });

  it('a header range naming a billion sections stops at the sections carried: an error at once, nothing expanded', () => {
    const text = gppHeaderRangeBomb(1_000_000_000);
    assert.ok(text.length < 30, text);
    const before = process.cpuUsage();
    assert.deepEqual(decodeGppString(text), { error: 'its header has a section id it cannot read' });
    assert.deepEqual(decodeGppString(gppHeaderRangeBomb(4000)), { error: 'its header names more sections than the 1 it carries' });
    const used = process.cpuUsage(before);
    assert.ok(used.user + used.system < 20_000, `${used.user + used.system} µs`);
  });

  it("a section carried is kept as it is, ranges and all, for the TCF decoder's own bound", () => {
    const tcf = craftedTcf(4096);
    assert.equal(signalsOf(gppWithTcf(tcf)).tcfEu, tcf);
  });

  it('what does not decode says why in our words', () => {
    const cases: [string, string][] = [
      ['garbage!', 'its header is not a GPP header'],
      ['CPXxRfA', 'its header is not a GPP version 1 header'],
      [`${gppHeader([2, 6])}~${allConsent()}`, 'its header names more sections than the 1 it carries'],
      [`${gppHeader([2])}~${allConsent()}~1YNN`, 'its header names 1 of the 2 sections it carries'],
      [`${gppHeader([2])}~ `, 'its section 2 is empty'],
      [`${gppHeader([7])}~!!!`, 'its section 7 does not decode'],
      ['DBAB', 'its header ends within its section ids'],
    ];
    for (const [text, error] of cases) assert.deepEqual(decodeGppString(text), { error }, text);
    // TCF Canada and unknown sections are carried, not read (as Prebid Server's GPP parser keeps them).
    assert.deepEqual(signalsOf(`${gppHeader([5, 99])}~anything~else`).sectionIds, [5, 99]);
  });

  it('a string over maxLength is invalid without being read', () => {
    const decode = createGppDecoder({ maxLength: 300 });
    const text = gppWithTcf(craftedTcf(400));
    assert.deepEqual(decode(text), { error: 'it is longer than 300 characters' });
    assert.ok('gpp' in createGppDecoder()(text));
  });
});
