import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
});
