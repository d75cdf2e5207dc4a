import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClientAddress, trustedProxyCheck } from './client-address.js';

describe('client address', () => {
  it('is the peer\'s address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    const address = createClientAddress(undefined);
    assert.equal(address('10.0.0.7', '203.0.113.9'), '10.0.0.7');
    assert.equal(address(undefined, undefined), '');
  });

  it('behind trusted proxies, is the first untrusted hop from the right of X-Forwarded-For', () => {
    const address = createClientAddress(trustedProxyCheck(['10.0.0.0/8', '192.0.2.1']));
    // The client wrote 198.51.100.1 itself; the edge proxy (10.0.0.2) saw 203.0.113.9 connect.
    assert.equal(address('10.0.0.7', '198.51.100.1, 203.0.113.9, 10.0.0.2'), '203.0.113.9');
    assert.equal(address('192.0.2.1', '203.0.113.9'), '203.0.113.9');
    // Every hop trusted: the leftmost.
    assert.equal(address('10.0.0.7', '10.1.1.1,10.2.2.2'), '10.1.1.1');
    // Empty entries name no hop; a peer that is not trusted is believed alone.
    assert.equal(address('10.0.0.7', ' , 203.0.113.9 ,,'), '203.0.113.9');
    assert.equal(address('203.0.113.50', '198.51.100.1'), '203.0.113.50');
    // No header: the peer.
    assert.equal(address('10.0.0.7', undefined), '10.0.0.7');
    // Something that is not an address is not a trusted proxy: it stops the walk, as proxy-addr does.
    assert.equal(address('10.0.0.7', '203.0.113.9, unknown'), 'unknown');
    // node:http joins repeated lines; an array reads the same.
    assert.equal(address('10.0.0.7', ['198.51.100.1', '10.0.0.3']), '198.51.100.1');
  });

  it('reads IPv6, IPv4-mapped IPv6 and the named ranges', () => {
    const address = createClientAddress(trustedProxyCheck(['loopback', 'fd00::/8']));
    assert.equal(address('::1', '2001:db8::5'), '2001:db8::5');
    assert.equal(address('::ffff:127.0.0.1', '203.0.113.9'), '203.0.113.9');
    assert.equal(address('fd12::1', '2001:db8::5, fd00::9'), '2001:db8::5');
    const isUniqueLocal = trustedProxyCheck(['uniquelocal']);
    assert.equal(isUniqueLocal('172.20.1.1'), true);
    assert.equal(isUniqueLocal('172.32.1.1'), false);
  });

  it('refuses an entry that is not an address, a range or a known name', () => {
    for (const entry of ['10.0.0.0/33', 'proxy.example', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x', 'localhost']) {
      assert.throws(() => trustedProxyCheck([entry]), /server\.trusted_proxies/, entry);
    }
  });
});
