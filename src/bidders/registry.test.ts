import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appnexusAdapter } from './appnexus/index.js';
import { genericAdapter } from './generic/index.js';
import { createBidderRegistry } from './registry.js';

describe('createBidderRegistry', () => {
  it('an adapter named after an Object.prototype member is unknown, named in the start error', () => {
    for (const adapter of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      assert.throws(
        () => createBidderRegistry({ generic: genericAdapter }, { x: { adapter, endpoint: 'http://127.0.0.1:1/', enabled: true } }),
        (err: Error) => err.message.includes(`adapters.x.adapter: no built-in adapter named "${adapter}"`),
        adapter,
      );
    }
  });

  it('a built-in shipped disabled is a disabled bidder until adapters.<code> configures it', () => {
    const shippedOff = { ...appnexusAdapter, info: { ...appnexusAdapter.info, disabled: true } };
    const off = createBidderRegistry({ appnexus: shippedOff }, {});
    assert.equal(off.get('appnexus'), undefined);
    assert.equal(off.isDisabled('appnexus'), true);
    const on = createBidderRegistry({ appnexus: shippedOff }, { appnexus: { endpoint: '', enabled: true } });
    assert.equal(on.get('appnexus')?.code, 'appnexus');
    assert.equal(on.isDisabled('appnexus'), false);
  });

  it('gives each bidder the host settings: extra_info over the adapter\'s default, xapi only when set, the server facts', () => {
    const withDefault = { ...appnexusAdapter, info: { ...appnexusAdapter.info, extraInfo: 'https://default.example' } };
    const server = { externalUrl: 'https://openbid.example', version: '9.9.9' };
    const byDefault = createBidderRegistry({ appnexus: withDefault }, {}, server).get('appnexus');
    assert.deepEqual(byDefault?.host, { externalUrl: 'https://openbid.example', serverVersion: '9.9.9', extraInfo: 'https://default.example' });
    const xapi = { username: 'u', password: 'p', tracker: 't' };
    const configured = createBidderRegistry({ appnexus: withDefault }, { appnexus: { endpoint: '', enabled: true, extra_info: 'mine', xapi } }, server).get('appnexus');
    assert.deepEqual(configured?.host, { externalUrl: 'https://openbid.example', serverVersion: '9.9.9', extraInfo: 'mine', xapi });
  });
});
