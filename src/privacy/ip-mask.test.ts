import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskIPv4, maskIPv6 } from './ip-mask.js';
import { parseUsPrivacy } from './us-privacy.js';

describe('IP masking', () => {
  it('keeps the first bits of IPv4 addresses', () => {
    assert.equal(maskIPv4('203.0.113.77', 24), '203.0.113.0');
    assert.equal(maskIPv4('255.255.255.255', 16), '255.255.0.0');
    assert.equal(maskIPv4('10.1.2.3', 0), '0.0.0.0');
    assert.equal(maskIPv4('10.1.2.3', 32), '10.1.2.3');
    assert.equal(maskIPv4('not an ip', 24), '');
  });

  it('keeps the first bits of IPv6 addresses, written as RFC 5952 has it', () => {
    assert.equal(maskIPv6('2001:db8:1234:5678:9abc::1', 56), '2001:db8:1234:5600::');
    assert.equal(maskIPv6('2001:0DB8:AAAA:BBBB:CCCC:DDDD:EEEE:FFFF', 64), '2001:db8:aaaa:bbbb::');
    assert.equal(maskIPv6('::1', 56), '::');
    assert.equal(maskIPv6('::ffff:192.0.2.1', 128), '::ffff:c000:201');
    assert.equal(maskIPv6('fe80::1%eth0', 16), 'fe80::');
    assert.equal(maskIPv6('1.2.3.4', 56), '');
  });
});

describe('us_privacy strings', () => {
  it('reads the opt-out of sale', () => {
    assert.deepEqual(parseUsPrivacy('1YYN'), { optOutSale: true });
    assert.deepEqual(parseUsPrivacy('1NN-'), { optOutSale: false });
    assert.deepEqual(parseUsPrivacy('1---'), { optOutSale: false });
  });

  it('names what is wrong, as Prebid Server does', () => {
    assert.deepEqual(parseUsPrivacy('1YY'), { error: 'must contain 4 characters' });
    assert.deepEqual(parseUsPrivacy('2YYN'), { error: 'must specify version 1' });
    assert.deepEqual(parseUsPrivacy('1YXN'), { error: "must specify 'N', 'Y', or '-' for the opt-out sale" });
  });
});
