import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from './load.js';
import { problemsOf } from '../../test/support/config-problems.js';

describe('environment overrides of map keys', () => {
  it('keep the case of a key the file does not have: account ids, bidder codes, storage applications', () => {
    const c = loadConfig({
      env: {
        OPENBID_ACCOUNTS__BY_ID__PubA__EVENTS__ENABLED: 'false',
        OPENBID_ADAPTERS__MyBidder__ADAPTER: 'generic',
        OPENBID_ADAPTERS__MyBidder__ENDPOINT: 'http://127.0.0.1:9/bid',
        OPENBID_STORAGE__MEMORY__ModA: '{"max_size_bytes": 2048}',
        OPENBID_STORAGE__REDIS__Mod_B__PORT: '6380',
      },
    });
    assert.deepEqual(Object.keys(c.accounts.by_id), ['PubA']);
    assert.equal(c.accounts.by_id.PubA?.events?.enabled, false);
    assert.deepEqual(Object.keys(c.adapters), ['MyBidder']);
    assert.equal(c.adapters.MyBidder?.endpoint, 'http://127.0.0.1:9/bid');
    assert.deepEqual(Object.keys(c.storage.memory), ['ModA']);
    assert.deepEqual(Object.keys(c.storage.redis), ['Mod_B']);
    assert.equal(c.storage.redis.Mod_B?.port, 6380);
  });

  it('keep keys that differ only in case apart', () => {
    const c = loadConfig({
      env: { OPENBID_ACCOUNTS__BY_ID__PUBA__EVENTS__ENABLED: 'false', OPENBID_ACCOUNTS__BY_ID__PubA__EVENTS__ENABLED: 'true' },
    });
    assert.equal(c.accounts.by_id.PUBA?.events?.enabled, false);
    assert.equal(c.accounts.by_id.PubA?.events?.enabled, true);
  });

  it('set the file\'s key spelled exactly so, else its one key differing in case or - and _ alone', () => {
    const c = loadConfig({
      raw: {
        accounts: { by_id: { Pub1: { events: { enabled: true } }, pub1: { events: { enabled: true } }, 'pub-two': { events: { enabled: true } } } },
        adapters: { appnexus: { enabled: true } },
      },
      env: {
        OPENBID_ACCOUNTS__BY_ID__pub1__EVENTS__ENABLED: 'false',
        OPENBID_ACCOUNTS__BY_ID__PUB_TWO__EVENTS__ENABLED: 'false',
        OPENBID_ADAPTERS__APPNEXUS__ENABLED: 'false',
      },
    });
    assert.deepEqual(Object.keys(c.accounts.by_id).sort(), ['Pub1', 'pub-two', 'pub1']);
    assert.equal(c.accounts.by_id.pub1?.events?.enabled, false);
    assert.equal(c.accounts.by_id.Pub1?.events?.enabled, true);
    assert.equal(c.accounts.by_id['pub-two']?.events?.enabled, false);
    assert.deepEqual(Object.keys(c.adapters), ['appnexus']);
    assert.equal(c.adapters.appnexus?.enabled, false);
  });

  it('refuse a key that matches several of the file\'s only when case is ignored', () => {
    const problems = problemsOf(() =>
      loadConfig({
        raw: { accounts: { by_id: { Pub1: {}, pub1: {} } } },
        env: { OPENBID_ACCOUNTS__BY_ID__PUB1__EVENTS__ENABLED: 'false' },
      }),
    );
    assert.deepEqual(problems, [
      "OPENBID_ACCOUNTS__BY_ID__PUB1__EVENTS__ENABLED: accounts.by_id.PUB1: matches 'Pub1' and 'pub1' of the file but none exactly; spell the key as the file does",
    ]);
  });

  it('still match section and setting names in any case', () => {
    const c = loadConfig({ env: { openbid_Accounts__By_Id__PubA__Events__Enabled: 'false' } });
    assert.equal(c.accounts.by_id.PubA?.events?.enabled, false);
  });
});
