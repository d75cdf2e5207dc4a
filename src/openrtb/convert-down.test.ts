import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convertDownTo25 } from './convert-down.js';
import type { BidRequest } from './types.js';

// The cases of Prebid Server's openrtb_ext/convert_down_test.go (ConvertDownTo25 and each move),
// written as JSON: Go's zero values (0, "", nil) are absent fields here.

const req = (over: Record<string, unknown>): BidRequest => ({ id: 'anyID', imp: [], ...over });
const schain1 = { complete: 1, nodes: [], ver: '1' };
const schain2 = { complete: 1, nodes: [], ver: '2' };
const eid1 = [{ source: '1' }];
const eid2 = [{ source: '2' }];

const cases: { name: string; given: Record<string, unknown>; expected?: Record<string, unknown>; error?: RegExp }[] = [
  {
    name: '2.6-to-2.5',
    given: { imp: [{ id: 'i', rwdd: 1 }], source: { schain: schain2 }, regs: { gdpr: 1, us_privacy: '3' }, user: { consent: '1', eids: [{ source: '42' }] } },
    expected: {
      imp: [{ id: 'i', ext: { prebid: { is_rewarded_inventory: 1 } } }],
      source: { ext: { schain: schain2 } },
      regs: { ext: { gdpr: 1, us_privacy: '3' } },
      user: { ext: { consent: '1', eids: [{ source: '42' }] } },
    },
  },
  {
    name: '2.6-to-2.5-OtherExtFields',
    given: {
      imp: [{ id: 'i', rwdd: 1, ext: { other: 'otherImp' } }],
      ext: { other: 'otherExt' },
      source: { schain: schain2, ext: { other: 'otherSource' } },
      regs: { gdpr: 1, us_privacy: '3', ext: { other: 'otherRegs' } },
      user: { consent: '1', eids: [{ source: '42' }], ext: { other: 'otherUser' } },
    },
    expected: {
      imp: [{ id: 'i', ext: { other: 'otherImp', prebid: { is_rewarded_inventory: 1 } } }],
      ext: { other: 'otherExt' },
      source: { ext: { other: 'otherSource', schain: schain2 } },
      regs: { ext: { gdpr: 1, other: 'otherRegs', us_privacy: '3' } },
      user: { ext: { consent: '1', eids: [{ source: '42' }], other: 'otherUser' } },
    },
  },
  { name: 'malformed-schain', given: { source: { schain: schain2, ext: 'malformed' } }, error: /source\.ext must be a JSON object/ },
  { name: 'malformed-gdpr', given: { regs: { gdpr: 1, ext: 'malformed' } }, error: /regs\.ext must be a JSON object/ },
  { name: 'malformed-consent', given: { user: { consent: '1', ext: 'malformed' } }, error: /user\.ext must be a JSON object/ },
  { name: 'malformed-usprivacy', given: { regs: { us_privacy: '3', ext: 'malformed' } }, error: /regs\.ext must be a JSON object/ },
  { name: 'malformed-eid', given: { user: { eids: eid1, ext: 'malformed' } }, error: /user\.ext must be a JSON object/ },
  { name: 'malformed-imp', given: { imp: [{ id: 'i', rwdd: 1, ext: 'malformed' }] }, error: /imp\[0\]\.ext must be a JSON object/ },
  { name: 'malformed-imp-prebid', given: { imp: [{ id: 'i', rwdd: 1, ext: { prebid: [] } }] }, error: /imp\[0\]\.ext\.prebid must be a JSON object/ },
  // supply chain
  { name: 'schain notpresent-source', given: {}, expected: {} },
  { name: 'schain notpresent-source-schain', given: { source: {} }, expected: { source: {} } },
  { name: 'schain 2.6-migratedto-2.5', given: { source: { schain: schain1 } }, expected: { source: { ext: { schain: schain1 } } } },
  { name: 'schain 2.5-overwritten', given: { source: { schain: schain1, ext: { schain: schain2 } } }, expected: { source: { ext: { schain: schain1 } } } },
  // gdpr
  { name: 'gdpr notpresent-regs', given: {}, expected: {} },
  { name: 'gdpr notpresent-regs-gdpr', given: { regs: {} }, expected: { regs: {} } },
  { name: 'gdpr 2.6-migratedto-2.5 (0 moves too)', given: { regs: { gdpr: 0 } }, expected: { regs: { ext: { gdpr: 0 } } } },
  { name: 'gdpr 2.5-overwritten', given: { regs: { gdpr: 0, ext: { gdpr: 1 } } }, expected: { regs: { ext: { gdpr: 0 } } } },
  // consent
  { name: 'consent notpresent-user', given: {}, expected: {} },
  { name: 'consent notpresent-user-consent', given: { user: {} }, expected: { user: {} } },
  { name: 'consent 2.6-migratedto-2.5', given: { user: { consent: '1' } }, expected: { user: { ext: { consent: '1' } } } },
  { name: 'consent 2.5-overwritten', given: { user: { consent: '1', ext: { consent: '2' } } }, expected: { user: { ext: { consent: '1' } } } },
  // us privacy
  { name: 'usprivacy notpresent-regs', given: {}, expected: {} },
  { name: 'usprivacy notpresent-regs-usprivacy', given: { regs: {} }, expected: { regs: {} } },
  { name: 'usprivacy 2.6-migratedto-2.5', given: { regs: { us_privacy: '1' } }, expected: { regs: { ext: { us_privacy: '1' } } } },
  { name: 'usprivacy 2.5-overwritten', given: { regs: { us_privacy: '1', ext: { us_privacy: '2' } } }, expected: { regs: { ext: { us_privacy: '1' } } } },
  // eids
  { name: 'eid notpresent-user', given: {}, expected: {} },
  { name: 'eid notpresent-user-eids', given: { user: {} }, expected: { user: {} } },
  { name: 'eid 2.6-migratedto-2.5', given: { user: { eids: eid1 } }, expected: { user: { ext: { eids: eid1 } } } },
  { name: 'eid 2.6-migratedto-2.5-empty', given: { user: { eids: [] } }, expected: { user: {} } },
  { name: 'eid empty clears the 2.5 place', given: { user: { eids: [], ext: { eids: eid2 } } }, expected: { user: {} } },
  { name: 'eid 2.5-overwritten', given: { user: { eids: eid1, ext: { eids: eid2 } } }, expected: { user: { ext: { eids: eid1 } } } },
  // rewarded
  { name: 'rwdd notpresent-prebid', given: { imp: [{ id: 'i', rwdd: 1 }] }, expected: { imp: [{ id: 'i', ext: { prebid: { is_rewarded_inventory: 1 } } }] } },
  { name: 'rwdd 2.6-migratedto-2.5', given: { imp: [{ id: 'i', rwdd: 1, ext: { prebid: { is_rewarded_inventory: 0 } } }] }, expected: { imp: [{ id: 'i', ext: { prebid: { is_rewarded_inventory: 1 } } }] } },
  { name: 'rwdd 2.5-overwritten keeps other prebid fields', given: { imp: [{ id: 'i', rwdd: 1, ext: { prebid: { is_rewarded_inventory: 2, bidder: { x: {} } } } }] }, expected: { imp: [{ id: 'i', ext: { prebid: { is_rewarded_inventory: 1, bidder: { x: {} } } } }] } },
  { name: 'rwdd 0 is not set: nothing moves', given: { imp: [{ id: 'i', rwdd: 0 }, { id: 'j' }] }, expected: { imp: [{ id: 'i', rwdd: 0 }, { id: 'j' }] } },
  // what Prebid Server leaves: other 2.6 fields stay where they are
  {
    name: 'other 2.6 fields untouched',
    given: { regs: { gpp: 'DBAA', gpp_sid: [2] }, device: { sua: { mobile: 0 } }, imp: [{ id: 'i', video: { podid: 'p', rqddurs: [15] } }] },
    expected: { regs: { gpp: 'DBAA', gpp_sid: [2] }, device: { sua: { mobile: 0 } }, imp: [{ id: 'i', video: { podid: 'p', rqddurs: [15] } }] },
  },
];

