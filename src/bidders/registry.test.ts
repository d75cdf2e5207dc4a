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
});