describe('convertDownTo25 (Prebid Server ConvertDownTo25 cases)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const given = req(c.given);
      const before = structuredClone(given);
      const got = convertDownTo25(given);
      assert.deepEqual(given, before, 'the input is not modified');
      if (c.error !== undefined) {
        assert.equal(got.ok, false);
        if (!got.ok) assert.match(got.error, c.error);
      } else {
        assert.equal(got.ok, true);
        if (got.ok) assert.deepEqual(got.request, req(c.expected ?? {}));
      }
    });
  }

  it('a request with nothing to move is returned as is', () => {
    const given = req({ regs: { coppa: 1, ext: { gdpr: 1 } }, user: { id: 'u' }, imp: [{ id: 'i' }] });
    const got = convertDownTo25(given);
    assert.ok(got.ok && got.request === given);
  });

  it('__proto__ and constructor keys in an ext stay plain data', () => {
    const given = JSON.parse('{"id":"x","imp":[],"regs":{"gdpr":1,"ext":{"__proto__":{"polluted":1},"constructor":2}}}') as BidRequest;
    const got = convertDownTo25(given);
    assert.ok(got.ok);
    const ext = got.request.regs?.ext ?? {};
    assert.deepEqual(Object.keys(ext).sort(), ['__proto__', 'constructor', 'gdpr']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(ext), Object.prototype);
  });
});
